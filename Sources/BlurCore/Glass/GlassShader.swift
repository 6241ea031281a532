/// A source of the toned material: premultiplied RGBA (0…255) at any point of the image, in pixels
/// (pixel (i, j) has its centre at (i + ½, j + ½)), interpolated bilinearly between pixel centres and
/// clamped to the glass's region.
protocol GlassLayer {
    func sample(_ x: Double, _ y: Double) -> SIMD4<Double>
}

/// Everything the glass does at one pixel once the backdrop is blurred and toned: refraction,
/// dispersion, Fresnel, rim, coverage and the outer shadow. One shader serves the reference and the
/// fast path; only the layer it samples (float64 or bytes) and its curves (exact or tabulated) differ.
///
/// At a pixel whose centre lies `d` pixels inside the outline (d = −signed distance):
/// - **Refraction**: within the band `band`, the layer is sampled `pull × profile(d / band)` pixels
///   inward along the normal, profile(t) = e^(−t/0.225)·(1 − t²)² (Haze's edge profile), faded to
///   nothing across the last `soft` pixels at the silhouette (smootherstep).
/// - **Dispersion**: red sampled further along the same pull and blue less far, by the pull ×
///   strength × ½·|x·y| / (hx·hy) (centred coordinates: strongest at the corners).
/// - **Fresnel**: colour × (1 + ambient·F), F = (1 − N·ẑ)^exponent on a quarter-round bevel of height
///   `bevel × band` across the band, clamped to the alpha.
/// - **Rim** (over the material): within `soft` pixels of the outline, white of opacity
///   specular × edge × (0.35 + 0.65·|n·l|^power) (two highlights facing the light and away from it,
///   light from the top left) over black of opacity edgeShadow × edge, edge = 1 − smootherstep(d / soft).
/// - **Coverage**: a one-pixel ramp centred on the outline; the glass is laid over the backdrop
///   darkened by the outer shadow, outerShadow × (1 − min(1, −d / reach))² outside the outline.
struct GlassShader: Sendable {
    let surface: GlassSurface
    /// Refraction band, the largest pull, the rim's width: pixels.
    let band: Double, pull: Double, soft: Double
    /// Bevel height ÷ band width.
    let bevel: Double
    let ambient: Double, fresnelExponent: Double
    let specular: Double, specularPower: Int, edgeShadow: Double
    /// Peak opacity of the outer shadow and its reach, pixels.
    let outerShadow: Double, reach: Double
    let dispersion: Double
    /// Unit vector toward the light.
    let light = SIMD2<Double>(-1, -1) / 2.squareRoot()
    /// True for the fast path's curves: the profile and the Fresnel term tabulated over t = d / band
    /// (``tableSize`` steps, linear between them); false for the exact ones.
    let tabulated: Bool
    let profileTable: [Double], fresnelTable: [Double]
    static let tableSize = 1024

    init(_ recipe: GlassRecipe, surface: GlassSurface, scale: Double, dispersion: Double, tabulated: Bool) {
        self.surface = surface
        band = max(recipe.refractionWidth * scale, 1e-9)
        pull = min(recipe.refractionPull * scale, surface.shortSide / 2)
        soft = max(1, recipe.edgeSoftness * scale)
        bevel = recipe.heightFraction * surface.shortSide / band
        (ambient, fresnelExponent) = (recipe.ambient, recipe.fresnelExponent)
        (specular, edgeShadow) = (recipe.specularIntensity, recipe.edgeShadow)
        specularPower = Int((recipe.specularExponent / 8).rounded())
        (outerShadow, reach) = (recipe.outerShadow, max(1, recipe.outerShadowReach * scale))
        self.dispersion = dispersion.isNaN ? 0 : min(1, max(0, dispersion))
        self.tabulated = tabulated
        let n = GlassShader.tableSize
        let ts = tabulated ? (0...n + 1).map { min(1, Double($0) / Double(n)) } : []
        let (bevel, exponent) = (bevel, recipe.fresnelExponent)
        profileTable = ts.map(GlassShader.profile)
        fresnelTable = ts.map { GlassShader.fresnel($0, bevel: bevel, exponent: exponent) }
    }

    /// Pixels deeper inside than this are the toned layer at their own centre, nothing else.
    var interiorDepth: Double { max(band, soft) }
    /// How far outside the outline the shader can change a pixel, pixels.
    var outerReach: Double { outerShadow > 0 ? reach : 1 }

    /// Haze's edge profile e^(−t/0.225)·(1 − t²)², t in 0…1.
    static func profile(_ t: Double) -> Double {
        let u = 1 - t * t
        return Elementary.exp(-t / 0.225) * u * u
    }

    /// (1 − N·ẑ)^exponent on a quarter-round bevel rising `bevel` band widths over the band, t in 0…1.
    static func fresnel(_ t: Double, bevel: Double, exponent: Double) -> Double {
        let u = 1 - t, rise = max(0, 1 - u * u)
        let denominator = (rise + bevel * bevel * u * u).squareRoot()
        let cosine = denominator > 0 ? rise.squareRoot() / denominator : 1
        return GlassTone.power(1 - cosine, exponent)
    }

    @inline(__always)
    private func tabulated(_ table: [Double], _ t: Double) -> Double {
        let u = t * Double(GlassShader.tableSize), i = Int(u), f = u - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    @inline(__always)
    private static func smootherstep(_ x: Double) -> Double {
        let t = min(1, max(0, x))
        return t * t * t * (t * (t * 6 - 15) + 10)
    }

    /// What the shader does at a pixel short of the interior, given its signed distance `sd` and its
    /// normal `n`, besides sampling the layer: where it samples, the Fresnel gain, the rim, the
    /// coverage and the outer shadow. A function of (sd, n) alone, so the fast path computes it once
    /// for a whole row or column along a straight side.
    struct Optics {
        /// Where the layer is sampled, from the pixel's centre, pixels.
        var shift: SIMD2<Double>
        /// The Fresnel gain on colour (1: none).
        var gain: Double
        /// The rim: white of opacity `spec` over black, the two together of opacity `alpha` (0: none).
        var spec: Double, alpha: Double
        var coverage: Double
        /// The outer shadow's opacity over the backdrop (0: none).
        var shadow: Double
    }

    /// The outer shadow's opacity at signed distance `sd` (0 inside its reach's end and without one).
    @inline(__always)
    func shadow(_ sd: Double) -> Double {
        guard outerShadow > 0 else { return 0 }
        let t = 1 - min(1, max(0, sd) / reach)
        return outerShadow * t * t
    }

    /// The optics at signed distance `sd` (less than ``interiorDepth`` inside) with outward normal `n`.
    @inline(__always)
    func optics(_ sd: Double, normal n: SIMD2<Double>) -> Optics {
        let d = -sd
        let t = min(1, max(0, d) / band)
        let fade = GlassShader.smootherstep(d / soft)
        let shift = -n * (pull * fade * (tabulated ? tabulated(profileTable, t) : GlassShader.profile(t)))
        var gain = 1.0
        if ambient > 0 {
            gain = 1 + ambient * (tabulated ? tabulated(fresnelTable, t) : GlassShader.fresnel(t, bevel: bevel, exponent: fresnelExponent))
        }
        var spec = 0.0, alpha = 0.0
        let edge = 1 - fade
        if edge > 0 {
            let facing = abs(n.x * light.x + n.y * light.y)
            var lobe = 1.0
            for _ in 0..<specularPower { lobe *= facing }
            spec = specular * edge * (0.35 + 0.65 * lobe)
            alpha = spec + edgeShadow * edge * (1 - spec)
        }
        return Optics(shift: shift, gain: gain, spec: spec, alpha: alpha, coverage: min(1, max(0, 0.5 - sd)), shadow: shadow(sd))
    }

    /// The premultiplied output (0…255, not rounded) at pixel (x, y) over the backdrop pixel `under`.
    @inline(__always)
    func shade<Layer: GlassLayer>(_ x: Int, _ y: Int, under: SIMD4<Double>, layer: Layer) -> SIMD4<Double> {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let sd = surface.distance(px, py)
        var under = under
        if outerShadow > 0 {
            let a = shadow(sd)
            under = SIMD4(under.x * (1 - a), under.y * (1 - a), under.z * (1 - a), under.w + (255 - under.w) * a)
        }
        let coverage = min(1, max(0, 0.5 - sd))
        guard coverage > 0 else { return under }
        if -sd >= interiorDepth {
            let glass = layer.sample(px, py)
            return glass + under * (1 - glass.w / 255)
        }

        let n = surface.normal(px, py)
        let o = optics(sd, normal: n)
        let shift = o.shift
        var glass = layer.sample(px + shift.x, py + shift.y)
        if dispersion > 0 && (shift.x != 0 || shift.y != 0) {
            let b = surface.bounds
            let hx = b.width / 2, hy = b.height / 2
            let corner = min(1, abs((px - b.x - hx) * (py - b.y - hy)) / max(hx * hy, 1e-9))
            let c = shift * (dispersion * 0.5 * corner)
            glass.x = layer.sample(px + shift.x + c.x, py + shift.y + c.y).x
            glass.z = layer.sample(px + shift.x - c.x, py + shift.y - c.y).z
            glass = SIMD4(min(glass.x, glass.w), glass.y, min(glass.z, glass.w), glass.w)
        }
        if ambient > 0 {
            let gain = o.gain
            glass = SIMD4(min(glass.w, glass.x * gain), min(glass.w, glass.y * gain), min(glass.w, glass.z * gain), glass.w)
        }
        if o.alpha > 0 || o.spec > 0 {
            let w = o.alpha * 255 + glass.w * (1 - o.alpha)
            glass = SIMD4(repeating: o.spec * 255) + glass * (1 - o.alpha)
            glass.w = w
        }
        glass *= coverage
        return glass + under * (1 - glass.w / 255)
    }
}
