/// A decimal number held exactly, compared with the midpoint between a double and the next one up:
/// the comparison ``EmbeddedDecimal`` rounds by. Integers of 32-bit limbs, least significant first;
/// the only operations are multiplying by a small number, shifting left and comparing.
struct ExactCompare {
    /// The significant digits as an integer.
    private let digits: [UInt32]
    /// The power of ten they are scaled by.
    private let exponent: Int

    /// digits × 10^exponent. Digits 0–9, the first not 0.
    init(digits: [UInt8], exponent: Int) {
        var value: [UInt32] = [0]
        var chunk: UInt32 = 0, scale: UInt32 = 1
        for d in digits {
            chunk = chunk &* 10 &+ UInt32(d)
            scale = scale &* 10
            if scale == 1_000_000_000 {
                ExactCompare.multiply(&value, by: scale, adding: chunk)
                chunk = 0
                scale = 1
            }
        }
        if scale > 1 { ExactCompare.multiply(&value, by: scale, adding: chunk) }
        self.digits = value
        self.exponent = exponent
    }

    /// The sign of this number less the midpoint between `x` (finite, not negative) and the
    /// double next up from it (2¹⁰²⁴ above the largest): −1, 0 or 1.
    func order(against x: Double) -> Int {
        let (low, lowPower) = ExactCompare.parts(x)
        let (high, highPower) = x == .greatestFiniteMagnitude ? (UInt64(1) << 52, 972) : ExactCompare.parts(x.nextUp)
        let power = min(lowPower, highPower)
        // The two neighbours' exponents differ by at most one, so the sum stays under 2⁵⁵.
        let sum = (low << UInt64(lowPower - power)) + (high << UInt64(highPower - power))
        var left = digits
        var right: [UInt32] = [UInt32(truncatingIfNeeded: sum), UInt32(truncatingIfNeeded: sum >> 32)]
        // left = digits × 10^exponent, right = sum × 2^(power − 1), each side's negative powers moved across.
        if exponent >= 0 { ExactCompare.multiply(&left, byPowerOfTen: exponent) } else { ExactCompare.multiply(&right, byPowerOfTen: -exponent) }
        let twos = power - 1
        if twos >= 0 { ExactCompare.shift(&right, left: twos) } else { ExactCompare.shift(&left, left: -twos) }
        return ExactCompare.compare(left, right)
    }

    /// `x` (finite, not negative) as significand × 2^power, the significand an integer.
    private static func parts(_ x: Double) -> (UInt64, Int) {
        x.exponentBitPattern == 0
            ? (x.significandBitPattern, -1074) : (x.significandBitPattern | (UInt64(1) << 52), Int(x.exponentBitPattern) - 1075)
    }

    /// value = value × factor + addend.
    private static func multiply(_ value: inout [UInt32], by factor: UInt32, adding addend: UInt32 = 0) {
        var carry = UInt64(addend)
        for i in value.indices {
            let product = UInt64(value[i]) &* UInt64(factor) &+ carry
            value[i] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry > 0 { value.append(UInt32(truncatingIfNeeded: carry)) }
    }

    /// value = value × 10^power, nine digits at a time.
    private static func multiply(_ value: inout [UInt32], byPowerOfTen power: Int) {
        var left = power
        while left >= 9 {
            multiply(&value, by: 1_000_000_000)
            left -= 9
        }
        var rest: UInt32 = 1
        for _ in 0..<left { rest &*= 10 }
        if rest > 1 { multiply(&value, by: rest) }
    }

    /// value = value × 2^bits.
    private static func shift(_ value: inout [UInt32], left bits: Int) {
        let words = bits / 32, rest = UInt32(bits % 32)
        if rest > 0 {
            var carry: UInt32 = 0
            for i in value.indices {
                let word = value[i]
                value[i] = (word << rest) | carry
                carry = word >> (32 - rest)
            }
            if carry > 0 { value.append(carry) }
        }
        if words > 0 { value.insert(contentsOf: [UInt32](repeating: 0, count: words), at: 0) }
    }

    /// The sign of a − b.
    private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var top = max(a.count, b.count) - 1
        while top >= 0 {
            let x = top < a.count ? a[top] : 0, y = top < b.count ? b[top] : 0
            if x != y { return x < y ? -1 : 1 }
            top -= 1
        }
        return 0
    }
}
