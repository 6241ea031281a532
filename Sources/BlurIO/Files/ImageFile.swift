import BlurCore
import Foundation

/// Reading and writing images as files or byte buffers, with the format chosen by content (reads)
/// or by name (writes).
public enum ImageFile {
    /// JPEG and WebP quality: 1…100 (WebP at 100 is lossless), default 90.
    public static let qualitySpec = ParameterSpec(
        name: "quality", unit: "", range: 1...100, defaultValue: Double(JPEGCodec.defaultQuality), integer: true,
        summary: "JPEG and WebP quality (WebP at 100 is lossless)")

    /// PNG compression, zlib's level: 0 stores; 1, the default, finds runs (zlib's run-length
    /// strategy, which on photos and blurs packs as tightly as level 6 in a fraction of the time),
    /// or level 3's repeats in a strip whose sample packs 5 % smaller with them (textures); 2…9
    /// search for repeats, tighter for flat graphics and text, slower as the level grows.
    /// Rows are Paeth-filtered at every level (`PNGRowSink`).
    public static let compressionSpec = ParameterSpec(
        name: "compression", unit: "", range: 0...9, defaultValue: Double(defaultCompression), integer: true,
        summary:
            "PNG zlib level: 0 stores, 1 finds runs (fast, tight on photos) or, where a strip repeats, level 3's matches; 2…9 search for repeats, slower as it grows"
    )
    /// PNG's zlib level when none is given: 1 (see ``compressionSpec``).
    public static let defaultCompression = 1

    /// Decodes any supported format, recognised by its first bytes, converted to sRGB from the
    /// file's colour profile (see ``ColorProfile``).
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
        try decode(bytes, keepingProfile: false).image
    }

    /// Decodes any supported format, and the profile of the values it returns: with
    /// `keepingProfile` false (the default elsewhere) the pixels are converted to sRGB and the
    /// profile is nil; true keeps the file's values and returns its embedded profile, if any (a
    /// CMYK JPEG is converted all the same). GIF, PAM and PPM carry no profile.
    public static func decode(_ bytes: [UInt8], keepingProfile: Bool) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        try decode(bytes, keepingProfile: keepingProfile, cancellation: .never)
    }

    /// The same, under `cancellation`: AVIF and HEIC are refused up front when they cannot be
    /// decoded in the time left (``HEIFCodec/decodingSeconds(_:format:)``).
    package static func decode(
        _ bytes: [UInt8], keepingProfile: Bool, cancellation: Cancellation
    ) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        guard !bytes.isEmpty else { throw .empty }
        switch ImageFormat(sniffing: Array(bytes.prefix(64))) {
        case .png: return try PNGCodec.decode(bytes, keepingProfile: keepingProfile)
        case .jpeg: return try JPEGCodec.decode(bytes, keepingProfile: keepingProfile)
        case .pam, .ppm: return (try NetpbmCodec.decode(bytes), nil)
        case .webp:
            let profile = WebPCodec.profile(of: bytes)
            try profile?.check(in: .webp)
            let conversion = keepingProfile ? nil : profile.flatMap { ColorConversion(from: $0) }
            let image = try WebPCodec.decodeAnimation(bytes, firstFrameOnly: true, conversion: conversion).frames[0].image
            return (image, keepingProfile ? profile : nil)
        case .gif: return (try GIFCodec.decodeAnimation(bytes, firstFrameOnly: true).frames[0].image, nil)
        case .avif, .heic: return try HEIFCodec.decode(bytes, keepingProfile: keepingProfile, cancellation: cancellation)
        case nil: throw .unknownFormat
        }
    }

    /// Encodes in `format`; `quality` (1…100) applies to JPEG, WebP (at 100 lossless), AVIF and
    /// HEIC, `compression` (0…9) to PNG; `profile` is embedded in PNG, JPEG, WebP, AVIF and HEIC
    /// (GIF, PAM and PPM carry none).
    public static func encode(
        _ bitmap: Bitmap, as format: ImageFormat, quality: Int = JPEGCodec.defaultQuality, compression: Int = defaultCompression,
        profile: ColorProfile? = nil
    ) throws(EncodingError) -> [UInt8] {
        try encode(bitmap, as: format, quality: quality, compression: compression, profile: profile, cancellation: .never)
    }

    /// Bytes the encoder of `format` holds besides the image it is given, for `width × height`
    /// pixels: libheif's (``HEIFCodec/encodingBytes(width:height:)``), and libwebp's and the GIF
    /// quantizer's as measured on noise, their worst case, at 48 MP — lossless WebP 19 bytes a pixel
    /// (20 counted), lossy WebP 2.4 (3), GIF 1.5 (2); the row encoders (PNG, JPEG, PAM) hold rows only.
    package static func encodingBytes(_ format: ImageFormat, quality: Int, width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue < Int.max / 32 else { return .max }
        switch format {
        case .avif, .heic: return HEIFCodec.encodingBytes(width: width, height: height)
        case .webp: return pixels.partialValue * (quality >= 100 ? 20 : 3)
        case .gif: return pixels.partialValue * 2
        case .png, .jpeg, .pam, .ppm: return 0
        }
    }

    /// The same, under `cancellation`: AVIF and HEIC at the encoder setting that fits the time
    /// left, or refused up front (``HEIFCodec/encoderSetting(_:width:height:secondsLeft:)``).
    package static func encode(
        _ bitmap: Bitmap, as format: ImageFormat, quality: Int, compression: Int, profile: ColorProfile?, cancellation: Cancellation
    ) throws(EncodingError) -> [UInt8] {
        switch format {
        case .png: return try PNGCodec.encode(bitmap, level: compression, profile: profile)
        case .jpeg: return try JPEGCodec.encode(bitmap, quality: quality, profile: profile)
        case .pam: return NetpbmCodec.encodePAM(bitmap)
        case .ppm: return NetpbmCodec.encodePPM(bitmap)
        case .webp:
            try refuseWhatCannotFinish(format, bitmap, megapixelsPerSecond: quality >= 100 ? 1 : 5, cancellation)
            return try WebPCodec.encode(bitmap, quality: quality, profile: profile)
        case .gif:
            try refuseWhatCannotFinish(format, bitmap, megapixelsPerSecond: 8, cancellation)
            return try GIFCodec.encode(AnimatedImage(frames: [.init(image: bitmap, duration: 0)]))
        case .avif, .heic: return try HEIFCodec.encode(bitmap, as: format, quality: quality, profile: profile, cancellation: cancellation)
        }
    }

    /// libwebp's and the GIF quantizer's one call cannot be interrupted: under a deadline, an image
    /// whose encoding would take longer than the time left at `megapixelsPerSecond` (set below what
    /// was measured on noise at 48 MP on one core: lossless WebP 1.7, lossy 10, GIF 15) is refused
    /// up front with ``EncodingError/tooSlow(format:width:height:seconds:secondsLeft:)``.
    private static func refuseWhatCannotFinish(
        _ format: ImageFormat, _ bitmap: Bitmap, megapixelsPerSecond rate: Double, _ cancellation: Cancellation
    ) throws(EncodingError) {
        guard cancellation.deadline != nil else { return }
        let seconds = Double(bitmap.width) * Double(bitmap.height) / (rate * 1e6), left = cancellation.secondsLeft
        if seconds > left { throw .tooSlow(format: format, width: bitmap.width, height: bitmap.height, seconds: seconds, secondsLeft: max(0, left)) }
    }

    /// Reads and decodes the file at `path`, as a stream: the file's bytes are never held whole
    /// beside the image (WebP and GIF excepted).
    /// - Throws: ``FileError`` when the file cannot be read, ``DecodingError`` when it is not an image
    ///   BlurIO reads.
    public static func read(_ path: String) throws -> Bitmap {
        do {
            return try ImagePipeline.open(try InputFile(path: path)).source.collect()
        } catch PipelineError.input(_, let error) {
            throw error
        }
    }

    /// Encodes and writes atomically; the format comes from the suffix unless given.
    public static func write(_ bitmap: Bitmap, to path: String, format: ImageFormat? = nil, quality: Int = JPEGCodec.defaultQuality) throws {
        guard let format = format ?? ImageFormat(path: path) else {
            throw FileError.unknownOutputFormat(path: path)
        }
        try AtomicFile.write(try encode(bitmap, as: format, quality: quality), to: path)
    }
}
