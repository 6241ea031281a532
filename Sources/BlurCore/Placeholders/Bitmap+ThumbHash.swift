extension Bitmap {
    /// This image's ThumbHash (https://evanw.github.io/thumbhash/): the image is first shrunk by
    /// area averaging to fit 100 × 100, the format's limit. 17–25 bytes.
    public func thumbHash() -> [UInt8] {
        let (w, h) = sizeFitting(longestSide: ThumbHash.maximumSide)
        // `sizeFitting` only shrinks, so the resize cannot fail.
        let small = (w, h) == (width, height) ? self : try! resized(width: w, height: h)
        return try! ThumbHash.encode(width: w, height: h, rgba: small.straightRGBA)
    }

    /// The image a ThumbHash stands for: at most 32 px on its longer side.
    public init(thumbHash hash: [UInt8]) throws(ThumbHashError) {
        let (w, h, rgba) = try ThumbHash.decode(hash)
        self = try! Bitmap(width: w, height: h, straightRGBA: rgba)
    }
}
