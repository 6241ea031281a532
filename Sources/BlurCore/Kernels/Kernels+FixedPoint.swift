// The inner loops of ``FixedPointRows``: sixteen 16-bit lanes a vector (one AVX2 register under
// `-mavx2`, two i16x8 under SIMD128), two vectors a block so the sums overlap. A product is the
// high half of `u16 × u16` (`vpmulhuw`), so it is truncated: each pass adds back half a unit per
// product it sums (``FixedPointRows/bias(radius:)``). The tails run the same integer operations one
// lane at a time, so they give the same values.
extension Kernels {
    /// `line[i] = Σ_t ⌊(x₋ₜ[i] + xₜ[i]) · 2⁷ · w[t] / 2¹⁶⌋ + bias` (the centre once) for `i < count`:
    /// the vertical pass from the `2r + 1` rows around the output row (`rows[r + t]` is xₜ) to 7
    /// fractional bits.
    static func fixedVertical(
        rows: UnsafeBufferPointer<UnsafePointer<UInt8>?>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int,
        into line: UnsafeMutablePointer<UInt16>
    ) {
        let r = w.count - 1, bits = UInt16(FixedPointRows.lineBits), bias = FixedPointRows.bias(radius: r)
        let centre = rows[r]!, out = UnsafeMutableRawPointer(line)
        var i = 0
        while i + 32 <= count {
            let w0 = w[0]
            var a0 = mulhi(widen(centre, i) &<< bits, w0) &+ bias
            var a1 = mulhi(widen(centre, i + 16) &<< bits, w0) &+ bias
            for t in 1..<(r + 1) {
                let wt = w[t], above = rows[r &- t].unsafelyUnwrapped, below = rows[r &+ t].unsafelyUnwrapped
                a0 &+= mulhi((widen(above, i) &+ widen(below, i)) &<< bits, wt)
                a1 &+= mulhi((widen(above, i &+ 16) &+ widen(below, i &+ 16)) &<< bits, wt)
            }
            out.storeBytes(of: a0, toByteOffset: i * 2, as: SIMD16<UInt16>.self)
            out.storeBytes(of: a1, toByteOffset: i * 2 + 32, as: SIMD16<UInt16>.self)
            i += 32
        }
        while i < count {
            var acc = (UInt16(rows[r]![i]) &<< bits).multipliedFullWidth(by: w[0][0]).high &+ bias
            for t in 1..<(r + 1) {
                let pair = (UInt16(rows[r - t]![i]) &+ UInt16(rows[r + t]![i])) &<< bits
                acc &+= pair.multipliedFullWidth(by: w[t][0]).high
            }
            line[i] = acc
            i += 1
        }
    }

    /// `Σ_t ⌊(v[i − 4t] + v[i + 4t]) · w[t] / 2¹⁶⌋ + bias` (the centre once) for `i < count`: the
    /// horizontal pass over interleaved RGBA with 7 fractional bits, into `target` (to bytes: plus
    /// 2⁶, shifted right by 7 and clamped to 255). `centre` must have `4r` readable values before it
    /// and after `count`.
    static func fixedHorizontal(
        _ centre: UnsafePointer<UInt16>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int, into target: FixedTarget
    ) {
        let r = w.count - 1
        let offset = FixedPointRows.bias(radius: r) &+ target.rounding
        var i = 0
        while i + 32 <= count {
            let w0 = w[0]
            var a0 = mulhi(load16(centre + i), w0) &+ offset, a1 = mulhi(load16(centre + i + 16), w0) &+ offset
            var left = centre + i, right = centre + i, weight = w.baseAddress!
            for _ in 0..<r {
                left -= 4
                right += 4
                weight += 1
                let wt = weight.pointee
                a0 &+= mulhi(load16(left) &+ load16(right), wt)
                a1 &+= mulhi(load16(left + 16) &+ load16(right + 16), wt)
            }
            target.store(a0, a1, at: i)
            i += 32
        }
        while i < count {
            var acc = centre[i].multipliedFullWidth(by: w[0][0]).high &+ offset
            for t in 1..<(r + 1) { acc &+= (centre[i - 4 * t] &+ centre[i + 4 * t]).multipliedFullWidth(by: w[t][0]).high }
            target.store(acc, at: i)
            i += 1
        }
    }

    /// `Σ_t ⌊lines[t][i] · w[t] / 2¹⁶⌋ + ⌊n / 2⌋` for `i < count`: a short weighted sum down of
    /// `n` lines with 7 fractional bits (the pyramid's B-spline, four lines; the progressive blur's
    /// composite of B-spline and residual), into `target`. The taps must sum to at most 2¹⁶.
    static func fixedBlend(
        _ lines: UnsafeBufferPointer<UnsafePointer<UInt16>>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int,
        into target: FixedTarget
    ) {
        let n = w.count, offset = UInt16(n / 2) &+ target.rounding
        var i = 0
        while i + 32 <= count {
            var a0 = SIMD16<UInt16>(repeating: offset), a1 = a0
            for t in 0..<n {
                let wt = w[t], line = lines[t]
                a0 &+= mulhi(load16(line + i), wt)
                a1 &+= mulhi(load16(line + i + 16), wt)
            }
            target.store(a0, a1, at: i)
            i += 32
        }
        while i < count {
            var acc = offset
            for t in 0..<n { acc &+= lines[t][i].multipliedFullWidth(by: w[t][0]).high }
            target.store(acc, at: i)
            i += 1
        }
    }

    /// `out[i]` = `values[i]` (0 … 255) with 7 fractional bits, rounded to nearest (ties to even):
    /// adding 2²³ puts the integer part in the low mantissa bits, as ``storeBytes(_:count:into:)`` does.
    static func fixedLine(_ values: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt16>) {
        for i in 0..<count {
            let v = min(max(values[i] * 128, 0), 32_640) + 8_388_608
            out[i] = UInt16(truncatingIfNeeded: v.bitPattern)
        }
    }

    /// Weights summing to 1 in Q16, the largest (the first of equals) taking what rounding leaves so
    /// that they sum to 2¹⁶ (a flat image stays flat); each at most 2¹⁶ − 1.
    static func quantise(_ weights: UnsafeBufferPointer<Float>, into q: UnsafeMutableBufferPointer<UInt16>) {
        var sum = 0, largest = 0, most = Int.min
        for (i, weight) in weights.enumerated() {
            let v = Int((Double(weight) * 65_536).rounded())
            q[i] = UInt16(clamping: v)
            sum += v
            if v > most { (largest, most) = (i, v) }
        }
        guard !weights.isEmpty else { return }
        q[largest] = UInt16(clamping: most + 65_536 - sum)
    }

    /// ``quantise(_:into:)`` into a new array.
    static func quantised(_ weights: [Float]) -> [UInt16] {
        var q = [UInt16](repeating: 0, count: weights.count)
        weights.withUnsafeBufferPointer { weights in q.withUnsafeMutableBufferPointer { quantise(weights, into: $0) } }
        return q
    }

    /// The high half of each lane's product: `⌊a · b / 2¹⁶⌋`.
    @inline(__always)
    static func mulhi(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
        var high = SIMD16<UInt16>()
        for lane in 0..<16 { high[lane] = a[lane].multipliedFullWidth(by: b[lane]).high }
        return high
    }

    // Lane by lane, which the compiler turns into one instruction where the standard library's
    // generic conversions between SIMD types stay a call.

    /// Sixteen bytes from `at` on, widened to 16 bits.
    @inline(__always)
    static func widen(_ p: UnsafePointer<UInt8>, _ at: Int) -> SIMD16<UInt16> {
        let bytes = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
        var wide = SIMD16<UInt16>()
        for lane in 0..<16 { wide[lane] = UInt16(bytes[lane]) }
        return wide
    }

    /// Each lane clamped to 255, as a byte.
    @inline(__always)
    static func narrow(_ v: SIMD16<UInt16>) -> SIMD16<UInt8> {
        var bytes = SIMD16<UInt8>()
        for lane in 0..<16 { bytes[lane] = UInt8(truncatingIfNeeded: min(v[lane], 255)) }
        return bytes
    }

    /// Sixteen 16-bit values from `p` on.
    @inline(__always)
    static func load16(_ p: UnsafePointer<UInt16>) -> SIMD16<UInt16> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self)
    }
}
