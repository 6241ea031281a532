// The fixed-point passes' blocks in WebAssembly SIMD128 intrinsics: the arithmetic
// `Kernels+FixedPoint.swift` defines, 32 lanes a block in four `v128` registers. `make wasm`
// (Scripts/wasm.sh) gives the compiler a module map over the toolchain's `wasm_simd128.h` as
// `WasmSIMD`; without it the module runs the portable blocks, which give the same bytes.
#if arch(wasm32) && canImport(WasmSIMD)
import WasmSIMD

extension Kernels {
    /// ``fixedVertical(rows:weights:count:into:)``'s whole blocks of 32 lanes; the lanes done.
    static func simd128Vertical(
        rows: UnsafeBufferPointer<UnsafePointer<UInt8>?>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int,
        into line: UnsafeMutablePointer<UInt16>
    ) -> Int {
        let r = w.count - 1, centre = rows[r]!, weights = UnsafeRawPointer(w.baseAddress!)
        var i = 0
        while i + 32 <= count {
            let w0 = wasm_v128_load(weights)
            let c0 = wasm_v128_load(centre + i), c1 = wasm_v128_load(centre + i + 16)
            var a0 = wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_low_u8x16(c0), 7), w0)
            var a1 = wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_high_u8x16(c0), 7), w0)
            var a2 = wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_low_u8x16(c1), 7), w0)
            var a3 = wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_high_u8x16(c1), 7), w0)
            for t in 1..<(r + 1) {
                let above = rows[r &- t].unsafelyUnwrapped + i, below = rows[r &+ t].unsafelyUnwrapped + i
                let wt = wasm_v128_load(weights + t &* 32)
                let x0 = wasm_v128_load(above), y0 = wasm_v128_load(below)
                let x1 = wasm_v128_load(above + 16), y1 = wasm_v128_load(below + 16)
                a0 = wasm_i16x8_add(a0, wasm_i16x8_q15mulr_sat(pair(wasm_u16x8_extend_low_u8x16(x0), wasm_u16x8_extend_low_u8x16(y0)), wt))
                a1 = wasm_i16x8_add(a1, wasm_i16x8_q15mulr_sat(pair(wasm_u16x8_extend_high_u8x16(x0), wasm_u16x8_extend_high_u8x16(y0)), wt))
                a2 = wasm_i16x8_add(a2, wasm_i16x8_q15mulr_sat(pair(wasm_u16x8_extend_low_u8x16(x1), wasm_u16x8_extend_low_u8x16(y1)), wt))
                a3 = wasm_i16x8_add(a3, wasm_i16x8_q15mulr_sat(pair(wasm_u16x8_extend_high_u8x16(x1), wasm_u16x8_extend_high_u8x16(y1)), wt))
            }
            let out = UnsafeMutableRawPointer(line + i)
            wasm_v128_store(out, a0)
            wasm_v128_store(out + 16, a1)
            wasm_v128_store(out + 32, a2)
            wasm_v128_store(out + 48, a3)
            i += 32
        }
        return i
    }

    /// ``fixedHorizontal(_:weights:count:into:)``'s whole blocks of 32 lanes; the lanes done.
    static func simd128Horizontal(
        _ centre: UnsafePointer<UInt16>, weights w: UnsafeBufferPointer<SIMD16<UInt16>>, count: Int, into target: FixedTarget
    ) -> Int {
        let r = w.count - 1, offset = wasm_i16x8_splat(Int16(target.rounding)), weights = UnsafeRawPointer(w.baseAddress!)
        var i = 0
        while i + 32 <= count {
            let w0 = wasm_v128_load(weights), c = centre + i
            var a0 = wasm_i16x8_add(wasm_i16x8_q15mulr_sat(wasm_v128_load(c), w0), offset)
            var a1 = wasm_i16x8_add(wasm_i16x8_q15mulr_sat(wasm_v128_load(c + 8), w0), offset)
            var a2 = wasm_i16x8_add(wasm_i16x8_q15mulr_sat(wasm_v128_load(c + 16), w0), offset)
            var a3 = wasm_i16x8_add(wasm_i16x8_q15mulr_sat(wasm_v128_load(c + 24), w0), offset)
            var left = c, right = c
            for t in 1..<(r + 1) {
                left -= 4
                right += 4
                let wt = wasm_v128_load(weights + t &* 32)
                a0 = wasm_i16x8_add(a0, wasm_i16x8_q15mulr_sat(wasm_u16x8_avgr(wasm_v128_load(left), wasm_v128_load(right)), wt))
                a1 = wasm_i16x8_add(a1, wasm_i16x8_q15mulr_sat(wasm_u16x8_avgr(wasm_v128_load(left + 8), wasm_v128_load(right + 8)), wt))
                a2 = wasm_i16x8_add(a2, wasm_i16x8_q15mulr_sat(wasm_u16x8_avgr(wasm_v128_load(left + 16), wasm_v128_load(right + 16)), wt))
                a3 = wasm_i16x8_add(a3, wasm_i16x8_q15mulr_sat(wasm_u16x8_avgr(wasm_v128_load(left + 24), wasm_v128_load(right + 24)), wt))
            }
            switch target {
            case let .bytes(out):
                let low = wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(a0, 7), wasm_u16x8_shr(a1, 7))
                let high = wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(a2, 7), wasm_u16x8_shr(a3, 7))
                wasm_v128_store(out + i, low)
                wasm_v128_store(out + i + 16, high)
            case let .line(out):
                wasm_v128_store(out + i, a0)
                wasm_v128_store(out + i + 8, a1)
                wasm_v128_store(out + i + 16, a2)
                wasm_v128_store(out + i + 24, a3)
            }
            i += 32
        }
        return i
    }

    /// A pair of widened bytes to 7 fractional bits: `(a + b) · 2⁶`.
    @inline(__always)
    private static func pair(_ a: v128_t, _ b: v128_t) -> v128_t {
        wasm_i16x8_shl(wasm_i16x8_add(a, b), 6)
    }
}
#endif
