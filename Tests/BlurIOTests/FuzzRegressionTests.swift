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

    // Every kept input decodes or is refused with the documented error — not merely "no trap"
    // (before, `try?` let anything pass). The decoders throw `DecodingError` by type, so binding the
    // error to it is checked by the compiler; the test adds that the refusal says why.
    @Test func everyKeptInputDecodesOrThrows() throws {
        let files = Self.files()
        #expect(files.count >= 10)
        for file in files {
            let bytes = try AtomicFile.read(file.path)
            do {
                let image = try ImageFile.decode(bytes)
                #expect(image.width > 0 && image.height > 0)
            } catch {
                let refusal: DecodingError = error
                #expect(!refusal.description.isEmpty, "\(file.lastPathComponent)")
            }
            let decoders: [(String, ([UInt8]) throws(DecodingError) -> Bitmap)] = [
                ("png", { (b: [UInt8]) throws(DecodingError) in try PNGCodec.decode(b) }),
                ("jpeg", { (b: [UInt8]) throws(DecodingError) in try JPEGCodec.decode(b) }),
                ("netpbm", { (b: [UInt8]) throws(DecodingError) in try NetpbmCodec.decode(b) }),
                ("animation", { (b: [UInt8]) throws(DecodingError) in try AnimatedImage.decode(b).frames[0].image }),
            ]
            for (name, decode) in decoders {
                do { _ = try decode(bytes) } catch {
                    let refusal: DecodingError = error
                    #expect(!refusal.description.isEmpty, "\(file.lastPathComponent) as \(name)")
                }
            }
            do { _ = try Bitmap(thumbHash: bytes) } catch {
                let refusal: ThumbHashError = error
                #expect(!"\(refusal)".isEmpty, "\(file.lastPathComponent) as a ThumbHash")
            }
        }
    }

    /// Decodes `bytes` both ways; any error must be a `DecodingError`.
    static func expectDecodesOrRefuses(_ bytes: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do { _ = try ImageFile.decode(bytes) } catch {
            let refusal: DecodingError = error
            #expect(!refusal.description.isEmpty, "\(what)", sourceLocation: sourceLocation)
        }
        do { _ = try AnimatedImage.decode(bytes) } catch {
            let refusal: DecodingError = error
            #expect(!refusal.description.isEmpty, "\(what) as an animation", sourceLocation: sourceLocation)
        }
    }

    @Test func truncationsAndBitFlipsOfEverySeedAreHandled() throws {
        for file in Self.files() {
            let bytes = try AtomicFile.read(file.path)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 23)) {
                Self.expectDecodesOrRefuses(Array(bytes.prefix(cut)), "\(file.lastPathComponent) cut at \(cut)")
            }
            var state: UInt64 = 0x5EED
            for _ in 0..<40 where !bytes.isEmpty {
                var flipped = bytes
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                flipped[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
                Self.expectDecodesOrRefuses(flipped, "\(file.lastPathComponent) with a flipped byte")
            }
        }
    }
}
