/// The outline of one or more pieces of glass in pixels: a signed distance field (negative inside)
/// of rounded rectangles joined by a smooth minimum, and the normals the refraction follows.
///
/// Two fields share the boxes: the true one (corner radius r) for coverage and the distance from the
/// edge, and an optical one whose corners are rounder (r' = min(1.5 r, half the shorter side), Haze's
/// optical corner radius) whose gradient is the normal: radial from the arc's centre in a corner,
/// perpendicular to the side along it. Where boxes meet, the smooth minimum of width `k` pixels
/// (quadratic: min(a, b) − h²k/4, h = max(k − |a − b|, 0)/k) bridges gaps narrower than k/2.
package struct GlassSurface: Sendable, Hashable {
    /// One rounded rectangle: centre, half sizes, corner radius and optical corner radius, pixels.
    struct Box: Sendable, Hashable {
        let cx: Double, cy: Double, hx: Double, hy: Double, r: Double, optical: Double

        /// `frame` (points) with `shape`'s corners, at `scale` pixels per point.
        init(_ frame: Rect, shape: GlassShape, scale: Double) {
            (cx, cy) = ((frame.x + frame.width / 2) * scale, (frame.y + frame.height / 2) * scale)
            (hx, hy) = (frame.width / 2 * scale, frame.height / 2 * scale)
            r = shape.cornerRadius(width: frame.width, height: frame.height) * scale
            optical = min(1.5 * r, min(hx, hy))
        }

        /// The gradient of ``distance(_:_:radius:)``: radial from the corner's arc centre in a corner,
        /// perpendicular to the nearer side elsewhere (inside, the side whose distance is smaller).
        @inline(__always)
        func gradient(_ x: Double, _ y: Double, radius: Double) -> SIMD2<Double> {
            let dx = x - cx, dy = y - cy
            let qx = abs(dx) - (hx - radius), qy = abs(dy) - (hy - radius)
            var g: SIMD2<Double>
            if qx > 0 && qy > 0 {
                g = SIMD2(qx, qy) / (qx * qx + qy * qy).squareRoot()
            } else {
                g = qx > qy ? SIMD2(1, 0) : SIMD2(0, 1)
            }
            if dx < 0 { g.x = -g.x }
            if dy < 0 { g.y = -g.y }
            return g
        }

        /// Signed distance of (x, y) from this box with corner radius `radius`.
        @inline(__always)
        func distance(_ x: Double, _ y: Double, radius: Double) -> Double {
            let qx = abs(x - cx) - (hx - radius), qy = abs(y - cy) - (hy - radius)
            let ox = max(qx, 0), oy = max(qy, 0)
            return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
        }
    }

    let boxes: [Box]
    /// Width of the smooth minimum, pixels; 0 = a plain minimum (shapes batched, never merged).
    let k: Double
    /// The bounding rectangle of every box, pixels.
    let bounds: Rect
    /// The longest of the boxes' shorter sides, pixels: what the optics are sized by.
    let shortSide: Double

    /// `members` (shapes with frames in points) at `scale` pixels per point, merged where closer than
    /// `k / 2` pixels.
    package init(_ members: [(GlassShape, Rect)], scale: Double, k: Double) {
        boxes = members.map { Box($0.1, shape: $0.0, scale: scale) }
        self.k = k.isFinite ? max(0, k) : 0
        let frames = members.map { $0.1.scaled(by: scale) }
        bounds = frames.dropFirst().reduce(frames.first ?? Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        shortSide = frames.map { min($0.width, $0.height) }.max() ?? 0
    }

    /// Signed distance from the outline, pixels: negative inside.
    @inline(__always)
    package func distance(_ x: Double, _ y: Double) -> Double {
        var d = Double.infinity
        for box in boxes { d = smoothMinimum(d, box.distance(x, y, radius: box.r)) }
        return d
    }

    /// The optical field, whose gradient is the normal.
    @inline(__always)
    func opticalDistance(_ x: Double, _ y: Double) -> Double {
        var d = Double.infinity
        for box in boxes { d = smoothMinimum(d, box.distance(x, y, radius: box.optical)) }
        return d
    }

    /// The outward unit normal at (x, y): the optical field's gradient, exact (each box's, then the
    /// smooth minimum's: (1 − h/2)·∇(the nearer) + (h/2)·∇(the other)); zero where it vanishes.
    @inline(__always)
    package func normal(_ x: Double, _ y: Double) -> SIMD2<Double> {
        var d = Double.infinity, g = SIMD2<Double>.zero
        for box in boxes {
            let b = box.distance(x, y, radius: box.optical), gb = box.gradient(x, y, radius: box.optical)
            if !d.isFinite || (k == 0 && b < d) {
                (d, g) = (b, gb)
            } else if k > 0 {
                let h = max(k - abs(d - b), 0) / k
                g = d <= b ? g * (1 - h / 2) + gb * (h / 2) : gb * (1 - h / 2) + g * (h / 2)
                d = min(d, b) - h * h * k / 4
            }
        }
        let length = (g.x * g.x + g.y * g.y).squareRoot()
        return length > 1e-9 ? g / length : .zero
    }

    @inline(__always)
    func smoothMinimum(_ a: Double, _ b: Double) -> Double {
        guard k > 0, a.isFinite else { return min(a, b) }
        let h = max(k - abs(a - b), 0) / k
        return min(a, b) - h * h * k / 4
    }
}
