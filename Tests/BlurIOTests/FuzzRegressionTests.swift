import BlurCore
import BlurIO
import Foundation
import Testing

/// Every file in the fuzz corpora and in the kept findings (`Tests/Fuzz/regressions`) must decode
/// or throw a `DecodingError`: never crash. A crash found by `make fuzz` is fixed and its input
/// kept there, so this test replays it forever.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }
    }

    @Test func everyKeptInputDecodesOrThrows() throws {
        let files = Self.files()
        #expect(files.count >= 10)
        for file in files {
            let bytes = try AtomicFile.read(file.path)
            do {
                let image = try ImageFile.decode(bytes)
                #expect(image.width > 0 && image.height > 0)
            } catch is DecodingError {
                // A clear refusal is a pass.
            }
            for decode in [
                PNGCodec.decode, { try JPEGCodec.decode($0) }, NetpbmCodec.decode,
                { try AnimatedImage.decode($0).frames[0].image }, { try Bitmap(thumbHash: $0) },
            ] as [([UInt8]) throws -> Bitmap] {
                _ = try? decode(bytes)
            }
        }
    }

    @Test func truncationsAndBitFlipsOfEverySeedAreHandled() throws {
        for file in Self.files() {
            let bytes = try AtomicFile.read(file.path)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 23)) {
                _ = try? ImageFile.decode(Array(bytes.prefix(cut)))
                _ = try? AnimatedImage.decode(Array(bytes.prefix(cut)))
            }
            var state: UInt64 = 0x5EED
            for _ in 0..<40 where !bytes.isEmpty {
                var flipped = bytes
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                flipped[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
                _ = try? ImageFile.decode(flipped)
                _ = try? AnimatedImage.decode(flipped)
            }
        }
    }
}
