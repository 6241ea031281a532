// The inner loops of ``FixedPointRows``: integers in 16-bit lanes whose arithmetic is defined here,
// lane by lane, once. The AVX2 blocks (`Kernels+AVX2.swift`, builds whose target has AVX2: `-Xcc -mavx2`) and the
// SIMD128 blocks (`Kernels+SIMD128.swift`, the WebAssembly module) compute the same integers with
// one instruction an operation, so every build gives the same bytes; the blocks here (sixteen lanes
// a vector, two vectors a block) are what any other build runs, and the tails of every build run
// the same operations one lane at a time.
//
// The three operations, on values below 2¹⁵ (signed and unsigned agree):
// - a pair of input bytes to 7 fractional bits: `(a + b) · 2⁶`, at most 32,640 (`vpmaddubsw` of the
//   interleaved bytes with 64 on x86; widen, add, shift in SIMD128);
// - a rounded Q15 product `(x · m + 2¹⁴) >> 15` (`vpmulhrsw`, `i16x8.q15mulr_sat_s`), with
//   multipliers below 2¹⁵ (``FixedPointRows/multipliers(_:)``), so no product saturates;
// - the mean of two line values rounded up, `(a + b + 1) >> 1` (`vpavgw`, `i16x8.avgr_u`).
extension Kernels {
    /// `line[i] = ⌊(c[i] · 2⁷ · m₀ + 2¹⁴) / 2¹⁵⌋ + Σ_t ⌊((x₋ₜ[i] + xₜ[i]) · 2⁶ · mₜ + 2¹⁴) / 2¹⁵⌋` for
    /// `i < count`: the vertical pass from the `2r + 1` rows around the output row (`rows[r + t]` is
    /// xₜ, c is x₀) to 7 fractional bits, `m` the kernel's ``FixedPointRows/multipliers(_:)``.
    static func fixedVertical(
        rows: UnsafeBufferPointer<UnsafePointer<UInt8>?>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int,
        into line: UnsafeMutablePointer<UInt16>
    ) {
        let r = w.count - 1
        var i = 0
        #if canImport(CSIMDFeatures.AVX2)
        i = avx2Vertical(rows: rows, weights: w, count: count, into: line)
        #elseif arch(wasm32) && canImport(WasmSIMD)
        i = simd128Vertical(rows: rows, weights: w, count: count, into: line)
        #endif
        let centre = rows[r]!, out = UnsafeMutableRawPointer(line)
        while i + 32 <= count {
            let w0 = w[0]
            var a0 = mulhrs(widen(centre, i) &<< 7, w0)
            var a1 = mulhrs(widen(centre, i + 16) &<< 7, w0)
            for t in 1..<(r + 1) {
                let wt = w[t], above = rows[r &- t].unsafelyUnwrapped, below = rows[r &+ t].unsafelyUnwrapped
                a0 &+= mulhrs((widen(above, i) &+ widen(below, i)) &<< 6, wt)
                a1 &+= mulhrs((widen(above, i &+ 16) &+ widen(below, i &+ 16)) &<< 6, wt)
            }
            out.storeBytes(of: a0, toByteOffset: i * 2, as: SIMD16<UInt16>.self)
            out.storeBytes(of: a1, toByteOffset: i * 2 + 32, as: SIMD16<UInt16>.self)
            i += 32
        }
        while i < count {
            var acc = mulhrs(UInt16(rows[r]![i]) &<< 7, w[0][0])
            for t in 1..<(r + 1) { acc &+= mulhrs((UInt16(rows[r - t]![i]) &+ UInt16(rows[r + t]![i])) &<< 6, w[t][0]) }
            line[i] = acc
            i += 1
        }
    }

    /// `⌊(v[i] · m₀ + 2¹⁴) / 2¹⁵⌋ + Σ_t ⌊(⌈(v[i − 4t] + v[i + 4t]) / 2⌉ · mₜ + 2¹⁴) / 2¹⁵⌋` for
    /// `i < count`: the horizontal pass over interleaved RGBA with 7 fractional bits, into `target`
    /// (to bytes: plus 2⁶, shifted right by 7 and clamped to 255). `centre` must have `4r` readable
    /// values before it and after `count`.
    static func fixedHorizontal(
        _ centre: UnsafePointer<UInt16>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int, into target: FixedTarget
    ) {
        let r = w.count - 1, offset = target.rounding
        var i = 0
        #if canImport(CSIMDFeatures.AVX2)
        i = avx2Horizontal(centre, weights: w, count: count, into: target)
        #elseif arch(wasm32) && canImport(WasmSIMD)
        i = simd128Horizontal(centre, weights: w, count: count, into: target)
        #endif
        while i + 32 <= count {
            let w0 = w[0]
            var a0 = mulhrs(load16(centre + i), w0) &+ offset, a1 = mulhrs(load16(centre + i + 16), w0) &+ offset
            var left = centre + i, right = centre + i, weight = w.baseAddress!
            for _ in 0..<r {
                left -= 4
                right += 4
                weight += 1
                let wt = weight.pointee
                a0 &+= mulhrs(mean(load16(left), load16(right)), wt)
                a1 &+= mulhrs(mean(load16(left + 16), load16(right + 16)), wt)
            }
            target.store(a0, a1, at: i)
            i += 32
        }
        while i < count {
            var acc = mulhrs(centre[i], w[0][0]) &+ offset
            for t in 1..<(r + 1) { acc &+= mulhrs(mean(centre[i - 4 * t], centre[i + 4 * t]), w[t][0]) }
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

    /// The rounded Q15 product of each lane, `(a · b + 2¹⁴) >> 15`, for lanes below 2¹⁵.
    @inline(__always)
    static func mulhrs(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
        var product = SIMD16<UInt16>()
        for lane in 0..<16 { product[lane] = mulhrs(a[lane], b[lane]) }
        return product
    }

    /// `(a · b + 2¹⁴) >> 15`, for values below 2¹⁵.
    @inline(__always)
    static func mulhrs(_ a: UInt16, _ b: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(a) &* UInt32(b) &+ 0x4000) &>> 15)
    }

    /// Each lane's mean rounded up, `(a + b + 1) >> 1`.
    @inline(__always)
    static func mean(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
        var mean = SIMD16<UInt16>()
        for lane in 0..<16 { mean[lane] = Kernels.mean(a[lane], b[lane]) }
        return mean
    }

    /// `(a + b + 1) >> 1`.
    @inline(__always)
    static func mean(_ a: UInt16, _ b: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(a) &+ UInt32(b) &+ 1) &>> 1)
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
