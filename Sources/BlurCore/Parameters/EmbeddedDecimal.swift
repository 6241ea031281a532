/// Decimal text to the nearest double, ties to even — what the C library's `strtod` gives — for the
/// builds that have no `strtod` (the WebAssembly module): an estimate within a few ulps, exact for
/// up to 15 significant digits and powers of ten up to 10²² (Clinger's fast path), then moved to
/// the neighbour the text is nearest to by comparing it with the midpoints between doubles in
/// exact integer arithmetic (``ExactCompare``). Compiled natively too, where the tests hold it to
/// `Double(_:)`. Text already checked by ``parseDecimal(_:)``.
package enum EmbeddedDecimal {
    /// The nearest double, nil for text that is not a decimal.
    package static func parse(_ bytes: [UInt8]) -> Double? {
        guard let (negative, digits, exponent) = split(bytes) else { return nil }
        let magnitude = nearest(digits, exponent)
        return negative ? -magnitude : magnitude
    }

    /// The double nearest digits × 10^exponent (ties to even); infinity above the largest.
    static func nearest(_ digits: [UInt8], _ exponent: Int) -> Double {
        if digits.isEmpty { return 0 }
        // The value lies in [10^(lead − 1), 10^lead): far outside the doubles, no arithmetic.
        let lead = exponent + digits.count
        if lead > 310 { return .infinity }
        if lead < -324 { return 0 }
        var c = estimate(digits, exponent)
        if digits.count <= 15 && abs(exponent) <= 22 { return c }
        if !c.isFinite { c = .greatestFiniteMagnitude }
        let exact = ExactCompare(digits: digits, exponent: exponent)
        while true {
            let above = exact.order(against: c)
            if above > 0 || (above == 0 && !isEven(c)) {
                if c == .greatestFiniteMagnitude { return .infinity }
                c = c.nextUp
                continue
            }
            if c == 0 { return 0 }
            let below = exact.order(against: c.nextDown)
            if below < 0 || (below == 0 && !isEven(c)) {
                c = c.nextDown
                continue
            }
            return c
        }
    }

    /// Whether the last bit of `x`'s significand is 0 (0 is even).
    static func isEven(_ x: Double) -> Bool { x.significandBitPattern & 1 == 0 }

    /// The sign, the significant digits (no leading or trailing zeros) and the power of ten
    /// that makes them the number: `-12.50e1` → (true, [1, 2, 5], 0).
    static func split(_ bytes: [UInt8]) -> (Bool, [UInt8], Int)? {
        var negative = false, digits: [UInt8] = [], pointShift = 0, seenPoint = false, exponent = 0, at = 0
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") {
            negative = bytes[at] == UInt8(ascii: "-")
            at += 1
        }
        while at < bytes.count {
            let c = bytes[at]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                if !(digits.isEmpty && c == UInt8(ascii: "0")) { digits.append(c - UInt8(ascii: "0")) }
                if seenPoint { pointShift -= 1 }
            } else if c == UInt8(ascii: ".") {
                seenPoint = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                var sign = 1, value = 0
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") {
                    sign = bytes[at] == UInt8(ascii: "-") ? -1 : 1
                    at += 1
                }
                while at < bytes.count {
                    value = min(100_000, value * 10 + Int(bytes[at] - UInt8(ascii: "0")))
                    at += 1
                }
                exponent = sign * value
                break
            } else {
                return nil
            }
            at += 1
        }
        var power = exponent + pointShift
        while let last = digits.last, last == 0 {
            digits.removeLast()
            power += 1
        }
        return (negative, digits, digits.isEmpty ? 0 : power)
    }

    /// digits × 10^exponent, rounded once when exact (Clinger's fast path), else within a few ulps.
    static func estimate(_ digits: [UInt8], _ exponent: Int) -> Double {
        if digits.isEmpty { return 0 }
        var mantissa: UInt64 = 0, dropped = 0
        for d in digits {
            if mantissa < 100_000_000_000_000_000 {
                mantissa = mantissa * 10 + UInt64(d)
            } else {
                dropped += 1
            }
        }
        var power = exponent + dropped, value = Double(mantissa)
        let exact: [Double] = [
            1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]
        while power > 22 {
            value *= 1e22
            power -= 22
        }
        while power < -22 {
            value /= 1e22
            power += 22
        }
        return power >= 0 ? value * exact[power] : value / exact[-power]
    }
}
