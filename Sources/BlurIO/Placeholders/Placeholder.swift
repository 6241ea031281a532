import BlurCore

#if canImport(Glibc)
import Glibc
#endif

/// The tiny stand-in of an image for blur-up loading: a preview a few dozen pixels across (shown
/// blurred until the real image arrives), optionally its ThumbHash, and its average colour.
public struct Placeholder: Sendable {
    /// The source's size after EXIF orientation, pixels.
    public let sourceWidth: Int, sourceHeight: Int
    /// Longest side at most the requested size, aspect kept, area-averaged: exactly (to rounding)
    /// without a ThumbHash and from a size of 100 px or more; with one, below 100 px, shrunk from the
    /// hash's ≤ 100-px area average, which stays within about 7 levels of the exact average
    /// (`PlaceholderTests`).
    public let preview: Bitmap
    /// ThumbHash bytes, when asked for.
    public let thumbHash: [UInt8]?
    /// The BlurHash of the preview's pixels (4×3 components unless asked otherwise), when a ThumbHash
    /// was asked for: the string Wolt's encoder gives for the preview PNG.
    public let blurHash: String?
    /// The mean colour of the image (straight, with its mean alpha).
    public let averageColor: Color

    /// The parameter table entry: `size`, the longest side of each preview, 1…512 px, default 32.
    public static let sizeSpec = ParameterSpec(
        name: "size", unit: "px", range: 1...512, defaultValue: 10, integer: true, summary: "longest side of each preview")

    /// Decodes `bytes` (any format BlurIO reads; JPEG through libjpeg's DCT scaling at the smallest
    /// size that still has enough pixels) and makes its placeholder.
    public static func make(
        from bytes: [UInt8], longestSide: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true,
        blurHash: BlurHash.Components = BlurHash.defaultComponents
    ) throws(DecodingError) -> Placeholder {
        guard !bytes.isEmpty else { throw .empty }
        var copy = bytes
        let result: Result<Placeholder, DecodingError> = copy.withUnsafeMutableBytes { raw in
            guard let stream = fmemopen(raw.baseAddress, raw.count, "rb") else {
                return .failure(.corrupt(format: ImageFormat(sniffing: bytes) ?? .png, message: "cannot read the bytes as a stream"))
            }
            defer { fclose(stream) }
            do {
                return .success(
                    try make(from: InputFile(stream: stream, path: "-"), longestSide: longestSide, thumbHash: thumbHash, blurHash: blurHash))
            } catch let error as DecodingError {
                return .failure(error)
            } catch {
                return .failure(.corrupt(format: ImageFormat(sniffing: bytes) ?? .png, message: "\(error)"))
            }
        }
        return try result.get()
    }

    /// Reads the image file at `path` as a stream and makes its placeholder: a JPEG decoded at the
    /// smallest DCT-scaled size that has enough pixels, a PNG or Netpbm file shrunk as its rows
    /// arrive (a band of rows in memory, never the image), WebP and GIF decoded whole.
    public static func make(
        fromFile path: String, longestSide: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true,
        blurHash: BlurHash.Components = BlurHash.defaultComponents
    ) throws -> Placeholder {
        try make(from: InputFile(path: path), longestSide: longestSide, thumbHash: thumbHash, blurHash: blurHash)
    }

    /// The placeholder of `input`, `checkpoint` asked before each band of rows it reads (what it
    /// throws stops the work and is thrown; WebP, GIF and HEIF are decoded whole, between two asks).
    package static func make(
        from input: InputFile, longestSide: Int, thumbHash: Bool, blurHash: BlurHash.Components = BlurHash.defaultComponents,
        checkpoint: @escaping () throws -> Void = {}
    ) throws -> Placeholder {
        let needed = max(longestSide, thumbHash ? ThumbHash.maximumSide : 0)
        switch input.format {
        case .jpeg:
            let (w, h): (Int, Int)
            do {
                let header = try JPEGRowSource(input: input)
                (w, h) = (header.width, header.height)
            }
            var reduction = 8
            while reduction > 1 && (max(w, h) + reduction - 1) / reduction < needed { reduction /= 2 }
            try input.rewind()
            let source = try JPEGRowSource(input: input, reduction: reduction)
            // Always sRGB: what a browser or UIImage draws the preview and its colour as.
            source.convertToSRGB()
            let image = try source.collect(checkpoint: checkpoint).oriented(source.orientation)
            let swaps = source.orientation.swapsAxes
            return placeholder(of: image, sourceSize: swaps ? (h, w) : (w, h), longestSide: longestSide, thumbHash: thumbHash, blurHash: blurHash)
        case .png, .pam, .ppm:
            let source: any RowSource
            do {
                source = try ImagePipeline.open(input).source
            } catch PipelineError.input(_, let error) {
                throw error
            }
            let (w, h) = (source.width, source.height)
            let fit = Bitmap.sizeFitting(width: w, height: h, longestSide: needed)
            let small: Bitmap
            if fit == (w, h) {
                small = try source.collect(checkpoint: checkpoint)
            } else {
                let shrink = AreaAverageStage(sourceWidth: w, sourceHeight: h, width: fit.0, height: fit.1)
                small = try StagedSource(shrink, over: source, parts: 1, checkpoint: checkpoint).collect(
                    scale: Double(fit.0) / Double(w), checkpoint: checkpoint)
            }
            return placeholder(of: small, sourceSize: (w, h), longestSide: longestSide, thumbHash: thumbHash, blurHash: blurHash)
        case .webp, .gif, .avif, .heic:
            let image = try ImageFile.decode(try input.readAll())
            try checkpoint()
            return placeholder(
                of: image, sourceSize: (image.width, image.height), longestSide: longestSide, thumbHash: thumbHash, blurHash: blurHash)
        }
    }

    /// The placeholder of an image already decoded.
    public static func placeholder(
        of image: Bitmap, sourceSize: (Int, Int)? = nil, longestSide: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true,
        blurHash components: BlurHash.Components = BlurHash.defaultComponents
    ) -> Placeholder {
        // First the image shrunk to what is needed: the preview's size, or the ThumbHash's ≤ 100 px
        // when that is larger; a smaller preview is shrunk from that (a box of boxes: nearly the same
        // average, a fraction of the work). A file streams straight into this first step. Every size
        // here only shrinks, so no limit can refuse it.
        let needed = max(1, longestSide, thumbHash ? ThumbHash.maximumSide : 0)
        let source = image.shrunk(toFit: needed)
        let hash = thumbHash ? source.shrunk(toFit: ThumbHash.maximumSide).thumbHash() : nil
        let preview = source.shrunk(toFit: max(1, longestSide))
        var sum = SIMD4<Double>.zero
        for y in 0..<preview.height {
            for x in 0..<preview.width { let p = preview[x, y]; sum += SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) }
        }
        let alpha = sum[3] / Double(preview.width * preview.height) / 255
        let colour = sum[3] > 0 ? Color(red: sum[0] / sum[3], green: sum[1] / sum[3], blue: sum[2] / sum[3], alpha: alpha) : .clear
        let size = sourceSize ?? (image.width, image.height)
        let blur =
            thumbHash
            ? try? BlurHash.encode(
                width: preview.width, height: preview.height, rgba: preview.straightRGBA, x: components.x, y: components.y)
            : nil
        return Placeholder(sourceWidth: size.0, sourceHeight: size.1, preview: preview, thumbHash: hash, blurHash: blur, averageColor: colour)
    }
}
