// Pixel memory for the package's kernels and codecs. `package` access: clients of BlurKit never
// see a pointer; code inside the package reaches pixels only through these views (``PixelView``,
// ``MutablePixelView``), so a row's address is computed in one place.
extension Bitmap {
    /// The pixels of `region` as float64 values 0…255, row by row: what the float64 references
    /// compute from.
    func doublePixels(in region: PixelRect) -> [SIMD4<Double>] {
        let (w, h) = (region.width, region.height)
        var pixels = [SIMD4<Double>](repeating: .zero, count: w * h)
        withPixels { source in
            for y in 0..<h {
                let row = source.row(region.y + y) + region.x * 4
                for x in 0..<w {
                    pixels[y * w + x] = SIMD4(Double(row[x * 4]), Double(row[x * 4 + 1]), Double(row[x * 4 + 2]), Double(row[x * 4 + 3]))
                }
            }
        }
        return pixels
    }

    /// Calls `body` with a read-only view of every pixel (tightly packed).
    package func withPixels<R>(_ body: (PixelView) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { buffer in
            try body(PixelView(base: buffer.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow))
        }
    }

    /// Calls `body` with a writable view of every pixel (tightly packed). The caller keeps every
    /// colour ≤ its alpha.
    package mutating func withMutablePixels<R>(_ body: (MutablePixelView) throws -> R) rethrows -> R {
        let (w, h, stride) = (width, height, bytesPerRow)
        return try storage.withUnsafeMutableBufferPointer { buffer in
            try body(MutablePixelView(base: buffer.baseAddress!, width: w, height: h, bytesPerRow: stride))
        }
    }

    /// A bitmap of the same size and scale whose bytes are not yet written.
    package func makeUninitializedLike() -> Bitmap {
        Bitmap(validatedWidth: width, height: height, scale: scale)
    }

    /// A transparent bitmap of the same size and scale.
    package func clearedLike() -> Bitmap {
        var out = makeUninitializedLike()
        out.storage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        return out
    }

    /// A bitmap whose bytes the caller writes (every one) before anyone reads them.
    /// - Throws: ``BitmapError`` for a size ≤ 0 or over the limit, or an invalid scale.
    package static func uninitialized(width: Int, height: Int, scale: Double = 1) throws(BitmapError) -> Bitmap {
        try Bitmap.validate(width: width, height: height, scale: scale)
        return Bitmap(validatedWidth: width, height: height, scale: scale)
    }

    #if !hasFeature(Embedded)  // decoders' errors are untyped; WebAssembly has no decoders
    /// A bitmap that `fill` writes through a view, every byte: how decoders and kernels make
    /// their output without an intermediate copy. `premultiplied: false` means `fill` writes straight
    /// alpha, converted here in place.
    package static func filled(
        width: Int, height: Int, scale: Double = 1, premultiplied: Bool = true,
        _ fill: (MutablePixelView) throws -> Void
    ) throws -> Bitmap {
        var image = try uninitialized(width: width, height: height, scale: scale)
        try image.withMutablePixels(fill)
        if !premultiplied {
            image.withMutablePixels { Bitmap.premultiply($0) }
        } else if let (x, y) = image.firstPixelViolatingPremultiplication() {
            throw BitmapError.notPremultiplied(x: x, y: y)
        }
        return image
    }
    #endif
}
