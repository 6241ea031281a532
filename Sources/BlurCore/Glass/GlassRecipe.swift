/// Every constant of one glass material, resolved for a variant, an appearance, the accessibility
/// settings and the shape's shorter side: what the renderer and its reference both read.
///
/// Apple publishes no number for Liquid Glass (an SDK audit finds only `tint` and `interactive`).
/// The starting point is Haze 2's ADR-0007 calibration (2026-09-16, fitted to iOS 26/27 captures);
/// the blur radii and depths are then refitted by BlurKit to the iOS 27.0 grid-retention capture
/// (`GlassFidelityTests`): Clear keeps ≈ 23 / 27 / 28 % of the adjacent-pixel linear-light contrast
/// at 64 / 176 / 220 pt, in light and dark alike; Regular ≈ 24 % on the 64-pt capsule and ≈ 0 on
/// larger surfaces. Lengths are in points.
struct GlassRecipe: Sendable, Hashable {
    /// Haze's blur radius R (points); the Gaussian's σ in pixels is ``sigma(scale:)``.
    var blurRadius: Double
    /// The blurred share of the backdrop, 0…1 (the rest is the sharp backdrop).
    var depth: Double
    /// Width of the band along the edge where the backdrop is pulled inward, points.
    var refractionWidth: Double
    /// Haze's refraction strength × displacement: the largest inward pull, points (capped at half
    /// the shorter side).
    var refractionPull: Double
    /// Bevel height as a fraction of the shorter side, for the Fresnel brightening.
    var heightFraction: Double
    /// The rim's specular highlight: peak opacity of white and the exponent of its directional term.
    var specularIntensity: Double, specularExponent: Double
    /// Opacity of the black edge shadow drawn with the rim.
    var edgeShadow: Double
    /// Fresnel (ambient) brightening at grazing angles, and its exponent.
    var ambient: Double, fresnelExponent: Double
    /// Tone: white point (−1…1; > 0 mixes toward white, < 0 toward black), chroma multiplier in linear
    /// light (capped to stay in gamut), contrast around mid-grey.
    var whitePoint: Double, chroma: Double, contrast: Double
    /// Width of the rim and of the fade of refraction at the silhouette, points.
    var edgeSoftness: Double
    /// The outer shadow: peak black opacity just outside the edge, and how far it reaches, points.
    var outerShadow: Double, outerShadowReach: Double
    /// Reduce Transparency's frost: the opaque colour (sRGB grey) the material is laid over and then
    /// mixed toward by ``frostMix``; 0 = none.
    var frost: Double, frostMix: Double

    /// σ of the backdrop blur in pixels at `scale` px/pt: Haze's 0.57735·R + 0.5·min(R, 1), R in pixels.
    func sigma(scale: Double) -> Double {
        let r = blurRadius * scale
        return 0.57735 * r + 0.5 * min(r, 1)
    }

    /// The material for `variant` (not `.identity`) in `appearance`, on a shape whose shorter side is
    /// `shortSide` points.
    init(_ variant: GlassVariant, _ appearance: Appearance, shortSide: Double, reduceTransparency: Bool, increaseContrast: Bool) {
        let light = appearance == .light
        if variant == .clear {
            // Haze: Edge(28 pt), strength 0.85 × displacement 56 pt, height 0.35; no outer shadow.
            blurRadius = GlassRecipe.anchored(shortSide, light ? GlassRecipe.clearLightBlur : GlassRecipe.clearDarkBlur)
            depth = 1
            refractionWidth = 28
            refractionPull = 0.85 * 56
            heightFraction = 0.35
            (specularIntensity, specularExponent) = (light ? 0.55 : 0.42, 16)
            edgeShadow = light ? 0.10 : 0.25
            (ambient, fresnelExponent) = (light ? 0.42 : 0.22, 2.5)
            (whitePoint, chroma, contrast) = light ? (0.17, 1.05, 0.08) : (-0.18, 1.0, 0.12)
            (outerShadow, outerShadowReach) = (0, 0)
        } else {
            // Haze: Edge(20 pt), strength 0.7 × displacement 48 pt, height 0.15.
            blurRadius = GlassRecipe.anchored(shortSide, GlassRecipe.regularBlur)
            depth = GlassRecipe.anchored(shortSide, light ? GlassRecipe.regularLightDepth : GlassRecipe.regularDarkDepth)
            refractionWidth = 20
            refractionPull = 0.7 * 48
            heightFraction = 0.15
            (specularIntensity, specularExponent) = (light ? 0.48 : 0.38, 24)
            edgeShadow = light ? 0.14 : 0.32
            (ambient, fresnelExponent) = (light ? 0.15 : 0.08, 3)
            (whitePoint, chroma, contrast) = light ? (0.55, 1.5, 0) : (-0.22, 1.1, 0.08)
            // BlurKit's: Apple says only that larger shapes cast deeper shadows.
            outerShadow = GlassRecipe.anchored(shortSide, [(64, 0.06), (220, 0.14)])
            outerShadowReach = GlassRecipe.anchored(shortSide, [(64, 6), (220, 16)])
        }
        edgeSoftness = 1
        (frost, frostMix) = (0, 0)
        if increaseContrast {
            // Haze's accessibility floors.
            contrast = max(contrast, 0.16)
            specularIntensity = max(specularIntensity, 0.58)
            edgeShadow = max(edgeShadow, 0.32)
        }
        if reduceTransparency {
            // BlurKit's: a fully blurred, frosted, opaque material that bends the backdrop a third as far.
            depth = 1
            refractionPull *= 0.35
            (frost, frostMix) = (light ? 0.94 : 0.17, 0.6)
        }
    }

    // Calibrated anchors, (shorter side in points, value), smoothstep between them, clamped at the ends.

    /// Regular's blur radius: Haze's 20 / 24 / 25 pt, kept (σ 35–44 px at 3×: the grid is gone under
    /// the blurred share, 0.07–0.1 % retained on the card and the panel).
    static let regularBlur: [(Double, Double)] = [(64, 20), (176, 24), (220, 25)]
    /// Regular's depth in light: Haze's 0.65 / 1 / 1, kept (the capsule retains 0.235).
    static let regularLightDepth: [(Double, Double)] = [(64, 0.65), (176, 1), (220, 1)]
    /// Regular's depth in dark: refitted on the capsule (0.45, retaining 0.239) because the dark
    /// tone (white point −0.22, contrast 0.08) keeps less of the sharp share's contrast than the light one.
    static let regularDarkDepth: [(Double, Double)] = [(64, 0.45), (176, 1), (220, 1)]
    /// Clear's blur radius in light: refitted per size (Haze: 1.25 pt everywhere, which retains
    /// 0.30 / 0.31 / 0.31), for 0.230 / 0.270 / 0.277.
    static let clearLightBlur: [(Double, Double)] = [(64, 1.62), (176, 1.44), (220, 1.38)]
    /// Clear's blur radius in dark: the darker tone (white point −0.18, contrast 0.12) takes contrast
    /// away, so less blur, for 0.224 / 0.269 / 0.281.
    static let clearDarkBlur: [(Double, Double)] = [(64, 0.87), (176, 0.79), (220, 0.75)]

    /// The value at `s` of a table of anchors: smoothstep between neighbours, the end values beyond.
    static func anchored(_ s: Double, _ anchors: [(Double, Double)]) -> Double {
        guard let first = anchors.first, let last = anchors.last else { return 0 }
        if !(s > first.0) { return first.1 }
        if s >= last.0 { return last.1 }
        var i = 0
        while anchors[i + 1].0 < s { i += 1 }
        let (a, b) = (anchors[i], anchors[i + 1])
        let t = (s - a.0) / (b.0 - a.0)
        return a.1 + (b.1 - a.1) * t * t * (3 - 2 * t)
    }
}
