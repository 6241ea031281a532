extension Bitmap {
    /// This image's ThumbHash (https://evanw.github.io/thumbhash/): the image is first shrunk by
    /// area averaging to fit 100 × 100, the format's limit. 17–25 bytes.
    public func thumbHash() -> [UInt8] {
        let small = shrunk(toFit: ThumbHash.maximumSide)
        // At most 100 × 100 with a byte count that matches: the encoder's own checks cannot fail.
        return (try? ThumbHash.encode(width: small.width, height: small.height, rgba: small.straightRGBA)) ?? []
    }

    /// The image a ThumbHash stands for: at most 32 px on its longer side.
    public init(thumbHash hash: [UInt8]) throws(ThumbHashError) {
        let (w, h, rgba) = try ThumbHash.decode(hash)
        // At most 32 × 32 by the format: no pixel limit applies to so small an image.
        self.init(validatedWidth: w, height: h, scale: 1, storage: rgba)
        withMutablePixels { Bitmap.premultiply($0) }
    }
}
