extension Path {
    /// Anti-aliased coverage (0…1) of each pixel of `region` by the filled path, row-major, with the
    /// non-zero winding rule. `transform` maps path coordinates to pixels of the full image (so
    /// `region` may be any window of it). Coverage is the exact area of each pixel inside the
    /// flattened outline (signed-area accumulation), so a pixel half covered gets 0.5.
    public func coverage(in region: PixelRect, transform: (Point) -> Point) -> [Float] {
        let (w, h) = (region.width, region.height)
        guard w > 0, h > 0 else { return [] }
        // Accumulated signed area per pixel, one spare column for the right edge.
        var accumulator = [Double](repeating: 0, count: (w + 2) * h)
        let ox = Double(region.x), oy = Double(region.y)
        for polygon in polygons({
            let p = transform($0); return Point(p.x - ox, p.y - oy)
        }) {
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
                // Split where the edge crosses the window's sides; a piece beyond a side counts as a
                // vertical edge on that side (what it adds to every pixel after it is the same).
                var cuts = [0.0, 1.0]
                for side in [0.0, Double(w)] where (a.x - side) * (b.x - side) < 0 { cuts.append((side - a.x) / (b.x - a.x)) }
                cuts.sort()
                for k in 1..<cuts.count {
                    func at(_ t: Double) -> Point { Point(min(Double(w), max(0, a.x + (b.x - a.x) * t)), a.y + (b.y - a.y) * t) }
                    let p = cuts[k - 1] == 0 ? Point(min(Double(w), max(0, a.x)), a.y) : at(cuts[k - 1])
                    let q = cuts[k] == 1 ? Point(min(Double(w), max(0, b.x)), b.y) : at(cuts[k])
                    Path.accumulate(from: p, to: q, width: w, height: h, into: &accumulator)
                }
            }
        }
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            var sum = 0.0
            for x in 0..<w {
                sum += accumulator[y * (w + 2) + x]
                out[y * w + x] = Float(min(1, abs(sum)))
            }
        }
        return out
    }

    /// Adds the signed area that the edge `a → b` covers to the right of it, per pixel, so that a
    /// running sum along each row gives the winding-weighted coverage.
    private static func accumulate(from a: Point, to b: Point, width w: Int, height h: Int, into acc: inout [Double]) {
        guard a.y != b.y else { return }
        let (direction, p0, p1) = a.y < b.y ? (1.0, a, b) : (-1.0, b, a)
        let stride = w + 2, limit = Double(w)
        let dxdy = (p1.x - p0.x) / (p1.y - p0.y)
        let firstRow = Int(min(Double(h), max(0, p0.y.rounded(.down))))
        let lastRow = Int(min(Double(h), max(0, p1.y.rounded(.up))))
        guard firstRow < lastRow else { return }
        var x = p0.x + (max(p0.y, Double(firstRow)) - p0.y) * dxdy
        for row in firstRow..<lastRow {
            let top = max(Double(row), p0.y), bottom = min(Double(row + 1), p1.y)
            let dy = bottom - top
            let next = x + dxdy * dy
            defer { x = next }
            guard dy > 0 else { continue }
            let d = dy * direction
            let line = row * stride
            // Outside the window horizontally, an edge counts at the window's border.
            guard x.isFinite, next.isFinite else { continue }
            let xa = min(limit, max(0, x)), xb = min(limit, max(0, next))
            let (x0, x1) = xa < xb ? (xa, xb) : (xb, xa)
            let x0floor = x0.rounded(.down), x1ceil = x1.rounded(.up)
            let i0 = Int(x0floor), i1 = Int(x1ceil)
            if i1 <= i0 + 1 {
                // Within one pixel column: split by the mean x.
                let mid = (xa + xb) / 2 - x0floor
                acc[line + i0] += d - d * mid
                acc[line + i0 + 1] += d * mid
            } else {
                let s = 1 / (x1 - x0)
                let f0 = x0 - x0floor
                let a0 = 0.5 * s * (1 - f0) * (1 - f0)
                let f1 = x1 - x1ceil + 1
                let am = 0.5 * s * f1 * f1
                acc[line + i0] += d * a0
                if i1 == i0 + 2 {
                    acc[line + i0 + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - f0)
                    acc[line + i0 + 1] += d * (a1 - a0)
                    for i in (i0 + 2)..<(i1 - 1) { acc[line + i] += d * s }
                    let a2 = a1 + Double(i1 - i0 - 3) * s
                    acc[line + i1 - 1] += d * (1 - a2 - am)
                }
                acc[line + i1] += d * am
            }
        }
    }
}
