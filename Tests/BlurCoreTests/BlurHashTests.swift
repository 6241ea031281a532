import BlurCore
import Testing

/// BlurHash (issue 53): the encoder's strings against Wolt's on a varied corpus are checked by
/// Tests/Service/test_blurhash.py; here the format's rules, the decoder and the errors.
@Suite struct BlurHashTests {
    /// An 8×6 gradient: R = 30x, G = 40y, B = 255 − 20x.
    static let gradient: [UInt8] = {
        var bytes: [UInt8] = []
        for y in 0..<6 {
            for x in 0..<8 { bytes += [UInt8(x * 30), UInt8(y * 40), UInt8(255 - x * 20), 255] }
        }
        return bytes
    }()

    @Test func theGradientGivesWoltsString() throws {
        // blurhash-python 1.2.2 (Wolt's C encoder): blurhash.encode(image, 4, 3) of this image.
        #expect(try BlurHash.encode(width: 8, height: 6, rgba: Self.gradient) == "L~E.-^G1b2t9r4R;fSjJe;f7fQf7")
    }

    @Test func lengthAndComponentsFollowTheFormat() throws {
        for x in 1...9 {
            for y in [1, 3, 9] {
                let hash = try BlurHash.encode(width: 8, height: 6, rgba: Self.gradient, x: x, y: y)
                #expect(hash.utf8.count == 4 + 2 * x * y)
                let components = try BlurHash.components(of: hash)
                #expect(components.x == x && components.y == y)
            }
        }
    }

    @Test func oneComponentDecodesToTheMeanColour() throws {
        // A flat colour: its DC is the colour, and a 1×1 hash has no AC term.
        var flat: [UInt8] = []
        for _ in 0..<20 { flat += [200, 90, 30, 255] }
        let hash = try BlurHash.encode(width: 5, height: 4, rgba: flat, x: 1, y: 1)
        let pixels = try BlurHash.decode(hash, width: 3, height: 2)
        for p in stride(from: 0, to: pixels.count, by: 4) {
            #expect(abs(Int(pixels[p]) - 200) <= 1 && abs(Int(pixels[p + 1]) - 90) <= 1 && abs(Int(pixels[p + 2]) - 30) <= 1)
            #expect(pixels[p + 3] == 255)
        }
    }

    @Test func theDecodedGradientRunsTheWayTheImageDoes() throws {
        let pixels = try BlurHash.decode(try BlurHash.encode(width: 8, height: 6, rgba: Self.gradient), width: 8, height: 6)
        // Red grows to the right, green downwards, blue falls to the right.
        let left = 2 * 4 + 0, right = 2 * 32 + 7 * 4, top = 3 * 4, bottom = 5 * 32 + 3 * 4
        #expect(pixels[right] > pixels[left] + 60)
        #expect(pixels[bottom + 1] > pixels[top + 1] + 60)
        #expect(pixels[left + 2] > pixels[right + 2] + 40)
    }

    @Test func badInputIsRefusedWithItsReason() {
        #expect(throws: BlurHashError.invalidComponents(x: 0, y: 3)) { try BlurHash.encode(width: 8, height: 6, rgba: Self.gradient, x: 0) }
        #expect(throws: BlurHashError.invalidComponents(x: 4, y: 10)) { try BlurHash.encode(width: 8, height: 6, rgba: Self.gradient, y: 10) }
        #expect(throws: BlurHashError.invalidImage(width: 8, height: 5, bytes: 192)) { try BlurHash.encode(width: 8, height: 5, rgba: Self.gradient) }
        #expect(throws: BlurHashError.invalidImage(width: 0, height: 0, bytes: 0)) { try BlurHash.encode(width: 0, height: 0, rgba: []) }
        #expect(throws: BlurHashError.invalidLength(expected: 28, got: 27)) { try BlurHash.components(of: "L~E.-^G1b2t9r4R;fSjJe;f7fQf") }
        #expect(throws: BlurHashError.invalidCharacter("\"")) { try BlurHash.components(of: "L~E.-^G1b2t9r4R;fSjJe;f7fQ\"7") }
        #expect(throws: BlurHashError.invalidLength(expected: 6, got: 0)) { try BlurHash.decode("", width: 4, height: 4) }
        #expect(throws: BlurHashError.self) { try BlurHash.decode("L~E.-^G1b2t9r4R;fSjJe;f7fQf7", width: 0, height: 4) }
    }
}
