extension Bitmap {
    /// Throws unless `region` is non-empty and lies wholly inside the image.
    func requireRegion(_ region: PixelRect) throws(BitmapError) {
        guard region.lies(inside: width, height) else {
            throw .regionOutOfBounds(
                x: region.x, y: region.y, width: region.width, height: region.height, imageWidth: width, imageHeight: height)
        }
    }

    /// `region` shrunk by a whole `factor`: each pixel the mean of a `factor × factor` block (the
    /// blocks at the right and bottom edges average the pixels they have). The scale divides by
    /// `factor`, so point sizes stay.
    /// - Throws: ``BitmapError/regionOutOfBounds(x:y:width:height:imageWidth:imageHeight:)`` for an
    ///   empty region or one outside the image; ``BitmapError/invalidScale(_:)`` for a factor below 1.
    public func reduced(_ region: PixelRect, by factor: Int) throws(BitmapError) -> Bitmap {
        try requireRegion(region)
        guard factor >= 1 else { throw .invalidScale(Double(factor)) }
        let w = (region.width + factor - 1) / factor, h = (region.height + factor - 1) / factor
        var out = try Bitmap.uninitialized(width: w, height: h, scale: scale / Double(factor))
        let count = region.width * 4
        withPixels { whole in
            let source = whole.region(region)
            out.withMutablePixels { target in
                Parallel.forEachBand(count: h, parts: nil) { band in
                    var sums = [UInt32](repeating: 0, count: count)
                    sums.withUnsafeMutableBufferPointer { acc in
                        for y in band {
                            // Column sums over the block's rows (vectorised), then sums across.
                            let rows = min(factor, region.height - y * factor)
                            for i in 0..<count { acc[i] = 0 }
                            for r in 0..<rows {
                                let line = source.row(y * factor + r)
                                for i in 0..<count { acc[i] &+= UInt32(line[i]) }
                            }
                            let o = target.row(y)
                            for x in 0..<w {
                                let columns = min(factor, region.width - x * factor), n = UInt32(rows * columns)
                                var total = SIMD4<UInt32>()
                                for c in 0..<columns {
                                    let at = (x * factor + c) * 4
                                    total &+= SIMD4(acc[at], acc[at + 1], acc[at + 2], acc[at + 3])
                                }
                                for k in 0..<4 { o[x * 4 + k] = UInt8(truncatingIfNeeded: (total[k] &+ n / 2) / n) }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// This image with `small` scaled up by `factor` (bilinear, pixel centres aligned, edges
    /// clamped) drawn into `region`, each pixel mixed with this image's by `coverage(x, y)` (0…1,
    /// pixel coordinates): `out = c·up + (1 − c)·self`, the same operations for every channel.
    /// Each row asks for coverage from both ends inward only until it reaches 1, so a large shape
    /// costs a few calls per row; outside the region the bytes are copied.
    func drawingUpsampled(
        _ small: Bitmap, factor: Int, into region: PixelRect, coverage: @Sendable (Int, Int) -> Float
    ) -> Bitmap {
        requireInside(region)
        var result = makeUninitializedLike()
        let f = Float(factor), sw = small.width, sh = small.height
        // Horizontal taps, shared by every row.
        var taps = [(Int, Int, Float)]()
        for x in 0..<region.width {
            let sx = min(Float(sw - 1), max(0, (Float(x) + 0.5) / f - 0.5))
            let i = Int(sx)
            taps.append((i * 4, min(sw - 1, i + 1) * 4, sx - Float(i)))
        }
        let columns = taps, (w, h) = (width, height)
        small.withPixels { source in
            withPixels { under in
                result.withMutablePixels { whole in
                    let target = whole.region(region), beneath = under.region(region)
                    // Outside the region: a copy.
                    Parallel.forEachBand(count: h, parts: nil) { band in
                        for y in band {
                            let from = under.row(y), to = whole.row(y)
                            if y < region.y || y >= region.y + region.height {
                                to.update(from: from, count: w * 4)
                            } else {
                                to.update(from: from, count: region.x * 4)
                                let end = (region.x + region.width) * 4
                                (to + end).update(from: from + end, count: w * 4 - end)
                            }
                        }
                    }
                    Parallel.forEachBand(count: region.height, parts: nil) { band in
                        var vertical = [Float](repeating: 0, count: sw * 4), line = [Float](repeating: 0, count: region.width * 4)
                        vertical.withUnsafeMutableBufferPointer { v in
                            line.withUnsafeMutableBufferPointer { l in
                                columns.withUnsafeBufferPointer { taps in
                                    for y in band {
                                        let sy = min(Float(sh - 1), max(0, (Float(y) + 0.5) / f - 0.5))
                                        let j = Int(sy), ty = sy - Float(j)
                                        let top = source.row(j), bottom = source.row(min(sh - 1, j + 1))
                                        for i in 0..<(sw * 4) { v[i] = Float(top[i]) + (Float(bottom[i]) - Float(top[i])) * ty }
                                        let raw = UnsafeRawPointer(v.baseAddress!), out = UnsafeMutableRawPointer(l.baseAddress!)
                                        for x in 0..<region.width {
                                            let (a, b, t) = taps[x]
                                            let p = raw.loadUnaligned(fromByteOffset: a * 4, as: SIMD4<Float>.self)
                                            let q = raw.loadUnaligned(fromByteOffset: b * 4, as: SIMD4<Float>.self)
                                            out.storeBytes(of: p + (q - p) * t, toByteOffset: x * 16, as: SIMD4<Float>.self)
                                        }
                                        // Partly covered pixels at both ends; the run between is fully covered.
                                        let row = target.row(y), below = beneath.row(y)
                                        var first = 0, last = region.width
                                        func mix(_ x: Int) -> Bool {
                                            let c = max(0, coverage(region.x + x, region.y + y))
                                            if c >= 1 { return true }
                                            for k in 0..<4 {
                                                let value = c * l[x * 4 + k] + (1 - c) * Float(below[x * 4 + k]) + 8_388_608
                                                row[x * 4 + k] = UInt8(truncatingIfNeeded: value.bitPattern)
                                            }
                                            return false
                                        }
                                        while first < last && !mix(first) { first += 1 }
                                        while last > first && !mix(last - 1) { last -= 1 }
                                        if last > first {
                                            Kernels.storeBytes(l.baseAddress! + first * 4, count: (last - first) * 4, into: row + first * 4)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
