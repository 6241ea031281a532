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

    /// ``apply(_:under:)`` then ``store(_:_:)`` over a run of `count` pixels at `target`, whose layer
    /// samples are `upper + (lower − upper) × weight` (four floats a pixel), channel by channel in
    /// scalars so that the loop vectorises (eight pixels a step); the same operations in the same
    /// order, so the same bytes.
    @inline(__always)
    func apply(upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, weight: Float, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let gain = gain.x, keep = keep, spec = rim.x, rimAlpha = rim.w, coverage = coverage, shade = shade, shadow = shadow
        for i in 0..<count {
            let q = i &* 4
            let w = upper[q + 3] + (lower[q + 3] - upper[q + 3]) * weight
            let r = upper[q] + (lower[q] - upper[q]) * weight
            let g = upper[q + 1] + (lower[q + 1] - upper[q + 1]) * weight
            let b = upper[q + 2] + (lower[q + 2] - upper[q + 2]) * weight
            let outR = (min(r * gain, w) * keep + spec) * coverage
            let outG = (min(g * gain, w) * keep + spec) * coverage
            let outB = (min(b * gain, w) * keep + spec) * coverage
            let outA = (w * keep + rimAlpha) * coverage
            let through = 1 - outA / 255
            target[q] = GlassFinish.byte(outR + Float(target[q]) * shade * through)
            target[q + 1] = GlassFinish.byte(outG + Float(target[q + 1]) * shade * through)
            target[q + 2] = GlassFinish.byte(outB + Float(target[q + 2]) * shade * through)
            target[q + 3] = GlassFinish.byte(outA + (Float(target[q + 3]) * shade + shadow) * through)
        }
    }

    /// The layer alone over a run of `count` pixels at `target` (an opaque interior): `upper + (lower
    /// − upper) × weight` stored, channel by channel (vectorised).
    @inline(__always)
    static func copy(upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, weight: Float, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        for q in 0..<(count &* 4) { target[q] = byte(upper[q] + (lower[q] - upper[q]) * weight) }
    }

    /// The outer shadow alone over a run of `count` backdrop pixels at `target` (outside the outline),
    /// channel by channel (vectorised); the same bytes as the backdrop × ``shade`` + (0, 0, 0, ``shadow``).
    @inline(__always)
    func darken(_ target: UnsafeMutablePointer<UInt8>, count: Int) {
        let shade = shade, shadow = shadow
        for i in 0..<count {
            let q = i &* 4
            target[q] = GlassFinish.byte(Float(target[q]) * shade)
            target[q + 1] = GlassFinish.byte(Float(target[q + 1]) * shade)
            target[q + 2] = GlassFinish.byte(Float(target[q + 2]) * shade)
            target[q + 3] = GlassFinish.byte(Float(target[q + 3]) * shade + shadow)
        }
    }

    /// `v` rounded to nearest (ties to even: adding 2²³ leaves the rounded integer in the low bits of
    /// the mantissa), clamped to 0…255 as an integer (no branch).
    @inline(__always)
    static func byte(_ v: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: min(255, max(0, Int32(bitPattern: (v + 8_388_608).bitPattern) &- 0x4B00_0000)))
    }

    /// The four bytes at `p` as floats.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    /// `v`'s four channels through ``byte(_:)``, stored at `p`.
    @inline(__always)
    static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        p[0] = byte(v.x)
        p[1] = byte(v.y)
        p[2] = byte(v.z)
        p[3] = byte(v.w)
    }
}
