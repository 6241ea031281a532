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
        withPixels { source in
            out.withMutablePixels { target in
                Parallel.forEachBand(count: h, parts: nil) { band in
                    var sums = [UInt32](repeating: 0, count: count)
                    sums.withUnsafeMutableBufferPointer { acc in
                        for y in band { Bitmap.reduceRow(y, of: source, region: region, by: factor, sums: acc.baseAddress!, into: target.row(y)) }
                    }
                }
            }
        }
        return out
    }

    /// Row `j` of ``reduced(_:by:)``: the block means of rows `region.y + j·factor …` of `source`
    /// (rows numbered as the image's), over the region's columns. `sums`: `region.width × 4` scratch.
    package static func reduceRow(
        _ j: Int, of source: PixelView, region: PixelRect, by factor: Int, sums acc: UnsafeMutablePointer<UInt32>,
        into o: UnsafeMutablePointer<UInt8>
    ) {
        let count = region.width * 4, w = (region.width + factor - 1) / factor
        // Column sums over the block's rows (vectorised), then sums across.
        let rows = min(factor, region.height - j * factor)
        for i in 0..<count { acc[i] = 0 }
        for r in 0..<rows {
            let line = source.row(region.y + j * factor + r) + region.x * 4
            for i in 0..<count { acc[i] &+= UInt32(line[i]) }
        }
        for x in 0..<w {
            let columns = min(factor, region.width - x * factor), n = UInt32(rows * columns)
            var total = SIMD4<UInt32>()
            for c in 0..<columns {
                let at = (x * factor + c) * 4
                total &+= SIMD4(acc[at], acc[at + 1], acc[at + 2], acc[at + 3])
            }
            if n & (n &- 1) == 0 {
                // A whole block (f² pixels, a power of 2): the same quotient by a shift.
                let shift = UInt32(n.trailingZeroBitCount)
                for k in 0..<4 { o[x * 4 + k] = UInt8(truncatingIfNeeded: (total[k] &+ n / 2) &>> shift) }
            } else {
                for k in 0..<4 { o[x * 4 + k] = UInt8(truncatingIfNeeded: (total[k] &+ n / 2) / n) }
            }
        }
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
        let upsampling = UpsampledRows(smallWidth: small.width, smallHeight: small.height, factor: factor, region: region)
        let (w, h) = (width, height)
        small.withPixels { source in
            withPixels { under in
                result.withMutablePixels { whole in
                    // Outside the region: a copy.
                    Parallel.forEachBand(count: h, parts: nil) { band in
                        for y in band { upsampling.copyOutside(y, from: under.row(y), into: whole.row(y), width: w) }
                    }
                    Parallel.forEachBand(count: region.height, parts: nil) { band in
                        var scratch = upsampling.makeScratch()
                        for y in band {
                            upsampling.row(
                                y, small: source, beneath: under.row(region.y + y) + region.x * 4, scratch: &scratch,
                                into: whole.row(region.y + y) + region.x * 4, coverage: coverage)
                        }
                    }
                }
            }
        }
        return result
    }
}

/// The rows of ``Bitmap/drawingUpsampled(_:factor:into:coverage:)``, one at a time: a small image
/// scaled up by `factor` (bilinear, pixel centres aligned, edges clamped) into `region`, mixed with
/// the pixels beneath by a coverage. The whole-image draw and the material's stage share it.
package struct UpsampledRows: Sendable {
    let factor: Int
    let region: PixelRect
    let smallWidth: Int, smallHeight: Int
    /// Per region column: the byte offsets of the two small pixels and the weight of the second.
    private let taps: [(Int, Int, Float)]

    package init(smallWidth sw: Int, smallHeight sh: Int, factor: Int, region: PixelRect) {
        self.factor = factor
        self.region = region
        smallWidth = sw
        smallHeight = sh
        let f = Float(factor)
        taps = (0..<region.width).map { x in
            let sx = min(Float(sw - 1), max(0, (Float(x) + 0.5) / f - 0.5))
            let i = Int(sx)
            return (i * 4, min(sw - 1, i + 1) * 4, sx - Float(i))
        }
    }

    /// The small rows that region row `y` (from 0) reads: j and j + 1 (clamped), and the weight of j + 1.
    package func smallRows(_ y: Int) -> (Int, Int, Float) {
        let sy = min(Float(smallHeight - 1), max(0, (Float(y) + 0.5) / Float(factor) - 0.5))
        let j = Int(sy)
        return (j, min(smallHeight - 1, j + 1), sy - Float(j))
    }

    package struct Scratch {
        var vertical: [Float]
        var line: [Float]
    }

    package func makeScratch() -> Scratch {
        Scratch(vertical: [Float](repeating: 0, count: smallWidth * 4), line: [Float](repeating: 0, count: region.width * 4))
    }

    /// Image row `y`: a copy of `from` outside the region's columns (all of it outside its rows).
    package func copyOutside(_ y: Int, from: UnsafePointer<UInt8>, into to: UnsafeMutablePointer<UInt8>, width w: Int) {
        if y < region.y || y >= region.y + region.height {
            to.copyBytes(from: from, count: w * 4)
        } else {
            to.copyBytes(from: from, count: region.x * 4)
            let end = (region.x + region.width) * 4
            (to + end).copyBytes(from: from + end, count: w * 4 - end)
        }
    }

    /// Region row `y` (from 0): the upsampled small rows mixed over `beneath` (the region's part of
    /// the image row) by `coverage(x, y)` (image pixel coordinates), written to `row`. Partly
    /// covered pixels are asked for from both ends inward; the run between is fully covered.
    package func row(
        _ y: Int, small source: PixelView, beneath below: UnsafePointer<UInt8>, scratch: inout Scratch,
        into row: UnsafeMutablePointer<UInt8>, coverage: (Int, Int) -> Float
    ) {
        let (j, k, ty) = smallRows(y), sw = smallWidth, region = region
        scratch.vertical.withUnsafeMutableBufferPointer { v in
            scratch.line.withUnsafeMutableBufferPointer { l in
                taps.withUnsafeBufferPointer { taps in
                    let top = source.row(j), bottom = source.row(k)
                    for i in 0..<(sw * 4) { v[i] = Float(top[i]) + (Float(bottom[i]) - Float(top[i])) * ty }
                    let raw = UnsafeRawPointer(v.baseAddress!), out = UnsafeMutableRawPointer(l.baseAddress!)
                    for x in 0..<region.width {
                        let (a, b, t) = taps[x]
                        let p = raw.loadUnaligned(fromByteOffset: a * 4, as: SIMD4<Float>.self)
                        let q = raw.loadUnaligned(fromByteOffset: b * 4, as: SIMD4<Float>.self)
                        out.storeBytes(of: p + (q - p) * t, toByteOffset: x * 16, as: SIMD4<Float>.self)
                    }
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
