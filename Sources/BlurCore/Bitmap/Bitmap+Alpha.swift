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
    /// same memory): colour × 255 ÷ alpha, rounded; a transparent pixel becomes 0, 0, 0, 0.
    package static func unpremultiply(_ source: UnsafePointer<UInt8>, into p: UnsafeMutablePointer<UInt8>, pixels: Int) {
        for i in stride(from: 0, to: pixels * 4, by: 4) {
            let a = Int(source[i + 3])
            if a == 255 {
                if source != UnsafePointer(p) { (p + i).update(from: source + i, count: 4) }
                continue
            }
            p[i + 3] = UInt8(a)
            if a == 0 {
                p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                continue
            }
            for c in 0..<3 {
                p[i + c] = UInt8(min(255, (Int(source[i + c]) * 255 + a / 2) / a))
            }
        }
    }

    /// Straight alpha → premultiplied, in place.
    package static func premultiply(_ pixels: MutablePixelView) {
        for y in pixels.rows {
            let p = pixels.row(y)
            for i in stride(from: 0, to: pixels.width * 4, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 {
                    let t = UInt32(p[i + c]) &* a &+ 128
                    p[i + c] = UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
                }
            }
        }
    }
}
