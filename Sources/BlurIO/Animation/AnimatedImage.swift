import BlurCore

/// Frames with display durations, as decoded from or encoded to an animated file. Every frame is
/// the whole canvas (decoders composite partial frames with their disposal and blend rules).
public struct AnimatedImage: Sendable, Hashable {
    /// One frame: the whole canvas and how long it shows.
    public struct Frame: Sendable, Hashable {
        /// The whole canvas as this frame shows it.
        public var image: Bitmap
        /// Seconds the frame shows.
        public var duration: Double
        /// A frame showing `image` for `duration` seconds.
        public init(image: Bitmap, duration: Double) { self.image = image; self.duration = duration }
    }

    /// The frames in display order. Decoders return at least one; with none, ``size`` is 0 × 0.
    public var frames: [Frame]
    /// Times the animation plays; 0 = forever (the default).
    public var loopCount: Int

    /// An animation of `frames`, played `loopCount` times (0, the default, = forever).
    public init(frames: [Frame], loopCount: Int = 0) {
        self.frames = frames
        self.loopCount = loopCount
    }

    /// Width and height of the canvas (the first frame's).
    public var size: (width: Int, height: Int) { (frames.first?.image.width ?? 0, frames.first?.image.height ?? 0) }

    /// Decodes an animated (or still) WebP, GIF or APNG/PNG, recognised by its first bytes. The
    /// frames' pixels together count against `ImageLimits/maximumPixelCount`.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> AnimatedImage {
        guard !bytes.isEmpty else { throw .empty }
        switch ImageFormat(sniffing: Array(bytes.prefix(64))) {
        case .webp: return try WebPCodec.decodeAnimation(bytes)
        case .gif: return try GIFCodec.decodeAnimation(bytes)
        case .png: return try APNGCodec.decode(bytes)
        case .jpeg, .pam, .ppm, .avif, .heic: return AnimatedImage(frames: [Frame(image: try ImageFile.decode(bytes), duration: 0)])
        case nil: throw .unknownFormat
        }
    }
}

extension DecodingError {
    /// Checks that one more frame of `width × height` fits the pixel limit with `count` pixels
    /// already decoded in `frames` frames; returns the new count.
    static func checkFrame(_ format: ImageFormat, width: Int, height: Int, frames: Int, decodedPixels count: Int) throws(DecodingError) -> Int {
        try checkSize(format, width: width, height: height)
        let total = count + width * height
        if total > ImageLimits.maximumPixelCount {
            throw .animationTooLarge(format: format, frames: frames + 1, width: width, height: height, limit: ImageLimits.maximumPixelCount)
        }
        return total
    }
}
