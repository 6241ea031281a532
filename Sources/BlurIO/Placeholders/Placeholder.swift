import BlurCore

/// The tiny stand-in of an image for blur-up loading: a preview a few dozen pixels across (shown
/// blurred until the real image arrives), optionally its ThumbHash, and its average colour.
public struct Placeholder: Sendable {
    /// The source's size after EXIF orientation, pixels.
    public let sourceWidth: Int, sourceHeight: Int
    /// Longest side at most the requested size, aspect kept, area-averaged: exactly (to rounding)
    /// without a ThumbHash; with one, shrunk from the hash's ≤ 100-px copy when that is at least twice
    /// the size, which stays within about 7 levels of the exact average (`PlaceholderTests`).
    public let preview: Bitmap
    /// ThumbHash bytes, when asked for.
    public let thumbHash: [UInt8]?
    /// The mean colour of the image (straight, with its mean alpha).
    public let averageColor: Color

    public static let sizeSpec = ParameterSpec(
        name: "size", unit: "px", range: 1...512, defaultValue: 32, integer: true, summary: "longest side of each preview")

    /// Decodes `bytes` (any format BlurIO reads; JPEG through libjpeg's DCT scaling at the smallest
    /// size that still has enough pixels) and makes its placeholder.
    public static func make(
        from bytes: [UInt8], longestSide: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true
    ) throws(DecodingError) -> Placeholder {
        let needed = max(longestSide, thumbHash ? ThumbHash.maximumSide : 0)
        let image: Bitmap
        if ImageFormat(sniffing: bytes) == .jpeg {
            let (w, h) = try JPEGCodec.size(of: bytes)
            let longest = max(w, h)
            var reduction = 8
            while reduction > 1 && (longest + reduction - 1) / reduction < needed { reduction /= 2 }
            image = try JPEGCodec.decode(bytes, reduction: reduction)
            let swaps = EXIF.orientation(inJPEG: bytes)?.swapsAxes ?? false
            return placeholder(of: image, sourceSize: swaps ? (h, w) : (w, h), longestSide: longestSide, thumbHash: thumbHash)
        }
        image = try ImageFile.decode(bytes)
        return placeholder(of: image, sourceSize: (image.width, image.height), longestSide: longestSide, thumbHash: thumbHash)
    }

    /// The placeholder of an image already decoded.
    public static func placeholder(
        of image: Bitmap, sourceSize: (Int, Int)? = nil, longestSide: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true
    ) -> Placeholder {
        // The ThumbHash's ≤ 100-px copy, when there is one, is also where a smaller preview is shrunk
        // from (a box of boxes: nearly the same average, a fraction of the work on a large source).
        // Every size here only shrinks, so no limit can refuse it.
        var source = image, hash: [UInt8]?
        if thumbHash {
            let small = image.shrunk(toFit: ThumbHash.maximumSide)
            let (tw, th) = (small.width, small.height)
            hash = small.thumbHash()
            if max(tw, th) >= 2 * max(1, longestSide) { source = small }
        }
        let preview = source.shrunk(toFit: max(1, longestSide))
        var sum = SIMD4<Double>.zero
        for y in 0..<preview.height {
            for x in 0..<preview.width { let p = preview[x, y]; sum += SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) }
        }
        let alpha = sum[3] / Double(preview.width * preview.height) / 255
        let colour = sum[3] > 0 ? Color(red: sum[0] / sum[3], green: sum[1] / sum[3], blue: sum[2] / sum[3], alpha: alpha) : .clear
        let size = sourceSize ?? (image.width, image.height)
        return Placeholder(sourceWidth: size.0, sourceHeight: size.1, preview: preview, thumbHash: hash, averageColor: colour)
    }
}
