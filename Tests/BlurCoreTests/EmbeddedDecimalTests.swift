import BlurCore
import Testing

/// The WebAssembly module's decimal parser (it has no `strtod`) against the native one: the nearest
/// double, ties to even, for every text — the module and the command line read the same number.
@Suite struct EmbeddedDecimalTests {
    /// The parse of `text` by both.
    private func agree(_ text: String) -> Bool {
        let mine = EmbeddedDecimal.parse(Array(text.utf8))
        let theirs = Double(text)
        return mine?.bitPattern == theirs?.bitPattern || (mine?.isInfinite == true && theirs?.isInfinite == true)
    }

    @Test func longMantissasRoundToTheNearestDouble() {
        // Seventeen to forty significant digits, where the old estimate could be an ulp off.
        var generator = SplitMix(seed: 7)
        var disagreements: [String] = []
        for _ in 0..<4000 {
            let count = 17 + Int(generator.next() % 24)
            var digits = String(1 + generator.next() % 9)
            for _ in 1..<count { digits += String(generator.next() % 10) }
            let point = Int(generator.next() % UInt64(count))
            let text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point)) + "e" + String(Int(generator.next() % 80) - 40)
            if !agree(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func halfwayCasesGoToEven() {
        // The exact midpoints between neighbouring doubles, written out in full, and a hair either side.
        var generator = SplitMix(seed: 11)
        var disagreements: [String] = []
        for _ in 0..<300 {
            let x = Double(bitPattern: 0x3FF0_0000_0000_0000 &+ generator.next() % (1 << 52)) * 1024
            // x + ulp/2 = (2M + 1) × 2^(E − 1): exactly representable in decimal.
            let midpoint = Self.decimal(significand: (x.significandBitPattern | 1 << 52) * 2 + 1, twoPower: Int(x.exponent) - 53)
            for text in [midpoint, midpoint + "1", String(midpoint.dropLast()) + String(Int(String(midpoint.last!))! - 1)] where !agree(text) {
                disagreements.append(text)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
    }

    @Test func extremesAndShortForms() {
        let texts = [
            "0", "0.0", "-0", "1", "0.1", "0.30000000000000004", "1e-320", "4.9406564584124654e-324", "2.4703282292062328e-324",
            "2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.797693134862315807e308",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "9007199254740993", "9007199254740992.5000000000000000001",
            "123456789012345678901234567890", "1e23", "8.98846567431158e307",
        ]
        for text in texts { #expect(agree(text), "\(text)") }
        var generator = SplitMix(seed: 3)
        for _ in 0..<2000 {
            // The shortest form of a random double (what JavaScript writes) reads back as that double.
            let x = Double(bitPattern: generator.next() >> 2)
            #expect(agree(String(x)), "\(x)")
        }
    }

    /// significand × 2^twoPower (twoPower < 0) written in full in decimal.
    private static func decimal(significand: UInt64, twoPower: Int) -> String {
        precondition(twoPower < 0)
        // significand × 5^−twoPower, then the point −twoPower places from the right.
        var digits: [UInt8] = Array(String(significand).utf8).map { $0 - 48 }
        for _ in 0..<(-twoPower) {
            var carry = 0
            for i in digits.indices.reversed() {
                let v = Int(digits[i]) * 5 + carry
                digits[i] = UInt8(v % 10)
                carry = v / 10
            }
            while carry > 0 {
                digits.insert(UInt8(carry % 10), at: 0)
                carry /= 10
            }
        }
        let text = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        let places = -twoPower
        let padded = String(repeating: "0", count: max(0, places + 1 - text.count)) + text
        return String(padded.dropLast(places)) + "." + String(padded.suffix(places))
    }
}

/// A small deterministic generator for the test's inputs.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
