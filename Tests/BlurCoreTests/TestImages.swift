import BlurCore
import BlurIO
import Foundation

/// Deterministic test content: a small xorshift generator, so failures reproduce.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }
}

enum TestImages {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A real photo: 451 × 300, opaque.
    static let photo: Bitmap = try! ImageFile.read(fixtures.appendingPathComponent("chelsea.png").path)

    /// The photo with an alpha ramp and a transparent hole, premultiplied.
    static let translucentPhoto: Bitmap = {
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

    /// Random premultiplied pixels (valid: colour ≤ alpha), some fully transparent or opaque.
    static func noise(width: Int, height: Int, seed: UInt64, opaque: Bool = false) -> Bitmap {
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
}
