import BlurCore
import BlurIO
import BlurTestSupport
import CHeif
import Testing

/// HEIC and AVIF through libheif: the transformations applied, alpha, deep samples rounded,
/// sizes checked before decoding, damaged files refused.
@Suite struct HEIFCodecTests {
    /// A file written by libheif directly (not by ``HEIFCodec``): `samples` interleaved RGB(A) at
    /// `bits` (8: a byte each; more: two, little-endian), lossless 4:4:4 AV1 (else 4:2:0 YCbCr at
    /// quality 95; HEVC when `hevc`), shown turned as `orientation` says (libheif writes `irot`/`imir`).
    static func encodeDirectly(
        width: Int, height: Int, alpha: Bool, bits: Int = 8, samples: [UInt16], orientation: heif_orientation = heif_orientation_normal,
        lossless: Bool = true, hevc: Bool = false
    ) throws -> [UInt8] {
        let context = try #require(heif_context_alloc())
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try #require(
            heif_context_get_encoder_for_format(context, hevc ? heif_compression_HEVC : heif_compression_AV1, &encoder).code == heif_error_Ok)
        defer { heif_encoder_release(encoder) }
        if lossless {
            _ = heif_encoder_set_lossless(encoder, 1)
            _ = heif_encoder_set_parameter_string(encoder, "chroma", "444")
        } else {
            _ = heif_encoder_set_lossy_quality(encoder, 95)
        }
        let chroma: heif_chroma =
            bits == 8
            ? (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            : (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
        var image: OpaquePointer?
        try #require(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &image).code == heif_error_Ok)
        defer { heif_image_release(image) }
        try #require(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), Int32(bits)).code == heif_error_Ok)
        var stride: Int32 = 0
        let plane = try #require(heif_image_get_plane(image, heif_channel_interleaved, &stride))
        let channels = alpha ? 4 : 3
        for y in 0..<height {
            for i in 0..<(width * channels) {
                let v = samples[y * width * channels + i]
                if bits == 8 {
                    plane[y * Int(stride) + i] = UInt8(v)
                } else {
                    plane[y * Int(stride) + 2 * i] = UInt8(v & 0xFF)
                    plane[y * Int(stride) + 2 * i + 1] = UInt8(v >> 8)
                }
            }
        }
        // Lossless AV1 needs the identity matrix (RGB stored as is).
        let nclx = try #require(heif_nclx_color_profile_alloc())
        defer { heif_nclx_color_profile_free(nclx) }
        _ = heif_nclx_color_profile_set_color_primaries(nclx, 1)
        _ = heif_nclx_color_profile_set_transfer_characteristics(nclx, 13)
        _ = heif_nclx_color_profile_set_matrix_coefficients(nclx, lossless ? 0 : 6)
        nclx.pointee.full_range_flag = 1
        _ = heif_image_set_nclx_color_profile(image, nclx)
        let options = try #require(heif_encoding_options_alloc())
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = orientation
        try #require(heif_context_encode_image(context, image, encoder, options, nil).code == heif_error_Ok)
        let folder = TestImages.temporaryFolder()
        let path = folder + (hevc ? "/direct.heic" : "/direct.avif")
        try #require(heif_context_write_to_file(context, path).code == heif_error_Ok)
        return try AtomicFile.read(path)
    }

    static func samples(width: Int, height: Int, channels: Int, maximum: UInt16, seed: UInt64) -> [UInt16] {
        var random = TestRandom(seed: seed)
        return (0..<(width * height * channels)).map { i in
            if channels == 4 && i % 4 == 3 { return i % 8 == 3 ? maximum : UInt16(random.next() % UInt64(maximum + 1)) }
            return UInt16(random.next() % UInt64(maximum + 1))
        }
    }

    /// RGB samples as opaque RGBA bytes, each through `byte`.
    static func opaqueRGBA(_ samples: [UInt16], _ byte: (UInt16) -> UInt8) -> [UInt8] {
        var rgba: [UInt8] = []
        for i in stride(from: 0, to: samples.count, by: 3) {
            rgba += [byte(samples[i]), byte(samples[i + 1]), byte(samples[i + 2]), 255]
        }
        return rgba
    }

    @Test func readsLosslessPixelsAndAlphaExactly() throws {
        let (w, h) = (13, 7)
        let samples = HEIFCodecTests.samples(width: w, height: h, channels: 4, maximum: 255, seed: 1)
        let file = try HEIFCodecTests.encodeDirectly(width: w, height: h, alpha: true, samples: samples)
        #expect(ImageFormat(sniffing: Array(file.prefix(64))) == .avif)
        let header = try HEIFCodec.header(file)
        #expect(header.width == w && header.height == h && header.hasAlpha && header.bitDepth == 8)
        let image = try ImageFile.decode(file)
        let expected = try Bitmap(width: w, height: h, straightRGBA: samples.map { UInt8($0) })
        #expect(image == expected, "\(ImageDifference(image, expected))")
    }

    /// An `irot` of 90° (EXIF orientation 6): the size reported swapped, the pixels turned.
    @Test func appliesTheRotationAndReportsTheShownSize() throws {
        let (w, h) = (12, 5)
        let samples = HEIFCodecTests.samples(width: w, height: h, channels: 3, maximum: 255, seed: 2)
        let file = try HEIFCodecTests.encodeDirectly(
            width: w, height: h, alpha: false, samples: samples, orientation: heif_orientation_rotate_90_cw)
        let header = try HEIFCodec.header(file)
        #expect(header.width == h && header.height == w)
        let image = try ImageFile.decode(file)
        let rgba = HEIFCodecTests.opaqueRGBA(samples) { UInt8($0) }
        let upright = try Bitmap(width: w, height: h, straightRGBA: rgba).oriented(.right)
        #expect(image.width == h && image.height == w)
        #expect(image == upright, "\(ImageDifference(image, upright))")
    }

    /// 10- and 12-bit samples to the nearest 8-bit value, v × 255 / (2ᵇⁱᵗˢ − 1), within the lossy
    /// margin of 4:2:0 YCbCr files: 10 bits as HEIC (libheif 1.15 asks aom 3.6 for a profile that
    /// asserts on 10-bit AV1), 12 bits as AVIF. Tests/Photos/test_photos.py holds both to
    /// heif-convert within a level.
    @Test(arguments: [10, 12])
    func roundsDeepSamplesToEightBits(_ bits: Int) throws {
        let (w, h) = (16, 8), maximum = UInt16((1 << bits) - 1)
        let samples = (0..<(w * h * 3)).map { i in UInt16((i / 3 % w) * Int(maximum) / (w - 1)) }
        let file = try HEIFCodecTests.encodeDirectly(
            width: w, height: h, alpha: false, bits: bits, samples: samples, lossless: false, hevc: bits == 10)
        #expect(try HEIFCodec.header(file).bitDepth == bits)
        let image = try ImageFile.decode(file)
        let m = UInt32(maximum)
        let rgba = HEIFCodecTests.opaqueRGBA(samples) { UInt8((UInt32($0) * 255 + m / 2) / m) }
        let expected = try Bitmap(width: w, height: h, straightRGBA: rgba)
        #expect(ImageDifference(image, expected).maximum <= 6, "\(ImageDifference(image, expected))")
    }

    @Test func checksThePixelLimitBeforeDecoding() throws {
        let samples = HEIFCodecTests.samples(width: 16, height: 16, channels: 3, maximum: 255, seed: 4)
        let file = try HEIFCodecTests.encodeDirectly(width: 16, height: 16, alpha: false, samples: samples)
        ImageLimits.withMaximumPixelCount(100) {
            #expect(throws: DecodingError.tooLarge(format: .avif, width: 16, height: 16, limit: 100)) { try HEIFCodec.header(file) }
            #expect(throws: DecodingError.tooLarge(format: .avif, width: 16, height: 16, limit: 100)) { try ImageFile.decode(file) }
        }
    }

    /// A file whose `ispe` boxes say 16×16 over a 256×256 bitstream (libheif would hand the decoder
    /// the bitstream's size): refused from the sequence header before anything is decoded, for
    /// AV1 (with its alpha image) and HEVC alike.
    @Test(arguments: [false, true])
    func refusesABitstreamLargerThanItsHeader(_ hevc: Bool) throws {
        let samples = HEIFCodecTests.samples(width: 256, height: 256, channels: 4, maximum: 255, seed: 5)
        var file = try HEIFCodecTests.encodeDirectly(width: 256, height: 256, alpha: true, samples: samples, lossless: false, hevc: hevc)
        #expect(try HEIFCodec.header(file).width == 256, "the file as written is read")
        var patched = 0
        for i in 4..<(file.count - 16) where file[i..<(i + 4)].elementsEqual("ispe".utf8) {
            file.replaceSubrange((i + 8)..<(i + 16), with: [0, 0, 0, 16, 0, 0, 0, 16])
            patched += 1
        }
        try #require(patched == 2, "an ispe box for the image and for its alpha")
        for read in [{ _ = try HEIFCodec.header(file) }, { _ = try ImageFile.decode(file) }] {
            do {
                try read()
                Issue.record("a 256×256 bitstream under a 16×16 header was read")
            } catch let error as DecodingError {
                #expect(error.description.contains("coded at 256×256, larger than the 16×16 image"), "\(error)")
            }
        }
    }

    /// Every cut of a file and a damaged one: an error, never a crash or an image.
    @Test func refusesTruncatedAndCorruptFiles() throws {
        let image = TestImages.smooth(width: 32, height: 24)
        let file = try HEIFCodec.encode(image, as: .avif, quality: 80)
        for cut in stride(from: 1, to: file.count, by: max(1, file.count / 40)) {
            #expect(throws: DecodingError.self) { try ImageFile.decode(Array(file.prefix(cut))) }
        }
        var damaged = file
        for i in stride(from: damaged.count / 2, to: damaged.count, by: 7) { damaged[i] ^= 0x5A }
        if let decoded = try? ImageFile.decode(damaged) { #expect(decoded.width == 32 && decoded.height == 24) }
    }

    /// AVIF and HEIC written by ``HEIFCodec``: the size, alpha, and the pixels within the lossy margin.
    @Test(arguments: [ImageFormat.avif, .heic])
    func writesWhatItReads(_ format: ImageFormat) throws {
        let image = TestImages.translucentPhoto
        let file = try ImageFile.encode(image, as: format, quality: 90)
        #expect(ImageFormat(sniffing: Array(file.prefix(64))) == format)
        let decoded = try ImageFile.decode(file)
        #expect(decoded.width == image.width && decoded.height == image.height && !decoded.isOpaque)
        #expect(ImageDifference(decoded, image).psnr > 32, "\(ImageDifference(decoded, image))")
        #expect(throws: EncodingError.invalidQuality(0)) { try HEIFCodec.encode(image, as: format, quality: 0) }
    }
}
