// Conversions between premultiplied storage and straight (unassociated) alpha, as files keep it.
//
// premultiply:   p = round(c · a / 255)
// unpremultiply: c = min(255, round(p · 255 / a)), and 0 where a = 0
// Unpremultiplying then premultiplying gives back the same bytes, so a bitmap survives a round
// trip through a straight-alpha file format bit for bit.
extension Bitmap {
    /// A bitmap from straight-alpha RGBA bytes (tightly packed, exactly `width * height * 4`).
    /// - Throws: ``BitmapError`` for an invalid size or byte count.
    public init(width: Int, height: Int, straightRGBA bytes: [UInt8], scale: Double = 1) throws(BitmapError) {
        try Bitmap.validate(width: width, height: height, scale: scale)
        guard bytes.count == width * height * 4 else {
            throw BitmapError.byteCountMismatch(expected: width * height * 4, got: bytes.count)
        }
        self.init(validatedWidth: width, height: height, scale: scale, storage: bytes)
        withMutablePixels { Bitmap.premultiply($0) }
    }

    /// The pixels with straight alpha, tightly packed (`width * 4` a row).
    public var straightRGBA: [UInt8] {
        var bytes = premultipliedRGBA
        bytes.withUnsafeMutableBufferPointer { p in Bitmap.unpremultiply(p.baseAddress!, into: p.baseAddress!, pixels: width * height) }
        return bytes
    }

    /// Premultiplied RGBA → straight RGBA for `pixels` pixels (`source` and `target` may be the
    /// same memory): colour × 255 ÷ alpha, rounded; a transparent pixel becomes 0, 0, 0, 0. Four
    /// opaque pixels in a row are copied as they are, in one step.
    package static func unpremultiply(_ source: UnsafePointer<UInt8>, into p: UnsafeMutablePointer<UInt8>, pixels: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(p), inPlace = from == UnsafeRawPointer(to)
        var i = 0
        while i + 16 <= pixels * 4 {
            let low = from.loadUnaligned(fromByteOffset: i, as: UInt64.self), high = from.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            if opaque(low) && opaque(high) {
                if !inPlace {
                    to.storeBytes(of: low, toByteOffset: i, as: UInt64.self)
                    to.storeBytes(of: high, toByteOffset: i + 8, as: UInt64.self)
                }
            } else {
                for j in stride(from: i, to: i + 16, by: 4) { unpremultiplyPixel(source + j, into: p + j) }
            }
            i += 16
        }
        while i < pixels * 4 {
            unpremultiplyPixel(source + i, into: p + i)
            i += 4
        }
    }

    /// One pixel of ``unpremultiply(_:into:pixels:)``.
    @inline(__always)
    private static func unpremultiplyPixel(_ source: UnsafePointer<UInt8>, into p: UnsafeMutablePointer<UInt8>) {
        let a = Int(source[3])
        if a == 255 {
            UnsafeMutableRawPointer(p).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt32.self), as: UInt32.self)
            return
        }
        p[3] = UInt8(a)
        if a == 0 {
            p[0] = 0; p[1] = 0; p[2] = 0
            return
        }
        for c in 0..<3 { p[c] = UInt8(min(255, (Int(source[c]) * 255 + a / 2) / a)) }
    }

    /// Straight alpha → premultiplied, in place. Four opaque pixels in a row are passed over in one step.
    package static func premultiply(_ pixels: MutablePixelView) {
        for y in pixels.rows {
            let p = pixels.row(y), row = UnsafeRawPointer(p), end = pixels.width * 4
            var i = 0
            while i < end {
                if i + 16 <= end, opaque(row.loadUnaligned(fromByteOffset: i, as: UInt64.self)),
                    opaque(row.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                {
                    i += 16
                    continue
                }
                let a = UInt32(p[i + 3])
                if a != 255 {
                    for c in 0..<3 {
                        let t = UInt32(p[i + c]) &* a &+ 128
                        p[i + c] = UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
                    }
                }
                i += 4
            }
        }
    }

    /// True when both RGBA pixels of `word` (8 bytes as loaded from memory) have alpha 255. Plain
    /// 64-bit integers: in WebAssembly a comparison of small SIMD vectors stays a generic call.
    @inline(__always)
    private static func opaque(_ word: UInt64) -> Bool {
        let alphas: UInt64 = 0xFF00_0000_FF00_0000
        return UInt64(littleEndian: word) & alphas == alphas
    }
}
