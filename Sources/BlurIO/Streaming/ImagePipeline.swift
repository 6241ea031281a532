import BlurCore

/// File to file through the streaming chain: IN decoded band by band on a thread of its own, the
/// stages on all cores, OUT encoded and written on another thread as the bands arrive. An image
/// sits whole in memory only where a format or an effect needs it (WebP and GIF, a turned JPEG).
package enum ImagePipeline {
    /// How OUT is encoded.
    package struct Encoding: Sendable {
        package var format: ImageFormat
        /// JPEG and WebP quality, 1…100.
        package var quality: Int
        /// PNG zlib level, 0…9 (``ImageFile/compressionSpec``).
        package var compression: Int
        /// The ICC profile to embed (the input's, under `keep-profile`); nil writes none (sRGB).
        package var profile: ColorProfile?
        /// The render's deadline: AVIF and HEIC pick their encoder's speed from the time left.
        package var cancellation = Cancellation.never

        package init(
            format: ImageFormat, quality: Int = JPEGCodec.defaultQuality, compression: Int = ImageFile.defaultCompression,
            profile: ColorProfile? = nil
        ) {
            self.format = format
            self.quality = quality
            self.compression = compression
            self.profile = profile
        }
    }

    /// IN as rows, whether every pixel is known to be opaque, and the profile the rows are in. By
    /// default the rows come converted to sRGB from the file's profile (`ColorConversion`) and
    /// `profile` is nil; with `keepProfile` they keep the file's values and `profile` is its
    /// profile (a CMYK JPEG is converted all the same: BlurKit's pixels are RGB). A JPEG recorded
    /// as turned, and the formats decoded whole (WebP, GIF, AVIF, HEIC: one image), come as the
    /// rows of a decoded bitmap.
    /// - Parameter reduction: JPEG's DCT scaling (1, 2, 4 or 8); other formats ignore it.
    package static func open(
        _ input: InputFile, reduction: Int = 1, keepProfile: Bool = false
    ) throws -> (source: any RowSource, opaque: Bool, profile: ColorProfile?) {
        let name = input.path == "-" ? "standard input" : input.path
        do {
            switch input.format {
            case .png:
                let source = try PNGRowSource(input: input)
                if !keepProfile { source.convertToSRGB() }
                return (source, source.isOpaque, keepProfile ? source.profile : nil)
            case .jpeg:
                let source = try JPEGRowSource(input: input, reduction: reduction)
                let kept = keepProfile && !source.isCMYK ? source.profile : nil
                if kept == nil { source.convertToSRGB() }
                if source.orientation == .up { return (source, true, kept) }
                // The image whole, then its turned copy.
                try ImageLimits.checkBudget(source.width * source.height * 8, for: "turning a \(source.width)×\(source.height) JPEG")
                let image = try source.collect().oriented(source.orientation)
                return (BitmapSource(image), true, kept)
            case .pam, .ppm:
                let source = try NetpbmRowSource(input: input)
                return (source, source.isOpaque, nil)
            case .webp, .gif, .avif, .heic:
                let (image, profile) = try ImageFile.decode(try input.readAll(), keepingProfile: keepProfile, cancellation: input.cancellation)
                return (BitmapSource(image), image.isOpaque, profile)
            }
        } catch let error as DecodingError {
            throw PipelineError.input(name, error)
        }
    }

    /// The sink that encodes `encoding.format` into `output`. `alpha`: whether PNG keeps an alpha
    /// channel (RGB when the image is known to be opaque).
    package static func sink(
        for encoding: Encoding, width: Int, height: Int, alpha: Bool, output: OutputFile, parts: Int? = nil
    ) throws -> any RowSink {
        let write: (UnsafeRawBufferPointer) throws -> Void = { try output.write($0) }
        switch encoding.format {
        case .png:
            return try PNGRowSink(
                width: width, height: height, alpha: alpha, level: encoding.compression, parts: parts, profile: encoding.profile,
                cancellation: encoding.cancellation, output: write)
        case .jpeg:
            return try JPEGRowSink(stream: output.stream, width: width, height: height, quality: encoding.quality, profile: encoding.profile)
        case .pam, .ppm:
            return try NetpbmRowSink(pam: encoding.format == .pam, width: width, height: height, output: write)
        case .webp, .gif, .avif, .heic:
            let quality = encoding.quality, format = encoding.format, profile = encoding.profile, cancellation = encoding.cancellation
            let encoderBytes = ImageFile.encodingBytes(format, quality: quality, width: width, height: height)
            return try WholeImageSink(
                width: width, height: height, encoderBytes: encoderBytes,
                encode: {
                    try ImageFile.encode(
                        $0, as: format, quality: quality, compression: ImageFile.defaultCompression, profile: profile, cancellation: cancellation)
                }, output: write)
        }
    }

    /// Pulls every row of `source` (the end of a chain) on this thread and encodes them into `sink`
    /// on another, through a queue of two bands; then finishes the sink. The first failure on
    /// either side stops both and is thrown.
    /// `cancelled` is asked before each band; when it answers true the drain stops and throws
    /// ``PipelineError/cancelled``.
    package static func drain(
        _ source: any RowSource, into sink: any RowSink, bandRows: Int? = nil, cancelled: () -> Bool = { false }
    ) throws {
        let band = bandRows ?? StreamingDefaults.bandRows(width: source.width)
        let queue = BandQueue(depth: 2, bandBytes: band * source.width * 4)
        let failure = Locked<(any Error)?>(nil)
        let job = Handed(value: (sink, queue, source.width))
        let encoder = Worker("blurkit.encode") {
            let (sink, queue, width) = job.value
            do {
                while let band = try queue.take() {
                    try sink.write(
                        PixelView(base: band.pixels, width: width, height: band.rows.count, bytesPerRow: width * 4, firstRow: band.rows.lowerBound))
                    queue.recycle(band)
                }
                try sink.finish()
            } catch {
                failure.withLock { $0 = $0 ?? error }
                queue.close(failure: error)
            }
        }
        var y = 0
        do {
            while y < source.height, let buffer = queue.buffer() {
                if cancelled() { throw PipelineError.cancelled }
                let rows = y..<min(source.height, y + band)
                try source.read(
                    into: MutablePixelView(base: buffer, width: source.width, height: rows.count, bytesPerRow: source.width * 4, firstRow: y))
                queue.put(.init(pixels: buffer, rows: rows))
                y = rows.upperBound
            }
            queue.close()
        } catch {
            failure.withLock { $0 = $0 ?? error }
            queue.close(failure: error)
        }
        encoder.join()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The bytes the drain holds besides the chain and the sink: its queue.
    package static func queueBytes(width: Int, bandRows: Int? = nil) -> Int {
        3 * (bandRows ?? StreamingDefaults.bandRows(width: width)) * width * 4
    }
}

/// What a streamed job reports, naming the file.
package enum PipelineError: Error, CustomStringConvertible {
    case input(String, DecodingError)
    /// The caller's `cancelled` said stop.
    case cancelled

    package var description: String {
        switch self {
        case let .input(name, error): return "\(name): \(error)"
        case .cancelled: return "cancelled"
        }
    }
}
