import BlurCore
import BlurIO
import BlurTestSupport
import CJPEGShim
import Testing

@Suite struct JPEGCodecTests {
    /// Encodes raw samples through libjpeg directly (gray or CMYK, which BlurKit does not write;
    /// `progressive` in libjpeg's standard progression).
    static func rawJPEG(_ samples: [UInt8], width: Int, height: Int, components: Int, progressive: Bool = false) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        let rc = samples.withUnsafeBufferPointer {
            bk_jpeg_encode(
                $0.baseAddress, Int32(width), Int32(height), width * components, Int32(components), 95, progressive ? 1 : 0, &output, &size, &message)
        }
        try #require(rc == 0 && output != nil)
        defer { bk_jpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    @Test func roundTripsWithinTheQualityTolerance() throws {
        let image = TestImages.smooth(width: 96, height: 64)
        let high = try JPEGCodec.decode(JPEGCodec.encode(image, quality: 95))
        let low = try JPEGCodec.decode(JPEGCodec.encode(image, quality: 20))
        #expect(high.width == 96 && high.height == 64 && high.isOpaque)
        #expect(ImageDifference(image, high).psnr > 32)  // measured 34.5 (4:2:0 chroma on the hard disc edge)
        #expect(ImageDifference(image, low).psnr < ImageDifference(image, high).psnr)
        #expect(try JPEGCodec.encode(image, quality: 20).count < JPEGCodec.encode(image, quality: 95).count)
        #expect(throws: EncodingError.invalidQuality(0)) { try JPEGCodec.encode(image, quality: 0) }
        #expect(throws: EncodingError.invalidQuality(101)) { try JPEGCodec.encode(image, quality: 101) }
    }

    @Test func flattensTranslucencyOverWhite() throws {
        let clear = try Bitmap(width: 16, height: 16)
        let decoded = try JPEGCodec.decode(JPEGCodec.encode(clear, quality: 95))
        #expect(decoded[8, 8].r >= 250 && decoded[8, 8].g >= 250 && decoded[8, 8].b >= 250)
    }

    @Test func readsGrayscale() throws {
        let samples = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
        let image = try JPEGCodec.decode(JPEGCodecTests.rawJPEG(samples, width: 32, height: 16, components: 1))
        for x in stride(from: 0, to: 32, by: 5) {
            let p = image[x, 8]
            #expect(p.r == p.g && p.g == p.b && p.a == 255)
            #expect(abs(Int(p.r) - x * 8) <= 6)
        }
    }

    @Test func readsAdobeCMYK() throws {
        // Adobe stores CMYK inverted: 255 = no ink. Left half red (no cyan, full magenta and
        // yellow), right half 50 % black.
        var samples: [UInt8] = []
        for _ in 0..<16 { for x in 0..<32 { samples += x < 16 ? [255, 0, 0, 255] : [255, 255, 255, 128] } }
        let image = try JPEGCodec.decode(JPEGCodecTests.rawJPEG(samples, width: 32, height: 16, components: 4))
        let red = image[4, 8], gray = image[28, 8]
        #expect(red.r > 245 && red.g < 10 && red.b < 10)
        #expect(abs(Int(gray.r) - 128) < 6 && abs(Int(gray.g) - 128) < 6)
    }

    /// `jpeg` without its Adobe APP14 segment: its CMYK samples are then plain ink amounts.
    static func removingAdobeMarker(_ jpeg: [UInt8]) throws -> [UInt8] {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1], length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if marker == 0xEE { return Array(jpeg[..<at] + jpeg[(at + 2 + length)...]) }
            if marker == 0xDA { break }
            at += 2 + length
        }
        Issue.record("no Adobe marker to remove")
        return jpeg
    }

    // Plain (non-Adobe) CMYK stores ink amounts; Adobe's stores them inverted. The same inks both
    // ways decode to the same colours: red (magenta and yellow), 50 % black, cyan.
    @Test func readsPlainCMYKAsWellAsAdobes() throws {
        let inks: [[UInt8]] = [[0, 255, 255, 0], [0, 0, 0, 128], [255, 0, 0, 0]]
        var plain: [UInt8] = [], adobe: [UInt8] = []
        for _ in 0..<16 {
            for x in 0..<48 {
                let ink = inks[x / 16]
                plain += ink
                adobe += ink.map { 255 - $0 }
            }
        }
        let fromPlain = try JPEGCodec.decode(Self.removingAdobeMarker(Self.rawJPEG(plain, width: 48, height: 16, components: 4)))
        let fromAdobe = try JPEGCodec.decode(Self.rawJPEG(adobe, width: 48, height: 16, components: 4))
        let expected: [(Int, Int, Int)] = [(255, 0, 0), (127, 127, 127), (0, 255, 255)]
        for (block, rgb) in expected.enumerated() {
            for image in [fromPlain, fromAdobe] {
                let p = image[block * 16 + 8, 8]
                #expect(abs(Int(p.r) - rgb.0) <= 4 && abs(Int(p.g) - rgb.1) <= 4 && abs(Int(p.b) - rgb.2) <= 4, "block \(block): \(p)")
            }
        }
    }

    /// A JPEG of a 32 × 16 image, left half black, right half white, with an EXIF orientation.
    static func orientedJPEG(_ orientation: Int, bigEndian: Bool) throws -> [UInt8] {
        var straight: [UInt8] = []
        for _ in 0..<16 { for x in 0..<32 { straight += x < 16 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let jpeg = try JPEGCodec.encode(Bitmap(width: 32, height: 16, straightRGBA: straight), quality: 95)
        let u16: (Int) -> [UInt8] = { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let u32: (Int) -> [UInt8] = { bigEndian ? be32($0) : be32($0).reversed() }
        var tiff = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    @Test(arguments: 1...8)
    func appliesTheEXIFOrientation(_ orientation: Int) throws {
        for bigEndian in [false, true] {
            let bytes = try JPEGCodecTests.orientedJPEG(orientation, bigEndian: bigEndian)
            #expect(EXIF.orientation(inJPEG: bytes)?.rawValue == orientation)
            let image = try JPEGCodec.decode(bytes)
            let stored = try JPEGCodec.decode(bytes, applyOrientation: false)
            #expect(image == stored.oriented(ImageOrientation(rawValue: orientation)!))
            #expect((image.width, image.height) == (orientation >= 5 ? (16, 32) : (32, 16)))
        }
        // Orientation 6 (turn clockwise): the stored left (black) half ends up on top.
        let turned = try JPEGCodec.decode(JPEGCodecTests.orientedJPEG(6, bigEndian: false))
        #expect(turned[8, 4].r < 20 && turned[8, 28].r > 235)
    }

    @Test func badInputGivesErrors() throws {
        let good = try JPEGCodec.encode(TestImages.smooth(width: 64, height: 48), quality: 90)
        #expect(throws: DecodingError.empty) { try JPEGCodec.decode([]) }
        #expect(throws: DecodingError.truncated(format: .jpeg)) { try JPEGCodec.decode(Array(good.prefix(good.count * 2 / 3))) }
        #expect(throws: DecodingError.self) { try JPEGCodec.decode(Array(good.prefix(20))) }
        #expect(throws: DecodingError.self) { try JPEGCodec.decode([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 500)) }
        #expect(throws: DecodingError.self) { try JPEGCodec.decode([1, 2, 3, 4]) }
    }

    @Test func refusesADecompressionBombFromItsHeader() throws {
        var jpeg = try JPEGCodec.encode(TestImages.smooth(width: 16, height: 16), quality: 90)
        // Find SOF0 (FF C0): length(2) precision(1) height(2) width(2).
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 × 60000
        #expect(throws: DecodingError.tooLarge(format: .jpeg, width: 60000, height: 60000, limit: ImageLimits.maximumPixelCount)) {
            try JPEGCodec.decode(jpeg)
        }
    }

    @Test func decodesAtReducedSize() throws {
        let jpeg = try JPEGCodec.encode(TestImages.smooth(width: 64, height: 48), quality: 90)
        let quarter = try JPEGCodec.decode(jpeg, reduction: 4)
        #expect((quarter.width, quarter.height) == (16, 12))
    }
}

/// JPEG's default quality is the documented 90 (README, `blurkit … --help`, docs/scene-format.md),
/// byte for byte through every way of asking for it, and quality orders file sizes.
@Suite struct JPEGSizeTests {
    @Test func theDefaultIsQuality90AndQualityOrdersSizes() throws {
        let photo = TestImages.photo
        let at90 = try JPEGCodec.encode(photo, quality: 90)
        #expect(try JPEGCodec.encode(photo) == at90)
        #expect(try ImageFile.encode(photo, as: .jpeg) == at90)
        #expect(ImageFile.qualitySpec.defaultValue == 90)
        let sizes = try [30, 50, 75, 90, 100].map { try JPEGCodec.encode(photo, quality: $0).count }
        #expect(sizes == sizes.sorted() && Set(sizes).count == sizes.count, "\(sizes)")
    }
}
