/// Liquid Glass over a backdrop, as iOS 27.0 draws SwiftUI's `glassEffect(_:in:)`: the backdrop
/// blurred (more for larger Regular shapes), bent inward near the edge, toned, tinted, with a bright
/// rim and a dark edge, and — Regular — a shadow outside that deepens with size.
///
/// Rendering, in pixels (σ and lengths are converted from points once, × `scale`):
/// 1. The backdrop inside the shape's bounding box is blurred (σ = 0.57735·R + 0.5·min(R, 1), R the
///    blur radius in pixels; edges clamped to the box) and mixed with the sharp backdrop by the depth.
/// 2. It is toned (`GlassTone`: chroma in linear light, white point, contrast), tinted, and — Reduce
///    Transparency — frosted.
/// 3. Each pixel samples that layer pulled inward along the shape's normal near the edge (radial in
///    the corners), with optional dispersion, a Fresnel brightening, the rim (specular highlight and
///    dark edge) and a one-pixel anti-aliased edge (`GlassShader`).
///
/// The constants per variant and appearance are in `GlassRecipe`: Haze 2's ADR-0007 values, with the
/// blur radii and depths refitted to the iOS 27.0 grid-retention capture (`GlassFidelityTests`).
/// Premultiplied alpha throughout: an opaque backdrop stays opaque; over a transparent one the glass
/// keeps the backdrop's alpha (the rim and shadows add theirs; Reduce Transparency is opaque).
///
/// Cost: one Gaussian blur of the shape's bounding box (at ½, ¼ or ⅛ size when the whole depth is
/// blurred with σ ≥ 12 px) plus one pass over it and the shadow's margin; ``draw(in:frame:scale:threads:)``
/// writes only those pixels, ``render(over:frame:scale:threads:)`` also copies the image. The bytes are
/// the same whatever the thread count. `BLURKIT_REFERENCE=1` in the
/// environment renders ``reference(over:frame:scale:)`` instead.
public struct GlassEffect: Sendable, Hashable {
    /// The parameter table entry for ``dispersion``: `dispersion`, 0…1, default 0.
    public static let dispersionSpec = ParameterSpec(
        name: "dispersion", unit: "", range: 0...1, defaultValue: 0,
        summary: "colour fringing of the refraction, strongest at the corners; 0 = none")
    /// The parameter table entry for each component of ``tint`` (red, green, blue, alpha): `tint`, 0…1.
    public static let tintSpec = ParameterSpec(
        name: "tint", unit: "", range: 0...1, defaultValue: nil,
        summary: "tint colour components (sRGB, straight alpha); the alpha is how far the glass is mixed toward it")

    /// The material. Default ``GlassVariant/regular``.
    public var variant: GlassVariant = GlassVariant.spec.defaultValue!
    /// The tint, straight alpha: the glass's colour is mixed toward it by its alpha. Default nil: none.
    public var tint: Color?
    /// Light or dark: picks the tone, rim and shadows. Default ``Appearance/light``.
    public var appearance: Appearance = Appearance.spec.defaultValue!
    /// The outline. Default ``GlassShape/capsule``, as SwiftUI's.
    public var shape: GlassShape = .capsule
    /// Reduce Transparency: a fully blurred, frosted, opaque material that bends the backdrop a third as
    /// far. Default false.
    public var reduceTransparency = false
    /// Increase Contrast: contrast ≥ 0.16, specular ≥ 0.58, edge shadow ≥ 0.32. Default false.
    public var increaseContrast = false
    /// Dispersion strength, 0…1 (default 0): red and blue refracted further and less far than green,
    /// at the corners. NaN counts as 0; values outside 0…1 are clamped.
    public var dispersion: Double = GlassEffect.dispersionSpec.defaultValue!

    /// Glass of `variant` in `shape`; every other setting at its default unless given. Nothing is
    /// checked here (see ``validated()``).
    public init(
        _ variant: GlassVariant = GlassVariant.spec.defaultValue!, tint: Color? = nil, shape: GlassShape = .capsule,
        appearance: Appearance = Appearance.spec.defaultValue!, reduceTransparency: Bool = false, increaseContrast: Bool = false,
        dispersion: Double = GlassEffect.dispersionSpec.defaultValue!
    ) {
        self.variant = variant
        self.tint = tint
        self.shape = shape
        self.appearance = appearance
        self.reduceTransparency = reduceTransparency
        self.increaseContrast = increaseContrast
        self.dispersion = dispersion
    }

    /// This effect, if every number in it is finite and inside its table's range (the shape's corner
    /// radius, ``dispersionSpec``, each tint component against ``tintSpec``); otherwise an error
    /// naming the first that is not. Rendering is lenient (see each property); call this where a bad
    /// value should be refused instead.
    public func validated() throws(ParameterError) -> GlassEffect {
        _ = try shape.validated()
        _ = try GlassEffect.dispersionSpec.validate(dispersion)
        if let tint {
            for component in [tint.red, tint.green, tint.blue, tint.alpha] { _ = try GlassEffect.tintSpec.validate(component) }
        }
        return self
    }

    /// Bytes a render over a `width × height` backdrop needs besides the backdrop: the output, and
    /// for the glass's region (at most the whole image) its sharp copy, the toned layer, the blur's
    /// working images (``GaussianBlur/estimatedBytes(width:height:)``) and what the blur of the
    /// largest σ (16 px/pt) holds besides: measured at 12 MP, 44–50 bytes a pixel in all, so 52 are
    /// counted.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow else { return .max }
        let blur = GaussianBlur.estimatedBytes(width: width, height: height)
        let (total, overflow) = (pixels.partialValue.multipliedReportingOverflow(by: 36)).partialValue.addingReportingOverflow(blur)
        return overflow || pixels.partialValue > Int.max / 64 ? .max : total
    }

    /// The backdrop with this glass drawn in `frame`.
    /// - Parameters:
    ///   - backdrop: what the glass lies over; its own `scale` is not read.
    ///   - frame: the glass's frame in points, in the backdrop's coordinates.
    ///   - scale: pixels per point; lengths and radii in points are multiplied by it once. A scale
    ///     that is not a positive finite number, an empty frame or one outside the backdrop draws
    ///     nothing (the bytes are unchanged), as does ``GlassVariant/identity``.
    ///   - threads: how many parts the work is split into; nil = as many as suit the cores. The bytes
    ///     do not depend on it.
    public func render(over backdrop: Bitmap, frame: Rect, scale: Double, threads: Int? = nil) -> Bitmap {
        try! render(over: backdrop, frame: frame, scale: scale, threads: threads, checkpoint: {})
    }

    /// ``render(over:frame:scale:threads:)`` that stops when `checkpoint` throws, and throws that: it
    /// is asked inside the blur and before the tone pass and the shading pass.
    package func render(
        over backdrop: Bitmap, frame: Rect, scale: Double, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        var out = backdrop
        try draw(in: &out, frame: frame, scale: scale, threads: threads, checkpoint: checkpoint)
        return out
    }

    /// ``render(over:frame:scale:threads:)`` in place: `image` gets this glass drawn in `frame`, and
    /// only the glass's region and its shadow's margin are written (no copy of the whole image when
    /// `image` is not shared).
    public func draw(in image: inout Bitmap, frame: Rect, scale: Double, threads: Int? = nil) {
        try! draw(in: &image, frame: frame, scale: scale, threads: threads, checkpoint: {})
    }

    /// ``draw(in:frame:scale:threads:)`` that stops when `checkpoint` throws, and throws that; `image`
    /// is then unchanged or partly drawn.
    package func draw(in image: inout Bitmap, frame: Rect, scale: Double, threads: Int?, checkpoint: @escaping () throws -> Void) throws {
        let container = GlassContainer(effect: self, members: [GlassContainer.Member(shape, frame: frame)])
        try container.draw(in: &image, scale: scale, threads: threads, checkpoint: checkpoint)
    }

    /// σ of the backdrop blur, pixels, for this glass in `frame` at `scale`: what a Gaussian of the
    /// same region would be given, for comparisons.
    package func blurSigma(frame: Rect, scale: Double) -> Double? {
        GlassPlan(GlassContainer(effect: self, members: [GlassContainer.Member(shape, frame: frame)]), scale: scale, width: 1 << 30, height: 1 << 30)?
            .sigma
    }
}
