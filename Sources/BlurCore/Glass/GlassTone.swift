/// The glass's pointwise colour: chroma boost, white point, contrast, tint and (Reduce
/// Transparency) frost, on straight sRGB-encoded colour; the float64 formula the reference applies
/// to every pixel and the fast path tabulates (``GlassToneTable``).
///
/// In order: the colour is linearised, its distance from its Rec. 709 luma multiplied by `chroma`
/// — capped so that no channel leaves 0…1 — and re-encoded; mixed toward white (white point > 0) or
/// black (< 0) by |white point|; stretched about mid-grey by 1 + contrast and clamped to 0…1; mixed
/// toward the tint's colour by its alpha; mixed toward the frost by `frostMix`. A premultiplied pixel
/// is first laid over the opaque frost when there is one, then toned in straight colour.
struct GlassTone: Sendable, Hashable {
    let chroma: Double, whitePoint: Double, contrast: Double
    /// Straight tint colour and its alpha (0 = none).
    let tint: SIMD3<Double>, tintAlpha: Double
    /// The frost grey (sRGB) and how far the colour is mixed toward it; `frostMix` 0 = none.
    let frost: Double, frostMix: Double

    init(_ recipe: GlassRecipe, tint: Color?) {
        (chroma, whitePoint, contrast) = (recipe.chroma, recipe.whitePoint, recipe.contrast)
        self.tint = tint.map { SIMD3($0.red, $0.green, $0.blue) } ?? .zero
        tintAlpha = tint?.alpha ?? 0
        (frost, frostMix) = (recipe.frost, recipe.frostMix)
    }

    /// The chroma boost alone, on a straight sRGB colour (0…1).
    func boosted(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard chroma != 1 else { return c }
        let linear = SIMD3(GlassTone.decode(c.x), GlassTone.decode(c.y), GlassTone.decode(c.z))
        let luma = 0.2126 * linear.x + 0.7152 * linear.y + 0.0722 * linear.z
        var k = chroma
        if k > 1 {
            for i in 0..<3 where linear[i] != luma {
                k = min(k, linear[i] > luma ? (1 - luma) / (linear[i] - luma) : luma / (luma - linear[i]))
            }
        }
        let out = luma + k * (linear - luma)
        return SIMD3(GlassTone.encode(out.x), GlassTone.encode(out.y), GlassTone.encode(out.z))
    }

    /// Everything after the chroma boost, on one channel `c` (0…1) whose tint component is `tint`.
    @inline(__always)
    func finish(_ c: Double, tint: Double) -> Double {
        var v = whitePoint >= 0 ? c + whitePoint * (1 - c) : c * (1 + whitePoint)
        v = min(1, max(0, (v - 0.5) * (1 + contrast) + 0.5))
        v += (tint - v) * tintAlpha
        return v + (frost - v) * frostMix
    }

    /// A premultiplied pixel (channels 0…255), toned; premultiplied 0…255, not rounded.
    func pixel(_ p: SIMD4<Double>) -> SIMD4<Double> {
        var p = p
        if frostMix > 0 {
            let under = 1 - p.w / 255
            p += SIMD4(frost * 255, frost * 255, frost * 255, 255) * under
        }
        guard p.w > 0 else { return .zero }
        let c = boosted(SIMD3(p.x, p.y, p.z) / p.w)
        return SIMD4(finish(c.x, tint: tint.x) * p.w, finish(c.y, tint: tint.y) * p.w, finish(c.z, tint: tint.z) * p.w, p.w)
    }

    /// sRGB-encoded 0…1 → linear light (the IEC 61966-2-1 curve).
    static func decode(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : power((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light 0…1 → sRGB-encoded.
    static func encode(_ l: Double) -> Double {
        l <= 0.0031308 ? l * 12.92 : 1.055 * power(l, 1 / 2.4) - 0.055
    }

    /// xʸ for x > 0 (0 for x ≤ 0), from ``Elementary``: the same in the native and WebAssembly builds.
    static func power(_ x: Double, _ y: Double) -> Double {
        x > 0 ? Elementary.exp(y * Elementary.log10(x) * 2.302585092994046) : 0
    }
}
