import BlurCore
import CHeif
import Foundation

/// HEIF (HEIC, from phones) and AVIF through libheif, with the decoders and encoders the system's
/// libheif is built with (Debian: libde265 and dav1d or aom to read, aom and x265 to write).
///
/// Reading takes the primary image with its transformations applied (`irot`, `imir`, `clap`: the
/// size reported is the size shown), its alpha, and 10- and 12-bit samples rounded to 8 bits
/// (v × 255 / (2ᵇⁱᵗˢ − 1)). The profile (`colr`: ICC, or `nclx` primaries and transfer curve) is
/// returned beside the image for the caller to convert. The size is checked from the header
/// (`ispe`) before anything is decoded; libheif decodes the whole image at once, which takes
/// ``Header/decodingBytes`` (12 bytes a pixel at 8 bits, 20 above) against `ImageLimits/memoryBudget`.
/// The primary image's `ispe` size is checked against the pixel limit before libheif parses the
/// file, and libheif's own size limit is set from the pixel limit and the budget.
///
/// libheif cannot be interrupted: under a deadline, a decode is refused up front
/// (``DecodingError/tooSlow(format:width:height:seconds:secondsLeft:)``) when its coded pixels at
/// ``decodingRate(_:)`` would take longer than the time left, and an encode runs at the best
/// setting that fits the time left (``encoderSettings(_:)``) or is refused
/// (``EncodingError/tooSlow(format:width:height:seconds:secondsLeft:)``).
public enum HEIFCodec {
    /// What the primary image's header declares, read without decoding.
    public struct Header: Sendable, Equatable {
        /// Pixels, as shown: after a rotation by 90° or 270°, the stored size's sides swapped.
        public let width: Int, height: Int
        /// Whether the image has an alpha plane.
        public let hasAlpha: Bool
        /// Bits a sample: 8, 10 or 12.
        public let bitDepth: Int
        /// The pixels of every coded image (a grid's tiles, alpha, thumbnails) at the largest size
        /// its bitstream declares: what decoding costs in time.
        public let codedPixels: Int
        /// How many coded images there are (a grid's tiles, alpha, thumbnails).
        public let codedImages: Int

        /// The most bytes decoding takes besides the file: libheif's planes (up to 4:4:4 and alpha),
        /// its interleaved RGBA at the stored depth, and the bitmap.
        public var decodingBytes: Int {
            let sample = bitDepth > 8 ? 2 : 1
            return width * height * (4 * sample + 4 * sample + 4)
        }
    }

    /// The memory libheif and its encoder (aom for AVIF, x265 for HEIC) take to write a
    /// `width × height` image, besides the bitmap: 24 bytes a pixel (measured: about 22 for both,
    /// 664 MB of peak memory for a whole 6000×4000 `blurkit blur` to AVIF).
    public static func encodingBytes(width: Int, height: Int) -> Int { width * height * 24 }

    /// The primary image's header, checked against the pixel limit and the memory budget.
    public static func header(_ bytes: [UInt8]) throws(DecodingError) -> Header {
        try withPrimaryImage(bytes) { _, header in header }
    }

    /// libheif's decoding speed assumed under a deadline, pixels a second: HEVC (libde265) 3 MP/s,
    /// AV1 (dav1d) 6 MP/s. Measured on the 2-core VM that builds BlurKit, with a build running
    /// beside it: a noisy 3-MP photo decoded at 4.0 MP/s (HEIC, 2.4 MB) and 9.7 MP/s (AVIF); a grid
    /// of 22 × 22 flat 512-px HEVC tiles (127 MP) at 6.3 MP/s. Taken lower, to refuse rather than overrun.
    public static func decodingRate(_ format: ImageFormat) -> Double { format == .avif ? 6e6 : 3e6 }

    /// Seconds decoding the image `header` describes is assumed to take: its coded pixels at
    /// ``decodingRate(_:)``.
    public static func decodingSeconds(_ header: Header, format: ImageFormat) -> Double {
        Double(header.codedPixels) / decodingRate(format)
    }

    /// The primary image, premultiplied, converted to sRGB from its profile (straight, before it
    /// is premultiplied; the profile returned is nil) or, `keepingProfile`, as stored with its
    /// profile: the embedded ICC profile, or one made from the `nclx` box's primaries and curve
    /// when they are not sRGB's (nil for sRGB).
    public static func decode(_ bytes: [UInt8], keepingProfile: Bool = false) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        try decode(bytes, keepingProfile: keepingProfile, cancellation: .never)
    }

    /// The same, refused before libheif decodes anything when ``decodingSeconds(_:format:)`` is
    /// more than `cancellation`'s time left (libheif cannot be stopped once it has begun).
    package static func decode(
        _ bytes: [UInt8], keepingProfile: Bool, cancellation: Cancellation
    ) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        try withPrimaryImage(bytes) { handle, header throws(DecodingError) in
            let seconds = decodingSeconds(header, format: format(of: bytes)), left = cancellation.secondsLeft
            if seconds > left {
                throw .tooSlow(format: format(of: bytes), width: header.width, height: header.height, seconds: seconds, secondsLeft: left)
            }
            let profile = profile(of: handle)
            try profile?.check(in: format(of: bytes))
            let conversion = keepingProfile ? nil : profile.flatMap { ColorConversion(from: $0) }
            let options = heif_decoding_options_alloc()
            defer { heif_decoding_options_free(options) }
            options?.pointee.ignore_transformations = 0
            let deep = header.bitDepth > 8
            let chroma =
                deep
                ? (header.hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                : (header.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            var decoded: OpaquePointer?
            try check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options))
            guard let decoded else { throw .corrupt(format: format(of: bytes), message: "libheif returned no image") }
            defer { heif_image_release(decoded) }
            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            var stride: Int32 = 0
            guard width == header.width, height == header.height,
                let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride)
            else { throw .corrupt(format: format(of: bytes), message: "the decoded image is not the size its header gives") }
            let bits = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
            let channels = header.hasAlpha ? 4 : 3
            let premultiplied = heif_image_handle_is_premultiplied_alpha(handle) != 0
            do {
                let image = try Bitmap.filled(width: width, height: height, premultiplied: premultiplied || !header.hasAlpha) { pixels in
                    for y in 0..<height {
                        let row = pixels.row(y), source = plane + y * Int(stride)
                        if deep {
                            let maximum = UInt32(1) << UInt32(max(9, min(16, bits))) - 1
                            for x in 0..<width {
                                for c in 0..<channels {
                                    let at = (x * channels + c) * 2
                                    let v = UInt32(source[at]) | UInt32(source[at + 1]) << 8
                                    row[x * 4 + c] = UInt8((min(v, maximum) * 255 + maximum / 2) / maximum)
                                }
                                if channels == 3 { row[x * 4 + 3] = 255 }
                            }
                        } else if channels == 4 {
                            row.update(from: source, count: width * 4)
                        } else {
                            for x in 0..<width {
                                row[x * 4] = source[x * 3]
                                row[x * 4 + 1] = source[x * 3 + 1]
                                row[x * 4 + 2] = source[x * 3 + 2]
                                row[x * 4 + 3] = 255
                            }
                        }
                    }
                    if !premultiplied { conversion?.convert(pixels) }
                }
                if premultiplied, let conversion {
                    var image = image
                    conversion.convert(premultiplied: &image)
                    return (image, nil)
                }
                return (image, keepingProfile ? profile : nil)
            } catch {
                throw .corrupt(format: format(of: bytes), message: "the image cannot be stored: \(error)")
            }
        }
    }

    /// `.avif` or `.heic`, from the file's brands.
    static func format(of bytes: [UInt8]) -> ImageFormat { ImageFormat(sniffing: Array(bytes.prefix(64))) ?? .heic }

    /// Opens `bytes` in libheif, finds the primary image, checks its size and budget and hands it
    /// to `body`.
    private static func withPrimaryImage<T>(
        _ bytes: [UInt8], _ body: (OpaquePointer, Header) throws(DecodingError) -> T
    ) throws(DecodingError) -> T {
        guard !bytes.isEmpty else { throw .empty }
        let format = format(of: bytes)
        guard let context = heif_context_alloc() else { throw .corrupt(format: format, message: "out of memory") }
        defer { heif_context_free(context) }
        heif_context_set_max_decoding_threads(context, Int32(ProcessInfo.processInfo.activeProcessorCount))
        // libheif refuses a side of this many pixels or more: none can be longer than the pixel
        // limit, or than the budget's pixels at `decodingBytes`' 12 bytes each.
        let longest = min(ImageLimits.maximumPixelCount, ImageLimits.memoryBudget / 12)
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: longest + 1))
        let result: Result<T, DecodingError> = bytes.withUnsafeBytes { data in
            do throws(DecodingError) {
                if let size = (try? HEIFItems(bytes))?.primarySize {
                    try DecodingError.checkSize(format, width: size.width, height: size.height)
                }
                try check(heif_context_read_from_memory_without_copy(context, data.baseAddress, data.count, nil), format)
                var handle: OpaquePointer?
                try check(heif_context_get_primary_image_handle(context, &handle), format)
                guard let handle else { throw .corrupt(format: format, message: "no primary image") }
                defer { heif_image_handle_release(handle) }
                let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
                let depth = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
                try DecodingError.checkSize(format, width: width, height: height)
                let coded = try HEIFItems.check(bytes, within: width, height, format: format)
                let header = Header(
                    width: width, height: height, hasAlpha: heif_image_handle_has_alpha_channel(handle) != 0, bitDepth: max(8, depth),
                    codedPixels: coded.pixels, codedImages: coded.images)
                try DecodingError.checkBudget(format, width: width, height: height, bytes: header.decodingBytes)
                return .success(try body(handle, header))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Throws libheif's error as a ``DecodingError``.
    private static func check(_ error: heif_error, _ format: ImageFormat = .heic) throws(DecodingError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data: throw .truncated(format: format)
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature: throw .unsupported(format: format, feature: message)
        case heif_error_Memory_allocation_error: throw .corrupt(format: format, message: "out of memory: \(message)")
        default: throw .corrupt(format: format, message: message)
        }
    }

    /// The image's colour profile: its ICC profile, or its `nclx` colours as one (nil when they
    /// are sRGB's, unspecified, or a curve BlurKit does not convert, such as PQ or HLG).
    private static func profile(of handle: OpaquePointer) -> ColorProfile? {
        switch heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            guard size > 0, size < 1 << 24 else { return nil }
            var data = [UInt8](repeating: 0, count: size)
            let error = data.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            return error.code == heif_error_Ok ? ColorProfile(data: data) : nil
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
            defer { heif_nclx_color_profile_free(nclx) }
            return profile(of: nclx.pointee)
        default:
            return nil
        }
    }

    /// An `nclx` box's colours as an ICC profile, or nil for sRGB's (BT.709 primaries, the sRGB
    /// curve or none given) and for curves not converted.
    static func profile(of nclx: heif_color_profile_nclx) -> ColorProfile? {
        let curve: ColorProfile.TransferCurve
        switch nclx.transfer_characteristics.rawValue {
        case 13, 2: curve = .sRGB
        case 1, 6, 14, 15: curve = .bt709
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .linear
        default: return nil
        }
        let primaries = nclx.color_primaries.rawValue
        if primaries == 1 || primaries == 2, curve == .sRGB { return nil }
        guard nclx.color_primary_white_x > 0, nclx.color_primary_white_y > 0 else { return nil }
        return ColorProfile.rgb(
            red: (Double(nclx.color_primary_red_x), Double(nclx.color_primary_red_y)),
            green: (Double(nclx.color_primary_green_x), Double(nclx.color_primary_green_y)),
            blue: (Double(nclx.color_primary_blue_x), Double(nclx.color_primary_blue_y)),
            white: (Double(nclx.color_primary_white_x), Double(nclx.color_primary_white_y)), transfer: curve,
            name: "HEIF nclx \(primaries)/\(nclx.transfer_characteristics.rawValue)")
    }
}

extension HEIFCodec {
    /// An encoder setting (a libheif parameter and its value) and the speed it was measured at.
    public struct EncoderSetting: Sendable, Equatable {
        /// libheif's parameter: `speed` (aom, 0…9) or `preset` (x265).
        public let parameter: String
        /// Its value: `6`, `slow`.
        public let value: String
        /// Pixels a second this setting encodes at, measured (see ``encoderSettings(_:)``).
        public let rate: Double
    }

    /// The settings an encode under a deadline picks from, best (slowest) first; the first is
    /// libheif's default, used whenever there is time. Rates measured on the 2-core VM that builds
    /// BlurKit (a build running beside it) encoding two 3-MP images at quality 90, a smooth photo
    /// and one with ±20 levels of noise on every pixel (as the `material` effect's grain), the
    /// slower of the two: AVIF (aom) speed 6 0.43 MP/s (smooth 1.65), speed 8 2.3 MP/s (2.3);
    /// HEIC (x265) `slow` 0.066 MP/s (0.11), `medium` 0.20 MP/s (0.19), `ultrafast` 0.32 MP/s (0.98).
    /// x265's `fast` measured no faster than `medium` and is left out.
    public static func encoderSettings(_ format: ImageFormat) -> [EncoderSetting] {
        if format == .avif {
            return [.init(parameter: "speed", value: "6", rate: 0.4e6), .init(parameter: "speed", value: "8", rate: 2e6)]
        }
        return [
            .init(parameter: "preset", value: "slow", rate: 0.06e6), .init(parameter: "preset", value: "medium", rate: 0.18e6),
            .init(parameter: "preset", value: "ultrafast", rate: 0.3e6),
        ]
    }

    /// The best of ``encoderSettings(_:)`` that encodes `pixels` within `secondsLeft`.
    /// - Throws: ``EncodingError/tooSlow(format:width:height:seconds:secondsLeft:)`` when even the
    ///   fastest would not.
    public static func encoderSetting(
        _ format: ImageFormat, width: Int, height: Int, secondsLeft: Double
    ) throws(EncodingError) -> EncoderSetting {
        let settings = encoderSettings(format), pixels = Double(width * height)
        if let fitting = settings.first(where: { pixels / $0.rate <= secondsLeft }) { return fitting }
        let fastest = settings[settings.count - 1]
        throw .tooSlow(format: format, width: width, height: height, seconds: pixels / fastest.rate, secondsLeft: secondsLeft)
    }

    /// AVIF (AV1, through libheif's aom encoder) or HEIC (HEVC, through x265) at `quality`
    /// 1…100, 4:2:0, alpha kept; `profile` written as the `colr` ICC box, else `nclx` sRGB
    /// (BT.709 primaries, the sRGB curve, full range).
    public static func encode(
        _ bitmap: Bitmap, as format: ImageFormat = .avif, quality: Int, profile: ColorProfile? = nil
    ) throws(EncodingError) -> [UInt8] {
        try encode(bitmap, as: format, quality: quality, profile: profile, cancellation: .never)
    }

    /// The same at the best setting that fits `cancellation`'s time left (``encoderSetting(_:width:height:secondsLeft:)``),
    /// refused before anything is encoded when none does.
    package static func encode(
        _ bitmap: Bitmap, as format: ImageFormat, quality: Int, profile: ColorProfile?, cancellation: Cancellation
    ) throws(EncodingError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        guard format == .avif || format == .heic else { throw .failed(format: format, message: "not a HEIF format") }
        let setting = try encoderSetting(format, width: bitmap.width, height: bitmap.height, secondsLeft: cancellation.secondsLeft)
        guard let context = heif_context_alloc() else { throw .failed(format: format, message: "out of memory") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        let compression = format == .avif ? heif_compression_AV1 : heif_compression_HEVC
        guard heif_context_get_encoder_for_format(context, compression, &encoder).code == heif_error_Ok, let encoder else {
            throw .failed(format: format, message: "this libheif has no \(format.name) encoder")
        }
        defer { heif_encoder_release(encoder) }
        try checkWrite(heif_encoder_set_lossy_quality(encoder, Int32(quality)), format)
        try checkWrite(heif_encoder_set_parameter(encoder, setting.parameter, setting.value), format)
        if format == .avif {
            _ = heif_encoder_set_parameter_integer(encoder, "threads", Int32(ProcessInfo.processInfo.activeProcessorCount))
        }
        let alpha = !bitmap.isOpaque
        var image: OpaquePointer?
        try checkWrite(
            heif_image_create(
                Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB,
                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image), format)
        guard let image else { throw .failed(format: format, message: "out of memory") }
        defer { heif_image_release(image) }
        try checkWrite(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8), format)
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw .failed(format: format, message: "out of memory")
        }
        let rgba = bitmap.straightRGBA, width = bitmap.width
        rgba.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                let row = plane + y * Int(stride), from = source.baseAddress! + y * width * 4
                if alpha {
                    row.update(from: from, count: width * 4)
                } else {
                    for x in 0..<width {
                        row[x * 3] = from[x * 4]
                        row[x * 3 + 1] = from[x * 4 + 1]
                        row[x * 3 + 2] = from[x * 4 + 2]
                    }
                }
            }
        }
        if let profile, !profile.data.isEmpty {
            try checkWrite(profile.data.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) }, format)
        } else if let nclx = heif_nclx_color_profile_alloc() {
            defer { heif_nclx_color_profile_free(nclx) }
            _ = heif_nclx_color_profile_set_color_primaries(nclx, 1)
            _ = heif_nclx_color_profile_set_transfer_characteristics(nclx, 13)
            _ = heif_nclx_color_profile_set_matrix_coefficients(nclx, 6)
            nclx.pointee.full_range_flag = 1
            try checkWrite(heif_image_set_nclx_color_profile(image, nclx), format)
        }
        let options = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(options) }
        try checkWrite(heif_context_encode_image(context, image, encoder, options, nil), format)
        let collected = ByteCollector()
        var writer = heif_writer(
            writer_api_version: 1,
            write: { _, data, size, user in
                let collector = Unmanaged<ByteCollector>.fromOpaque(user!).takeUnretainedValue()
                if let data { collector.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size)) }
                return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIFCodec.success)
            })
        try checkWrite(heif_context_write(context, &writer, Unmanaged.passUnretained(collected).toOpaque()), format)
        return collected.bytes
    }

    /// The message of a write that succeeded (libheif wants a C string).
    nonisolated(unsafe) private static let success: UnsafePointer<CChar> = {
        let text = strdup("ok")!
        return UnsafePointer(text)
    }()

    /// Throws libheif's error as an ``EncodingError``.
    private static func checkWrite(_ error: heif_error, _ format: ImageFormat) throws(EncodingError) {
        guard error.code != heif_error_Ok else { return }
        throw .failed(format: format, message: error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }
}

/// What libheif's writer hands over, gathered.
private final class ByteCollector {
    var bytes: [UInt8] = []
}
