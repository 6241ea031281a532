/// One render of glass, resolved in pixels: where it reads and writes, the blur, the tone and the
/// shader's constants. Made once at the API edge, where points become pixels.
struct GlassPlan: Sendable {
    /// The glass's bounding box (rounded outward) inside the image: the layer that is blurred, toned
    /// and sampled (samples clamp to it).
    let region: PixelRect
    /// The pixels the render may change: the region grown by the outer shadow's reach, inside the image.
    let canvas: PixelRect
    /// σ of the backdrop blur, pixels, and the blurred share.
    let sigma: Double, depth: Double
    let tone: GlassTone
    let recipe: GlassRecipe
    let surface: GlassSurface
    let scale: Double
    let dispersion: Double

    /// Nil when nothing is drawn: identity, no member with a non-empty frame, a scale that is not
    /// a positive finite number, or a glass wholly outside the image.
    init?(_ container: GlassContainer, scale: Double, width: Int, height: Int) {
        let effect = container.effect
        guard effect.variant != .identity, scale.isFinite, scale > 0 else { return nil }
        let members = container.members.filter { !$0.frame.isEmpty }.map { ($0.shape, $0.frame) }
        guard !members.isEmpty else { return nil }
        let spacing = container.spacing.isFinite ? min(GlassContainer.spacingSpec.range.upperBound, max(0, container.spacing)) : 0
        surface = GlassSurface(members, scale: scale, k: 2 * spacing * scale)
        recipe = GlassRecipe(
            effect.variant, effect.appearance, shortSide: surface.shortSide / scale,
            reduceTransparency: effect.reduceTransparency, increaseContrast: effect.increaseContrast)
        let image = PixelRect(x: 0, y: 0, width: width, height: height)
        guard let box = surface.bounds.outerPixelRect, let region = box.intersection(image) else { return nil }
        self.region = region
        let reach = Int((recipe.outerShadowReach * scale).rounded(.up)) + 1
        canvas = box.insetBy(-reach).intersection(image) ?? region
        sigma = min(GaussianBlur.sigmaSpec.range.upperBound, recipe.sigma(scale: scale))
        depth = recipe.depth
        tone = GlassTone(recipe, tint: effect.tint)
        self.scale = scale
        dispersion = effect.dispersion
    }

    /// The shader for this plan; `tabulated` for the fast path's curves.
    func shader(tabulated: Bool) -> GlassShader {
        GlassShader(recipe, surface: surface, scale: scale, dispersion: dispersion, tabulated: tabulated)
    }
}
