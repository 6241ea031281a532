import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Testing

/// BlurKit's animated files read back by a decoder that is not ours, and files from an encoder that is
/// not ours read by BlurKit: Pillow, through `Tests/Scripts/pillow_check.py` (`make test` installs it).
@Suite struct IndependentDecoderTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/pillow_check.py").path

    /// Runs the script; its standard output. Fails the test, saying how to get Pillow, when it cannot run.
    static func pillow(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0,
            "pillow_check.py failed (make test installs Pillow: python3 -m pip install pillow): \(String(decoding: stderr, as: UTF8.self))")
        return String(decoding: stdout, as: UTF8.self)
    }

    struct Info: Decodable {
        let width: Int, height: Int, frames: Int, durations: [Double], loop: Int?
    }

    /// Every frame of `file` as Pillow composites it, straight RGBA, and what it says of the file.
    static func readWithPillow(_ file: String) throws -> (Info, [Bitmap]) {
        let folder = TestImages.temporaryFolder()
        _ = try pillow(["read", file, folder])
        let info = try JSONDecoder().decode(Info.self, from: Data(AtomicFile.read(folder + "/info.json")))
        let frames = try (0..<info.frames).map { i in
            try Bitmap(width: info.width, height: info.height, straightRGBA: AtomicFile.read(folder + "/frame-\(i).rgba"))
        }
        return (info, frames)
    }

    /// Frames that change: a translucent photo crop drifting, so APNG keeps alpha and no two are equal.
    static func frames(_ count: Int) throws -> [Bitmap] {
        try (0..<count).map { i in try TestImages.translucentPhoto.cropped(x: 260 + 3 * i, y: 120, width: 48, height: 32) }
    }

    // Frame times that are not whole milliseconds (30 fps: 33⅓ ms) and a loop count that is not 0.
    @Test func apngFramesTimesAndLoopsAsPillowReadsThem() throws {
        let frames = try Self.frames(5), path = TestImages.temporaryFolder() + "/a.apng"
        let writer = try AnimationWriter(path: path, format: .apng, width: 48, height: 32, frameRate: 30, loopCount: 2)
        for frame in frames { try writer.append(writer.prepare(frame)) }
        try writer.finish()
        let (info, decoded) = try Self.readWithPillow(path)
        #expect(info.frames == 5 && info.loop == 2)
        // APNG stores 1/30 s exactly; Pillow reports milliseconds.
        for duration in info.durations { #expect(abs(duration - 1000.0 / 30) < 0.01, "\(info.durations)") }
        for (ours, theirs) in zip(frames, decoded) { #expect(ours == theirs) }
    }

    @Test func webpFrameTimesAddUpAndLoopsAsPillowReadsThem() throws {
        let frames = try Self.frames(6), path = TestImages.temporaryFolder() + "/a.webp"
        let writer = try AnimationWriter(path: path, format: .webp, width: 48, height: 32, frameRate: 30, quality: 100, loopCount: 4)
        for frame in frames { try writer.append(writer.prepare(frame)) }
        try writer.finish()
        let (info, decoded) = try Self.readWithPillow(path)
        #expect(info.frames == 6 && info.loop == 4)
        // Whole milliseconds per frame, spread so that the total is exact: 33, 34, 33, … = 200 ms.
        #expect(info.durations.reduce(0, +) == 200 && info.durations.allSatisfy { $0 == 33 || $0 == 34 }, "\(info.durations)")
        // Lossless at quality 100.
        for (ours, theirs) in zip(frames, decoded) { #expect(ours == theirs) }
    }

    // GIF from Pillow's encoder: disposal none, to background and to previous, sub-rectangles, local
    // palettes and a loop count; every frame as BlurKit composites it equals Pillow's own reading.
    @Test func gifDisposalSubRectanglesAndLocalPalettes() throws {
        let path = TestImages.temporaryFolder() + "/p.gif"
        _ = try Self.pillow(["gif", path])
        let ours = try GIFCodec.decodeAnimation(AtomicFile.read(path))
        let (info, theirs) = try Self.readWithPillow(path)
        #expect(ours.frames.count == 4 && info.frames == 4 && ours.loopCount == info.loop)
        #expect(ours.frames.map { Int(($0.duration * 1000).rounded()) } == [100, 150, 70, 200])
        for (i, (a, b)) in zip(ours.frames.map(\.image), theirs).enumerated() {
            let d = ImageDifference(a, b)
            #expect(d.maximum == 0, "frame \(i): \(d)")
        }
    }

    // A CMYK JPEG that does not come from our encoder (Pillow writes CMYK inverted, with an Adobe
    // marker): each block of pure ink comes out as Pillow itself shows it.
    @Test func aCMYKJPEGFromAnotherEncoder() throws {
        let path = TestImages.temporaryFolder() + "/c.jpg"
        _ = try Self.pillow(["cmyk", path])
        let ours = try JPEGCodec.decode(AtomicFile.read(path))
        let (_, theirs) = try Self.readWithPillow(path)
        #expect(ours.width == 48 && ours.height == 32)
        for block in 0..<6 {
            let x = (block % 3) * 16 + 8, y = (block / 3) * 16 + 8
            let a = ours[x, y], b = theirs[0][x, y]
            for (p, q) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] { #expect(abs(Int(p) - Int(q)) <= 3, "block \(block): \(a) vs \(b)") }
        }
    }
}
