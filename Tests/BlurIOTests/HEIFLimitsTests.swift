import BlurCore
import BlurIO
import BlurTestSupport
import CHeif
import Foundation
import Testing

/// libheif cannot be interrupted: decodes and encodes that cannot finish before the deadline are
/// refused up front, from the header's coded pixels and the measured rates; a size over the pixel
/// limit is ``DecodingError/tooLarge(format:width:height:limit:)`` before libheif parses the file.
@Suite struct HEIFLimitsTests {
    static func file(width: Int, height: Int, hevc: Bool) throws -> [UInt8] {
        let samples = HEIFCodecTests.samples(width: width, height: height, channels: 3, maximum: 255, seed: 9)
        return try HEIFCodecTests.encodeDirectly(width: width, height: height, alpha: false, samples: samples, lossless: false, hevc: hevc)
    }

    /// The header counts the coded pixels; a decode whose estimate is over the time left is refused
    /// with the estimate in the message, and decodes when there is time.
    /// The time left is not rounded down to nothing: "over the 0 s left" said the deadline had passed.
    @Test func theTimeLeftIsShownInTenthsUnderTenSeconds() {
        func text(_ left: Double) -> String {
            DecodingError.tooSlow(format: .avif, width: 10, height: 10, seconds: 12, secondsLeft: left).description
        }
        #expect(text(0.95).hasSuffix("over the 0.9 s left before the deadline"))
        #expect(text(0.04).hasSuffix("over the 0.1 s left before the deadline"))
        #expect(text(4.96).hasSuffix("over the 4.9 s left before the deadline"))
        #expect(text(42.7).hasSuffix("over the 42 s left before the deadline"))
        #expect(text(-1).hasSuffix("over the time left (none: the deadline has passed)"))
    }

    @Test(arguments: [false, true])
    func refusesADecodeThatCannotFinishInTime(_ hevc: Bool) throws {
        let file = try HEIFLimitsTests.file(width: 256, height: 192, hevc: hevc)
        let format: ImageFormat = hevc ? .heic : .avif
        let header = try HEIFCodec.header(file)
        #expect(header.codedImages == 1)
        #expect(header.codedPixels >= 256 * 192 && header.codedPixels <= 320 * 256, "\(header.codedPixels)")
        let seconds = HEIFCodec.decodingSeconds(header, format: format)
        #expect(seconds == Double(header.codedPixels) / HEIFCodec.decodingRate(format))
        let soon = Cancellation(deadline: Date().addingTimeInterval(seconds / 4))
        let error = #expect(throws: DecodingError.self) { try ImageFile.decode(file, keepingProfile: false, cancellation: soon) }
        guard case let .tooSlow(found, width, height, estimate, left) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(found == format && width == 256 && height == 192)
        #expect(estimate == seconds && left < seconds)
        let passed = Cancellation(deadline: Date().addingTimeInterval(-1))
        #expect(throws: DecodingError.self) { try ImageFile.decode(file, keepingProfile: false, cancellation: passed) }
        let later = Cancellation(deadline: Date().addingTimeInterval(600))
        #expect(try ImageFile.decode(file, keepingProfile: false, cancellation: later).image.width == 256)
    }

    /// A HEIC grid of `n × n` copies of one 512-px tile (libheif's own HEVC file, its `hvcC` and
    /// data), every tile item pointing at the same bytes: `ftyp`, then `meta` (`hdlr`, `pitm`,
    /// `iloc`, `iinf`, `iref` `dimg`, `iprp`), then `mdat` (the grid's descriptor, the tile).
    static func grid(_ n: Int) throws -> [UInt8] {
        let tile = try HEIFLimitsTests.file(width: 512, height: 512, hevc: true)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v) }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
        func full(_ type: String, _ version: Int, _ flags: Int, _ payload: [UInt8]) -> [UInt8] {
            box(type, u32(version << 24 | flags) + payload)
        }
        /// A top-level box of `tile` or the `hvcC` inside it: its whole bytes, or its payload.
        func find(_ type: String, whole: Bool) throws -> [UInt8] {
            let at = try #require((4..<(tile.count - 4)).first { tile[$0..<($0 + 4)].elementsEqual(type.utf8) })
            let size = Int(tile[at - 4]) << 24 | Int(tile[at - 3]) << 16 | Int(tile[at - 2]) << 8 | Int(tile[at - 1])
            return Array(tile[(whole ? at - 4 : at + 4)..<(at - 4 + size)])
        }
        let hvcC = try find("hvcC", whole: true), data = try find("mdat", whole: false)
        let tiles = n * n, side = 512 * n
        let descriptor: [UInt8] = [0, 0, UInt8(n - 1), UInt8(n - 1)] + u16(side) + u16(side)
        let infe = full("infe", 2, 0, u16(1) + u16(0) + Array("grid".utf8) + [0])
        let infes = (0..<tiles).flatMap { full("infe", 2, 1, u16(2 + $0) + u16(0) + Array("hvc1".utf8) + [0]) }
        let iinf = full("iinf", 0, 0, u16(tiles + 1) + infe + infes)
        let iref = full("iref", 0, 0, box("dimg", u16(1) + u16(tiles) + (0..<tiles).flatMap { u16(2 + $0) }))
        let ipco = box("ipco", hvcC + full("ispe", 0, 0, u32(512) + u32(512)) + full("ispe", 0, 0, u32(side) + u32(side)))
        let ipma = full("ipma", 0, 0, u32(tiles + 1) + u16(1) + [1, 0x03] + (0..<tiles).flatMap { u16(2 + $0) + [2, 0x81, 0x02] })
        let head = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8))
        func meta(_ base: Int) -> [UInt8] {
            let iloc = full(
                "iloc", 0, 0,
                [0x44, 0] + u16(tiles + 1) + u16(1) + u16(0) + u16(1) + u32(base) + u32(descriptor.count)
                    + (0..<tiles).flatMap { u16(2 + $0) + u16(0) + u16(1) + u32(base + descriptor.count) + u32(data.count) })
            let hdlr = full("hdlr", 0, 0, u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            return full("meta", 0, 0, hdlr + full("pitm", 0, 0, u16(1)) + iloc + iinf + iref + box("iprp", ipco + ipma))
        }
        let base = head.count + meta(0).count + 8
        return head + meta(base) + box("mdat", descriptor + data)
    }

    /// The grid that decoded for 20 s (22 × 22 tiles of 512 px): its header counts 484 coded
    /// images of 512 × 512, over 40 s at the HEVC rate, and it is refused at once with 30 s left
    /// (the service's default limit). A 2 × 2 grid of the same tile decodes.
    @Test func refusesTheTiledBombAtOnce() throws {
        let bomb = try HEIFLimitsTests.grid(22)
        let header = try HEIFCodec.header(bomb)
        #expect(header.width == 11_264 && header.height == 11_264)
        #expect(header.codedImages == 484 && header.codedPixels == 484 * 512 * 512)
        let error = #expect(throws: DecodingError.self) {
            try ImageFile.decode(bomb, keepingProfile: false, cancellation: Cancellation(deadline: Date().addingTimeInterval(30)))
        }
        let message = error?.description ?? ""
        // Refused from the header, before any tile is decoded (no clock: the estimate is the header's).
        #expect(message.hasPrefix("decoding the 11264×11264 HEIC image would take about 43 s, over the "), "\(message)")
        let small = try HEIFLimitsTests.grid(2)
        let image = try ImageFile.decode(small, keepingProfile: false, cancellation: Cancellation(deadline: Date().addingTimeInterval(600))).image
        #expect(image.width == 1024 && image.height == 1024)
    }

    /// A size over the pixel limit is `tooLarge` (413 from the service), read from `ispe` before
    /// libheif, whose own limit (a side of the pixel limit or more) would refuse it as corrupt.
    @Test func aSizeOverThePixelLimitIsTooLarge() throws {
        var file = try HEIFLimitsTests.file(width: 64, height: 64, hevc: true)
        var patched = 0
        for i in 4..<(file.count - 16) where file[i..<(i + 4)].elementsEqual("ispe".utf8) {
            file.replaceSubrange((i + 8)..<(i + 16), with: [0, 0, 0x9C, 0x40, 0, 0, 0, 16])  // 40000 × 16
            patched += 1
        }
        try #require(patched == 1)
        ImageLimits.withMaximumPixelCount(30_000) {
            for read in [{ _ = try HEIFCodec.header(file) }, { _ = try ImageFile.decode(file) }] {
                #expect(throws: DecodingError.tooLarge(format: .heic, width: 40_000, height: 16, limit: 30_000)) { try read() }
            }
        }
    }

    /// The encoder's setting follows the time left: libheif's default when there is time, a faster
    /// one when not, and a refusal naming the fastest's time when even that would not finish.
    @Test(arguments: [ImageFormat.avif, .heic])
    func picksTheEncoderSettingFromTheTimeLeft(_ format: ImageFormat) throws {
        let settings = HEIFCodec.encoderSettings(format)
        #expect(settings.map(\.value) == (format == .avif ? ["6", "8"] : ["slow", "medium", "ultrafast"]))
        #expect(zip(settings, settings.dropFirst()).allSatisfy { $0.rate < $1.rate })
        let (w, h) = (4000, 3000), pixels = Double(w * h)
        #expect(try HEIFCodec.encoderSetting(format, width: w, height: h, secondsLeft: .infinity) == settings[0])
        let fastest = try #require(settings.last)
        #expect(try HEIFCodec.encoderSetting(format, width: w, height: h, secondsLeft: pixels / fastest.rate) == fastest)
        #expect(throws: EncodingError.tooSlow(format: format, width: w, height: h, seconds: pixels / fastest.rate, secondsLeft: 1)) {
            try HEIFCodec.encoderSetting(format, width: w, height: h, secondsLeft: 1)
        }
        let image = try Bitmap(width: 64, height: 64)
        let passed = Cancellation(deadline: Date().addingTimeInterval(-1))
        #expect(throws: EncodingError.self) {
            try ImageFile.encode(image, as: format, quality: 80, compression: 1, profile: nil, cancellation: passed)
        }
        let later = Cancellation(deadline: Date().addingTimeInterval(600))
        let bytes = try ImageFile.encode(image, as: format, quality: 80, compression: 1, profile: nil, cancellation: later)
        #expect(try ImageFile.decode(bytes).width == 64)
    }
}
