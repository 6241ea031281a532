extension Bitmap {
    /// This image scaled by `scaleX × scaleY` with its top-left corner at (`originX`, `originY`)
    /// pixels of an output plane, as the pixels of `region` of that plane. Bilinear between pixel
    /// centres (edges clamped inside the image, transparent outside it); below half size the image is
    /// first box-reduced so that no source pixel is skipped. An exact 1:1 placement on whole pixels
    /// copies. The result is `region`'s size at scale 1; a scale or origin that is not a positive
    /// finite number places nothing (the result is transparent).
    /// - Throws: ``BitmapError`` when `region` is empty or over the pixel limit.
    public func placed(
        scaleX fx: Double, scaleY fy: Double, originX ox: Double, originY oy: Double, region: PixelRect
    ) throws(BitmapError) -> Bitmap {
        var out = try Bitmap(width: region.width, height: region.height)
        guard fx.isFinite, fy.isFinite, fx > 0, fy > 0, ox.isFinite, oy.isFinite else { return out }
        let reduction = max(1, Int(min(1e9, 1 / (2 * min(fx, fy)))))
        if reduction > 1 {
            let small = try reduced(PixelRect(x: 0, y: 0, width: width, height: height), by: reduction)
            return try small.placed(scaleX: fx * Double(reduction), scaleY: fy * Double(reduction), originX: ox, originY: oy, region: region)
        }
        if fx == 1, fy == 1, ox == ox.rounded(), oy == oy.rounded(), abs(ox) < 1e9, abs(oy) < 1e9 {
            out.replacePixels(at: Int(ox) - region.x, Int(oy) - region.y, with: self)
            return out
        }
        // Per output column: the two source columns and the weight; likewise per row.
        let (w, h) = (width, height)
        var columns: [(Int, Int, Float)] = [], first = region.width, last = -1
        for x in 0..<region.width {
            let u = (Double(region.x + x) + 0.5 - ox) / fx - 0.5
            guard u > -0.5, u < Double(w) - 0.5 else { columns.append((0, 0, 0)); continue }
            let c = min(Double(w - 1), max(0, u)), x0 = Int(c)
            columns.append((x0 * 4, min(w - 1, x0 + 1) * 4, Float(c - Double(x0))))
            first = min(first, x); last = x
        }
        guard first <= last else { return out }
        withPixels { source in
            out.withMutablePixels { target in
                for y in 0..<region.height {
                    let v = (Double(region.y + y) + 0.5 - oy) / fy - 0.5
                    guard v > -0.5, v < Double(h) - 0.5 else { continue }
                    let r = min(Double(h - 1), max(0, v)), y0 = Int(r), ty = Float(r - Double(y0))
                    let top = source.row(y0), bottom = source.row(min(h - 1, y0 + 1))
                    let o = target.row(y)
                    for x in first...last {
                        let (a, b, tx) = columns[x]
                        let p00 = SIMD4<Float>(Float(top[a]), Float(top[a + 1]), Float(top[a + 2]), Float(top[a + 3]))
                        let p01 = SIMD4<Float>(Float(top[b]), Float(top[b + 1]), Float(top[b + 2]), Float(top[b + 3]))
                        let p10 = SIMD4<Float>(Float(bottom[a]), Float(bottom[a + 1]), Float(bottom[a + 2]), Float(bottom[a + 3]))
                        let p11 = SIMD4<Float>(Float(bottom[b]), Float(bottom[b + 1]), Float(bottom[b + 2]), Float(bottom[b + 3]))
                        let upper = p00 + (p01 - p00) * tx, lower = p10 + (p11 - p10) * tx
                        let value = upper + (lower - upper) * ty + 0.5
                        for k in 0..<4 { o[x * 4 + k] = UInt8(min(255, max(0, value[k]))) }
                    }
                }
            }
        }
        return out
    }
}
