extension Bitmap {
    /// A bitmap of `width × height` pixels all of `color`: the bytes of compositing it over
    /// transparency, written as one repeated pixel.
    /// - Throws: ``BitmapError`` as ``init(width:height:scale:)``.
    public init(width: Int, height: Int, filledWith color: Color, scale: Double = 1) throws(BitmapError) {
        var pixel = try Bitmap(width: 1, height: 1)
        pixel.composite(color, mode: .normal, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        let word = pixel.withPixels { UnsafeRawPointer($0.row(0)).loadUnaligned(as: UInt32.self) }
        try Bitmap.validate(width: width, height: height, scale: scale)
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
        let straight = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255
        let line = UnsafeMutableRawPointer(row)
        for column in 0..<pixels { blend(straight, a, at: column, of: line) }
    }

    /// One row for a horizontal gradient: a coverage per pixel.
    static func fillRow(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, with color: Color, coverages: [Float]) {
        let straight = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255
        let opacity = Float(color.alpha), line = UnsafeMutableRawPointer(row)
        for column in 0..<pixels {
            let a = opacity * coverages[column]
            if a > 0 { blend(straight, a, at: column, of: line) }
        }
    }

    /// Premultiplied source-over: s·a + d·(1 − a), the same operations for every channel.
    @inline(__always)
    private static func blend(_ straight: SIMD4<Float>, _ a: Float, at column: Int, of line: UnsafeMutableRawPointer) {
        let d = line.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt8>.self)
        let v = straight * a + SIMD4<Float>(Float(d[0]), Float(d[1]), Float(d[2]), Float(d[3])) * (1 - a)
        let bits = unsafeBitCast(v + 8_388_608, to: SIMD4<UInt32>.self)
        line.storeBytes(
            of: SIMD4<UInt8>(
                UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]),
                UInt8(truncatingIfNeeded: bits[2]), UInt8(truncatingIfNeeded: bits[3])),
            toByteOffset: column * 4, as: SIMD4<UInt8>.self)
    }
}
