// BlurTestSupport: what the test targets share, so that each piece exists once — the one
// deterministic noise generator, the fixtures (the photo and what is made from it), and
// `withEveryTinyImage`, the ring-1 driver that runs a check over every tiny size, σ, edge mode and
// row padding. Only test targets depend on it.
import BlurCore
import BlurIO
import Foundation

/// Test content: fixtures from `Tests/Fixtures` and deterministic synthetic images.
public enum TestImages {
    /// `Tests/Fixtures`.
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A real photo (`Tests/Fixtures/chelsea.png`): 451 × 300, opaque.
    public static let photo: Bitmap = try! ImageFile.read(fixtures.appendingPathComponent("chelsea.png").path)

    /// The photo with an alpha ramp and a transparent hole, premultiplied.
    public static let translucentPhoto: Bitmap = {
        let p = photo
        var straight = p.straightRGBA
        for y in 0..<p.height {
            for x in 0..<p.width {
                let dx = Double(x - 300), dy = Double(y - 150)
                let hole = (dx * dx + dy * dy).squareRoot() < 40
                straight[(y * p.width + x) * 4 + 3] = hole ? 0 : UInt8(55 + 200 * x / p.width)
            }
        }
        return try! Bitmap(width: p.width, height: p.height, straightRGBA: straight)
    }()

    /// Random premultiplied pixels (valid: colour ≤ alpha). Per pixel one byte picks the alpha — a
    /// quarter opaque, an eighth transparent, the rest a second random byte (always opaque when
    /// `opaque`) — then each colour is a byte modulo alpha + 1. The byte sequence is fixed: tests
    /// compare against values computed from it.
    public static func noise(width: Int, height: Int, seed: UInt64, opaque: Bool = false) -> Bitmap {
        var random = TestRandom(seed: seed)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for p in 0..<(width * height) {
            let pick = random.byte()
            let a: UInt8 = opaque || pick < 64 ? 255 : (pick < 96 ? 0 : random.byte())
            for c in 0..<3 { bytes[p * 4 + c] = UInt8(Int(random.byte()) % (Int(a) + 1)) }
            bytes[p * 4 + 3] = a
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// Smooth opaque content (gradients, a disc): what JPEG is made for.
    public static func smooth(width: Int, height: Int) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - Double(width) / 2, dy = Double(y) - Double(height) / 2
                let disc = (dx * dx + dy * dy).squareRoot() < Double(min(width, height)) / 3
                bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), disc ? 200 : 60, 255]
            }
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// A new empty folder under the temporary directory.
    public static func temporaryFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
