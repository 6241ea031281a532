import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Testing

/// Every animated output written and read back with a real decoder: libwebp's animation decoder,
/// giflib's reader, libpng under the APNG chunks, libpng for a PNG sequence.
@Suite struct AnimationCodecTests {
    /// Four distinct frames: smooth content shifted, so each differs from the last.
    static func frames(width: Int = 40, height: Int = 24, alpha: Bool = false) -> [Bitmap] {
        (0..<4).map { n in
            var bytes = [UInt8]()
            for y in 0..<height {
                for x in 0..<width {
                    let a: Int = alpha && (x + n) % 10 < 3 ? 0 : 255
                    let r = (x * 6 + n * 40) % 256, g = (y * 10 + n * 25) % 256, b = ((x + y) * 4 + n * 60) % 256
                    bytes += [UInt8(r * a / 255), UInt8(g * a / 255), UInt8(b * a / 255), UInt8(a)]
                }
            }
            return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
        }
    }

    static func write(_ frames: [Bitmap], to path: String, fps: Double = 10, quality: Int = 100, opaque: Bool = true) throws {
        let writer = try AnimationWriter(
            path: path, width: frames[0].width, height: frames[0].height, frameRate: fps, quality: quality, opaque: opaque)
        for frame in frames { try writer.append(try writer.prepare(frame)) }
        try writer.finish()
    }

    @Test(arguments: ["webp", "apng", "png"])
    func losslessFormatsRoundTripExactly(_ suffix: String) throws {
        let folder = TestImages.temporaryFolder()
        for alpha in [false, true] {
            let source = Self.frames(alpha: alpha)
            let path = folder + "/anim-\(alpha).\(suffix)"
            try Self.write(source, to: path, opaque: !alpha)
            let decoded = try AnimatedImage.decode(try AtomicFile.read(path))
            #expect(decoded.frames.count == 4)
            #expect(decoded.loopCount == 0)
            for (frame, expected) in zip(decoded.frames, source) {
                #expect(frame.image == expected)
                #expect(abs(frame.duration - 0.1) < 1e-9)
            }
        }
    }

    @Test func aGIFKeepsFramesTimingAndColoursWithinDithering() throws {
        let folder = TestImages.temporaryFolder()
        let source = Self.frames(alpha: true)
        try Self.write(source, to: folder + "/anim.gif", fps: 30, opaque: false)
        let decoded = try AnimatedImage.decode(try AtomicFile.read(folder + "/anim.gif"))
        #expect(decoded.frames.count == 4)
        // 1/30 s in centiseconds: 3, 4, 3, 3 — the total stays exact (13 cs for 0.1333 s).
        #expect(decoded.frames.map { Int(($0.duration * 100).rounded()) } == [3, 4, 3, 3])
        for (frame, expected) in zip(decoded.frames, source) {
            let difference = ImageDifference(frame.image, expected)
            #expect(difference.psnr > 30, "\(difference)")
            // Transparency survives exactly (binary alpha in the source).
            for y in 0..<expected.height { for x in 0..<expected.width { #expect(frame.image[x, y].a == expected[x, y].a) } }
        }
    }

    @Test func aLossyWebPIsClose() throws {
        let folder = TestImages.temporaryFolder()
        // Smooth content (the frames above wrap around, which lossy coding smears).
        let source = [TestImages.smooth(width: 64, height: 48), TestImages.smooth(width: 64, height: 48).oriented(.upMirrored)]
        try Self.write(source, to: folder + "/lossy.webp", quality: 80)
        let decoded = try AnimatedImage.decode(try AtomicFile.read(folder + "/lossy.webp"))
        #expect(decoded.frames.count == 2)
        for (frame, expected) in zip(decoded.frames, source) {
            let difference = ImageDifference(frame.image, expected)
            #expect(difference.psnr > 30 && difference.psnr < 80, "\(difference)")
        }
    }

    @Test func aPNGSequenceIsNumberedFiles() throws {
        let folder = TestImages.temporaryFolder() + "/frames"
        let source = Self.frames()
        try Self.write(source, to: folder + "/")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == (0..<4).map(AnimationWriter.sequenceFileName))
        for (name, expected) in zip(names, source) { #expect(try ImageFile.read(folder + "/" + name) == expected) }
    }

    @Test func anAPNGShowsItsFirstFrameToPlainLibpng() throws {
        let folder = TestImages.temporaryFolder()
        let source = Self.frames()
        try Self.write(source, to: folder + "/a.png")
        #expect(try PNGCodec.decode(try AtomicFile.read(folder + "/a.png")) == source[0])
    }

    @Test(arguments: ["webp", "gif", "png"])
    func damagedAnimationsAreErrorsNotCrashes(_ suffix: String) throws {
        let folder = TestImages.temporaryFolder()
        let path = folder + "/a." + suffix
        try Self.write(Self.frames(), to: path, opaque: true)
        let bytes = try AtomicFile.read(path)
        for cut in [bytes.count / 3, bytes.count / 2, bytes.count - 5] {
            _ = try? AnimatedImage.decode(Array(bytes.prefix(cut)))
        }
        var flipped = bytes
        for i in stride(from: 40, to: flipped.count, by: 97) { flipped[i] ^= 0x5A }
        _ = try? AnimatedImage.decode(flipped)
        #expect(throws: DecodingError.self) { try AnimatedImage.decode(Array(bytes.prefix(20))) }
    }

    @Test func aHugeGIFScreenIsRefusedBeforeDecoding() throws {
        // GIF89a, screen 65535 × 65535, no colour table, then the trailer.
        let bytes: [UInt8] = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x3B]
        #expect(throws: DecodingError.tooLarge(format: .gif, width: 65535, height: 65535, limit: ImageLimits.maximumPixelCount)) {
            try AnimatedImage.decode(bytes)
        }
    }

    @Test func tooManyFramesForThePixelLimitAreRefused() throws {
        let folder = TestImages.temporaryFolder()
        // 4 frames of 40×24 = 960 pixels each: a limit of 3000 lets 3 through, 4000 all four.
        for format in ["webp", "gif", "png"] {
            try Self.write(Self.frames(), to: folder + "/b." + format)
            let bytes = try AtomicFile.read(folder + "/b." + format)
            let expected = ImageFormat(sniffing: bytes)!
            ImageLimits.withMaximumPixelCount(3000) {
                #expect(throws: DecodingError.animationTooLarge(format: expected, frames: 4, width: 40, height: 24, limit: 3000)) {
                    try AnimatedImage.decode(bytes)
                }
            }
            ImageLimits.withMaximumPixelCount(4000) { #expect((try? AnimatedImage.decode(bytes))?.frames.count == 4) }
        }
    }

    @Test func stillWebPAndGIFWork() throws {
        let image = Self.frames(alpha: true)[1]
        let webp = try ImageFile.encode(image, as: .webp, quality: 100)
        #expect(ImageFormat(sniffing: webp) == .webp)
        #expect(try ImageFile.decode(webp) == image)
        let gif = try ImageFile.encode(image, as: .gif)
        #expect(ImageFormat(sniffing: gif) == .gif)
        #expect(ImageDifference(try ImageFile.decode(gif), image).psnr > 30)
    }
}
