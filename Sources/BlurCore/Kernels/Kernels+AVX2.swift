// The fixed-point passes' blocks in AVX2 intrinsics: the arithmetic `Kernels+FixedPoint.swift`
// defines, 32 lanes a block, one instruction an operation. Compiled only where the target has AVX2
// (`-Xcc -mavx2`, which makes `CSIMDFeatures.AVX2` importable); a build without it, debug or
// release, never sees them and takes the portable blocks, which give the same bytes.
#if canImport(CSIMDFeatures.AVX2)
import _Builtin_intrinsics.intel

extension Kernels {
    /// ``fixedVertical(rows:weights:count:into:)``'s whole blocks of 32 lanes; the lanes done.
    ///
    /// The bytes of a pair of rows are interleaved (`vpunpcklbw`/`vpunpckhbw`) and summed times 64
    /// by `vpmaddubsw`, which works within each 128-bit half: the low sums hold lanes 0–7 and
    /// 16–23, the high ones 8–15 and 24–31, put back in order once a block, when it is stored.
    static func avx2Vertical(
        rows: UnsafeBufferPointer<UnsafePointer<UInt8>?>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int,
        into line: UnsafeMutablePointer<UInt16>
    ) -> Int {
        let r = w.count - 1, centre = rows[r]!, zero = _mm256_setzero_si256(), sixtyFour = _mm256_set1_epi8(64)
        let weights = UnsafeRawPointer(w.baseAddress!)
        var i = 0
        while i + 32 <= count {
            let c = bytes32(centre, i), w0 = vector(weights, 0)
            var low = _mm256_mulhrs_epi16(_mm256_slli_epi16(_mm256_unpacklo_epi8(c, zero), 7), w0)
            var high = _mm256_mulhrs_epi16(_mm256_slli_epi16(_mm256_unpackhi_epi8(c, zero), 7), w0)
            for t in 1..<(r + 1) {
                let above = bytes32(rows[r &- t].unsafelyUnwrapped, i), below = bytes32(rows[r &+ t].unsafelyUnwrapped, i)
                let wt = vector(weights, t)
                low = _mm256_add_epi16(
                    low, _mm256_mulhrs_epi16(_mm256_maddubs_epi16(_mm256_unpacklo_epi8(above, below), sixtyFour), wt))
                high = _mm256_add_epi16(
                    high, _mm256_mulhrs_epi16(_mm256_maddubs_epi16(_mm256_unpackhi_epi8(above, below), sixtyFour), wt))
            }
            let out = UnsafeMutableRawPointer(line + i)
            out.storeBytes(of: __m256i(low[0], low[1], high[0], high[1]), as: __m256i.self)
            out.storeBytes(of: __m256i(low[2], low[3], high[2], high[3]), toByteOffset: 32, as: __m256i.self)
            i += 32
        }
        return i
    }

    /// ``fixedHorizontal(_:weights:count:into:)``'s whole blocks of 32 lanes; the lanes done.
    static func avx2Horizontal(
        _ centre: UnsafePointer<UInt16>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int, into target: FixedTarget
    ) -> Int {
        let r = w.count - 1, offset = _mm256_set1_epi16(Int16(target.rounding))
        let weights = UnsafeRawPointer(w.baseAddress!)
        var i = 0
        while i + 32 <= count {
            let w0 = vector(weights, 0)
            var a0 = _mm256_add_epi16(_mm256_mulhrs_epi16(lanes16(centre + i), w0), offset)
            var a1 = _mm256_add_epi16(_mm256_mulhrs_epi16(lanes16(centre + i + 16), w0), offset)
            var left = centre + i, right = centre + i
            for t in 1..<(r + 1) {
                left -= 4
                right += 4
                let wt = vector(weights, t)
                a0 = _mm256_add_epi16(a0, _mm256_mulhrs_epi16(_mm256_avg_epu16(lanes16(left), lanes16(right)), wt))
                a1 = _mm256_add_epi16(
                    a1, _mm256_mulhrs_epi16(_mm256_avg_epu16(lanes16(left + 16), lanes16(right + 16)), wt))
            }
            switch target {
            case let .bytes(out):
                // `vpackuswb` clamps to 0…255 within each 128-bit half: its quarters come back in order.
                let packed = _mm256_packus_epi16(_mm256_srli_epi16(a0, 7), _mm256_srli_epi16(a1, 7))
                UnsafeMutableRawPointer(out + i).storeBytes(
                    of: __m256i(packed[0], packed[2], packed[1], packed[3]), as: __m256i.self)
            case let .line(out):
                UnsafeMutableRawPointer(out + i).storeBytes(of: a0, as: __m256i.self)
                UnsafeMutableRawPointer(out + i).storeBytes(of: a1, toByteOffset: 32, as: __m256i.self)
            }
            i += 32
        }
        return i
    }

    /// 32 bytes from `at` on.
    @inline(__always)
    private static func bytes32(_ p: UnsafePointer<UInt8>, _ at: Int) -> __m256i {
        UnsafeRawPointer(p).loadUnaligned(fromByteOffset: at, as: __m256i.self)
    }

    /// Sixteen 16-bit lanes from `p` on.
    @inline(__always)
    private static func lanes16(_ p: UnsafePointer<UInt16>) -> __m256i {
        UnsafeRawPointer(p).loadUnaligned(as: __m256i.self)
    }

    /// The `t`-th multiplier vector.
    @inline(__always)
    private static func vector(_ weights: UnsafeRawPointer, _ t: Int) -> __m256i {
        weights.load(fromByteOffset: t &* 32, as: __m256i.self)
    }
}
#endif
