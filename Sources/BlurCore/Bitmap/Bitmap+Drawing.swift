extension Bitmap {
    /// A bitmap of `width × height` pixels all of `color`: the bytes of compositing it over
    /// transparency, written as one repeated pixel.
    /// - Throws: ``BitmapError`` as ``init(width:height:scale:)``.
    public init(width: Int, height: Int, filledWith color: Color, scale: Double = 1) throws(BitmapError) {
        var pixel = try Bitmap(width: 1, height: 1)
        pixel.composite(color, mode: .normal, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        let word = pixel.withPixels { UnsafeRawPointer($0.row(0)).loadUnaligned(as: UInt32.self) }
        try Bitmap.validate(width: width, height: height, scale: scale)
        try Bitmap.admit(width: width, height: height)
        self.init(validatedWidth: width, height: height, scale: scale)
        withMutablePixels { pixels in
            for y in 0..<height {
                UnsafeMutableRawPointer(pixels.row(y)).withMemoryRebound(to: UInt32.self, capacity: width) {
                    $0.update(repeating: word, count: width)
                }
            }
        }
    }

    /// Copies `image`'s pixels into this bitmap with its top-left corner at pixel (x, y), clipped to
    /// this bitmap's bounds.
    public mutating func replacePixels(at x: Int, _ y: Int, with image: Bitmap) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x1 > x0, y1 > y0 else { return }
        image.withPixels { source in
            withMutablePixels { target in
                for row in y0..<y1 {
                    (target.row(row) + x0 * 4).copyBytes(from: source.row(row - y) + (x0 - x) * 4, count: (x1 - x0) * 4)
                }
            }
        }
    }

    /// Draws `color` source-over into `rect` (pixels) with a coverage per line: per row when
    /// `vertical`, per column otherwise (`coverage.count` lines, each 0…1, times the colour's alpha).
    public mutating func fill(_ rect: PixelRect, with color: Color, coverage: [Float], vertical: Bool) {
        precondition(coverage.count == (vertical ? rect.height : rect.width), "one coverage per line")
        requireInside(rect)
        guard rect.width > 0, rect.height > 0 else { return }
        withMutablePixels { whole in
            let target = whole.region(rect)
            Parallel.forEachBand(count: rect.height, parts: nil) { band in
                for row in band {
                    if vertical {
                        Bitmap.fillRow(target.row(row), pixels: rect.width, with: color, coverage: coverage[row])
                    } else {
                        Bitmap.fillRow(target.row(row), pixels: rect.width, with: color, coverages: coverage)
                    }
                }
            }
        }
    }

    /// One row of ``fill(_:with:coverage:vertical:)`` for a vertical gradient: `pixels` pixels, one coverage.
    package static func fillRow(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, with color: Color, coverage: Float) {
        let a = Float(color.alpha) * coverage
        guard a > 0 else { return }
        let source = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255 * a
        let s = SIMD16(lowHalf: SIMD8(lowHalf: source, highHalf: source), highHalf: SIMD8(lowHalf: source, highHalf: source))
        blend(s, keeping: SIMD16(repeating: 1 - a), pixels: pixels, of: row)
    }

    /// One row for a horizontal gradient: a coverage per pixel.
    static func fillRow(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, with color: Color, coverages: [Float]) {
        let straight = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255
        let opacity = Float(color.alpha), line = UnsafeMutableRawPointer(row)
        for column in 0..<pixels {
            let a = opacity * coverages[column]
            if a > 0 { blend(straight * a, keeping: SIMD4(repeating: 1 - a), at: column * 4, of: line) }
        }
    }

    /// Premultiplied source-over of `pixels` pixels from `row` on: s·a + d·(1 − a), with `source`
    /// the colour's s·a (four pixels' worth) and `keep` 1 − a: four pixels at a time, then one.
    @inline(__always)
    private static func blend(_ source: SIMD16<Float>, keeping keep: SIMD16<Float>, pixels: Int, of row: UnsafeMutablePointer<UInt8>) {
        let line = UnsafeMutableRawPointer(row)
        var column = 0
        // Not in WebAssembly: there the sixteen float lanes measured slower than one pixel at a time
        // (BlurUIKit's header in Chromium 15.6 → 26.9 ms).
        #if !arch(wasm32)
        while column + 4 <= pixels {
            blend(source, keeping: keep, at: column * 4, of: line)
            column += 4
        }
        #endif
        while column < pixels {
            blend(source.lowHalf.lowHalf, keeping: keep.lowHalf.lowHalf, at: column * 4, of: line)
            column += 1
        }
    }

    /// `source + d · keep` over the four pixels at byte `offset`, rounded to nearest (ties to even);
    /// the same operations as the one-pixel form, so the bytes do not depend on where a pixel falls.
    @inline(__always)
    private static func blend(_ source: SIMD16<Float>, keeping keep: SIMD16<Float>, at offset: Int, of line: UnsafeMutableRawPointer) {
        // Lane by lane, which the compiler turns into one instruction a step where the standard
        // library's generic conversions stay calls.
        let d = line.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
        var wide = SIMD16<Float>()
        for lane in 0..<16 { wide[lane] = Float(d[lane]) }
        let bits = unsafeBitCast(source + wide * keep + 8_388_608, to: SIMD16<UInt32>.self)
        var bytes = SIMD16<UInt8>()
        for lane in 0..<16 { bytes[lane] = UInt8(truncatingIfNeeded: bits[lane]) }
        line.storeBytes(of: bytes, toByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    /// The same for the one pixel at byte `offset`.
    @inline(__always)
    private static func blend(_ source: SIMD4<Float>, keeping keep: SIMD4<Float>, at offset: Int, of line: UnsafeMutableRawPointer) {
        let d = line.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
        let v = source + SIMD4<Float>(Float(d[0]), Float(d[1]), Float(d[2]), Float(d[3])) * keep
        let bits = unsafeBitCast(v + 8_388_608, to: SIMD4<UInt32>.self)
        line.storeBytes(
            of: SIMD4<UInt8>(
                UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]),
                UInt8(truncatingIfNeeded: bits[2]), UInt8(truncatingIfNeeded: bits[3])),
            toByteOffset: offset, as: SIMD4<UInt8>.self)
    }
}
