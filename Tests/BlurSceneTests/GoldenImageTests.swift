import BlurCore
import BlurIO
import BlurScene
import Foundation
import Testing

/// Seed 004's scenes and seed 000's picture, byte-exact against images recorded on purpose, kept
/// next to this file in `Golden/`.
///
/// Recording is a separate act that never passes: `BLURKIT_RECORD_GOLDEN=1 make test` writes every
/// image and fails each test with "recorded <file>". Look at the images, commit them, and run again
/// without the variable.
@Suite struct GoldenImageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let recording = ProcessInfo.processInfo.environment["BLURKIT_RECORD_GOLDEN"] == "1"

    @Test(arguments: [
        ("dialog-dismissal", 0.0), ("dialog-dismissal", 0.75), ("view-blur", 0.5), ("progressive-header", 0.0),
        ("reflection", 0.0), ("mountains-at-dusk", 0.0),
    ])
    func sceneMatchesItsGoldenImage(_ name: String, _ time: Double) throws {
        let file = try SceneFile.read(Self.root.appendingPathComponent("Examples/scenes/\(name).json").path)
        let image = try file.scene.render(at: time, scale: 0.5)
        let golden = Self.folder.appendingPathComponent("\(name)@\(time).png").path
        if Self.recording {
            try FileManager.default.createDirectory(atPath: Self.folder.path, withIntermediateDirectories: true)
            try ImageFile.write(image, to: golden)
            Issue.record("recorded \(golden); unset BLURKIT_RECORD_GOLDEN and run again")
            return
        }
        let expected = try ImageFile.read(golden)
        // ImageDifference requires equal sizes: a size change fails this test, not the whole run.
        guard image.width == expected.width, image.height == expected.height else {
            Issue.record("\(name) at \(time) s is \(image.width)×\(image.height); \(golden) is \(expected.width)×\(expected.height)")
            return
        }
        #expect(
            image.premultipliedRGBA == expected.premultipliedRGBA, "\(name) at \(time) s differs from \(golden): \(ImageDifference(image, expected))")
    }
}
