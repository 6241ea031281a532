/// Anti-aliased coverage of a rounded rectangle, for clipping.
public enum RoundedRect {
    /// Coverage (0…1) of each pixel of `region` (pixels) by the rounded rectangle `rect` (pixels)
    /// with corner `radius` (pixels, clamped to half the shorter side), row-major. A pixel is covered
    /// by the fraction of a one-pixel ramp across the shape's edge at its centre.
    public static func coverage(of rect: Rect, radius: Double, in region: PixelRect) -> [Float] {
        let shape = Shape(rect, radius: radius)
        var out = [Float](repeating: 0, count: region.width * region.height)
        for row in 0..<region.height {
            for column in 0..<region.width {
                out[row * region.width + column] = shape.coverage(x: region.x + column, y: region.y + row)
            }
        }
        return out
    }

    /// A rounded rectangle ready for per-pixel coverage queries.
    struct Shape {
        let left: Double, top: Double, right: Double, bottom: Double, r: Double
        let cx: Double, cy: Double, hx: Double, hy: Double

        init(_ rect: Rect, radius: Double) {
            r = max(0, min(radius.isFinite ? radius : 0, min(rect.width, rect.height) / 2))
            (left, top, right, bottom) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
            (cx, cy) = (rect.x + rect.width / 2, rect.y + rect.height / 2)
            (hx, hy) = (rect.width / 2 - r, rect.height / 2 - r)
        }

        /// Coverage of pixel (x, y): 1 well inside (no square root), a one-pixel ramp at the edge.
        @inline(__always)
        func coverage(x: Int, y: Int) -> Float {
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let dx = min(px - left, right - px), dy = min(py - top, bottom - py)
            if dx >= 0.5 && dy >= 0.5 && (dx >= r || dy >= r) { return 1 }
            let qx = abs(px - cx) - hx, qy = abs(py - cy) - hy
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            let distance = outside + min(max(qx, qy), 0) - r  // negative inside
            return Float(min(1, max(0, 0.5 - distance)))
        }
    }
}
