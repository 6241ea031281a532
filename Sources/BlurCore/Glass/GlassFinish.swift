/// ``GlassShader/Optics`` in `Float`, for the fast path: applied to a sample of the toned layer and
/// the backdrop pixel under it, four channels at once, in the shader's order (Fresnel gain, rim,
/// coverage, then over the backdrop darkened by the outer shadow).
struct GlassFinish {
    /// (gain, gain, gain, 1).
    let gain: SIMD4<Float>
    /// 1 − the rim's opacity.
    let keep: Float
    /// (spec·255, spec·255, spec·255, alpha·255): the rim's premultiplied colour.
    let rim: SIMD4<Float>
    let coverage: Float
    /// The backdrop under the outer shadow: ×(1 − shadow), then (0, 0, 0, 255·shadow) added.
    let shade: Float, shadow: Float

    init(_ o: GlassShader.Optics) {
        gain = SIMD4(Float(o.gain), Float(o.gain), Float(o.gain), 1)
        keep = Float(1 - o.alpha)
        let spec = Float(o.spec * 255)
        rim = SIMD4(spec, spec, spec, Float(o.alpha * 255))
        coverage = Float(o.coverage)
        shade = Float(1 - o.shadow)
        shadow = Float(o.shadow * 255)
    }

    /// The interior's: the layer as it is, over the backdrop under a shadow of opacity `shadow`.
    init(interiorShadow shadow: Double) {
        self.init(GlassShader.Optics(shift: .zero, gain: 1, spec: 0, alpha: 0, coverage: 1, shadow: shadow))
    }

    /// The output (premultiplied 0…255, not rounded) for layer sample `glass` over backdrop `under`.
    @inline(__always)
    func apply(_ glass: SIMD4<Float>, under: SIMD4<Float>) -> SIMD4<Float> {
        let w = glass.w, raised = glass * gain
        var g = SIMD4(min(raised.x, w), min(raised.y, w), min(raised.z, w), w)
        g = (g * keep + rim) * coverage
        var u = under * shade
        u.w += shadow
        return g + u * (1 - g.w / 255)
    }

    /// The four bytes at `p` as floats.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    /// `v` rounded to nearest (ties to even: adding 2²³ leaves the rounded integer in the low bits of
    /// the mantissa), clamped to 0…255 as an integer (no branch), stored at `p`.
    @inline(__always)
    static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let c = v + SIMD4(repeating: 8_388_608)
        @inline(__always) func byte(_ x: Float) -> UInt8 {
            UInt8(truncatingIfNeeded: min(255, max(0, Int32(bitPattern: x.bitPattern) &- 0x4B00_0000)))
        }
        p[0] = byte(c.x)
        p[1] = byte(c.y)
        p[2] = byte(c.z)
        p[3] = byte(c.w)
    }
}
