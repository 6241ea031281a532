/// A frosted-glass material over a backdrop: `UIVisualEffectView(effect: UIBlurEffect(style:))`.
///
/// Rendering: the backdrop inside the frame is blurred (σ = radius × scale, edges clamped to the
/// frame: full colour up to them), saturated, tinted by the style's layers, and clipped to a rounded
/// rectangle with anti-aliased corners.
///
/// Visual-effect adjustments (seed 004): `blurEffectRadius` (points; nil = the style's default,
/// 24 pt) and `dimmingAlpha` (1 = the style's own tint, 0 = blur only). Below the default radius the
/// saturation boost and the tint scale back in proportion, so a few points is a crisp
/// depth-of-field blur and 0 draws nothing at all (the bytes are unchanged). At the default radius
/// and above, the backdrop is sampled at reduced resolution (½, ¼ or ⅛, keeping σ ≥ 6 px at the
/// small size), as the system does, and scaled back up bilinearly: the blur is far wider than the
/// sampling step, so nothing pixelates.
public struct Material: Sendable, Hashable {
    /// The parameter table entry for ``blurEffectRadius``: `radius`, σ in points, 0…500, default 24.
    public static let radiusSpec = ParameterSpec(
        name: "radius", unit: "pt", range: 0...500, defaultValue: MaterialTable.blurRadius,
        summary: "blur radius (σ in points); below the default the saturation and tint scale back in proportion")
    /// The parameter table entry for ``dimmingAlpha``: `dimming`, 0…1, default 1.
    public static let dimmingSpec = ParameterSpec(
        name: "dimming", unit: "", range: 0...1, defaultValue: 1,
        summary: "opacity of the style's tint: 1 = the style's own, 0 = blur only")
    /// The parameter table entry for ``cornerRadius``: `corner-radius`, points, 0…1,000,000, default 0.
    public static let cornerRadiusSpec = ParameterSpec(
        name: "corner-radius", unit: "pt", range: 0...1_000_000, defaultValue: 0,
        summary: "corner radius of the material's rounded rectangle")

    /// The UIKit blur style: its thickness and, for a light or dark style, its appearance.
    public var style: MaterialStyle
    /// Points; nil = the style's default. NaN and negative values count as 0.
    public var blurEffectRadius: Double?
    /// 0…1, default 1. NaN counts as 0.
    public var dimmingAlpha: Double = Material.dimmingSpec.defaultValue!
    /// Points, default 0.
    public var cornerRadius: Double = Material.cornerRadiusSpec.defaultValue!

    /// Defaults: the style's own radius (24 pt) and full tint, square corners. Nothing is checked here (see ``validated()``).
    public init(
        style: MaterialStyle, blurEffectRadius: Double? = nil, dimmingAlpha: Double = Material.dimmingSpec.defaultValue!,
        cornerRadius: Double = Material.cornerRadiusSpec.defaultValue!
    ) {
        self.style = style
        self.blurEffectRadius = blurEffectRadius
        self.dimmingAlpha = dimmingAlpha
        self.cornerRadius = cornerRadius
    }

    /// Bytes a render over a `width × height` backdrop needs besides the backdrop: the output and, at
    /// most, a full-resolution blurred copy of the region with its working images.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow ? .max : pixels.partialValue * (4 + 16)
    }

    /// The style's table recipe in `appearance` (a light or dark style keeps its own), before radius and dimming scale it.
    public func recipe(for appearance: Appearance) -> MaterialRecipe {
        MaterialTable.recipe(style.thickness, style.resolved(for: appearance))
    }

    /// The radius as rendered, points.
    public var effectiveRadius: Double {
        guard let r = blurEffectRadius else { return MaterialTable.blurRadius }
        return r.isNaN || r < 0 ? 0 : min(r, Material.radiusSpec.range.upperBound)
    }

    /// This material, if every parameter is finite and inside its table's range; otherwise an error
    /// naming the first that is not. Rendering stays as lenient as UIKit (NaN or negative radii draw
    /// as 0); call this where a bad value should be refused instead, as a server or a command line should.
    public func validated() throws(ParameterError) -> Material {
        if let radius = blurEffectRadius { _ = try Material.radiusSpec.validate(radius) }
        _ = try Material.dimmingSpec.validate(dimmingAlpha)
        _ = try Material.cornerRadiusSpec.validate(cornerRadius)
        return self
    }

    /// The backdrop with the material drawn over `frame` (points, at the backdrop's scale).
    public func render(over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        try! render(over: backdrop, frame: frame, appearance: appearance, threads: threads, checkpoint: {})
    }

    /// ``render(over:frame:appearance:threads:)`` that stops when `checkpoint` throws, and throws
    /// that: it is asked inside the blur (``GaussianBlur/apply(to:threads:checkpoint:)``) and before
    /// the tint and the way back up, each one pass over the region.
    package func render(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        guard let plan = plan(width: backdrop.width, height: backdrop.height, scale: backdrop.scale, frame: frame, appearance: appearance)
        else { return backdrop }
        let region = plan.region
        let shape = plan.shape
        // `region` comes from `pixelRect(clippedTo:)`: non-empty and inside the backdrop.
        guard var small = try? backdrop.reduced(region, by: plan.factor) else { return backdrop }
        small = try GaussianBlur(clampingSigma: plan.smallSigma).apply(to: small, threads: threads, checkpoint: checkpoint)
        try checkpoint()
        Material.tint(&small, saturation: plan.tint.saturation, layers: plan.tint.layers)
        try checkpoint()
        return backdrop.drawingUpsampled(small, factor: plan.factor, into: region) { shape.coverage(x: $0, y: $1) }
    }

    /// What drawing the material over a `width × height` backdrop at `scale` takes: the region,
    /// the factor the backdrop is reduced by, the blur of the small image, its tint and the shape.
    /// Nil when nothing is drawn (radius 0, or a frame outside the backdrop).
    func plan(width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance) -> Plan? {
        guard let region = frame.pixelRect(scale: scale, clippedTo: width, height) else { return nil }
        let recipe = recipe(for: appearance)
        let radius = effectiveRadius
        let proportion = min(1, radius / recipe.blurRadius)
        let dimming = dimmingAlpha.isNaN ? 0 : min(1, max(0, dimmingAlpha))
        if radius == 0 { return nil }

        let sigma = min(GaussianBlur.sigmaSpec.range.upperBound, radius * scale)
        let saturation = 1 + (recipe.saturation - 1) * proportion
        let layers = recipe.layers.map { MaterialRecipe.Layer($0.color.withAlphaMultiplied(by: proportion * dimming), $0.mode) }
        let shape = RoundedRect.Shape(
            Rect(x: frame.x * scale, y: frame.y * scale, width: frame.width * scale, height: frame.height * scale),
            radius: cornerRadius * scale)

        // At the default radius, shrink the backdrop by 2, 4 or 8 while σ stays ≥ 6 px at the small
        // size, so the bilinear way back stays far below a level of error: no pixelation.
        var halvings = 0
        if proportion >= 1 {
            while halvings < 3 && sigma / Double(2 << halvings) >= 6
                && min(region.width, region.height) >> (halvings + 1) >= 8
            { halvings += 1 }
        }
        // The f × f mean adds (f² − 1)/12 px², the bilinear way back about f²/6: take both off the
        // blur. (At f = 1 both are nothing: the region blurred at full size.)
        let f = Double(1 << halvings)
        let added = halvings == 0 ? 0 : (f * f - 1) / 12 + f * f / 6
        let smallSigma = halvings == 0 ? sigma : (max(0, sigma * sigma - added)).squareRoot() / f
        return Plan(region: region, factor: 1 << halvings, smallSigma: smallSigma, tint: Tint(saturation: saturation, layers: layers), shape: shape)
    }

    struct Plan: Sendable {
        let region: PixelRect
        let factor: Int
        /// σ of the small image's blur, pixels (clamped into range when it is applied).
        let smallSigma: Double
        let tint: Tint
        let shape: RoundedRect.Shape
    }

    /// Saturation then the tint layers, in one pass: an opaque pixel (the usual case) goes through the
    /// layers' chained per-channel tables; others through each layer's formula. The same bytes as
    /// ``Bitmap/saturate(_:by:)`` followed by ``Bitmap/composite(_:mode:in:coverage:)`` per layer.
    static func tint(_ image: inout Bitmap, saturation: Double, layers: [MaterialRecipe.Layer]) {
        let tint = Tint(saturation: saturation, layers: layers), (w, h) = (image.width, image.height)
        image.withMutablePixels { pixels in
            Parallel.forEachBand(count: h, parts: w * h < 65536 ? 1 : nil) { rows in
                for y in rows { tint.row(pixels.row(y), pixels: w) }
            }
        }
    }

    /// ``tint(_:saturation:layers:)`` a row at a time, its tables made once.
    struct Tint: Sendable {
        let saturation: Double
        let layers: [MaterialRecipe.Layer]
        let table: [UInt8]
        let sources: [SIMD4<Double>]

        init(saturation: Double, layers: [MaterialRecipe.Layer]) {
            self.saturation = saturation
            self.layers = layers
            var chained = (0..<768).map { UInt8($0 & 255) }
            for layer in layers {
                let table = layer.mode.opaqueTable(for: layer.color)
                for i in 0..<768 { chained[i] = table[(i & ~255) + Int(chained[i])] }
            }
            table = chained
            sources = layers.map { SIMD4<Double>($0.color.red, $0.color.green, $0.color.blue, 1) * $0.color.alpha }
        }

        func row(_ row: UnsafeMutablePointer<UInt8>, pixels: Int) {
            Bitmap.saturateRow(row, pixels: pixels, by: saturation)
            guard !layers.isEmpty else { return }
            table.withUnsafeBufferPointer { table in
                for x in 0..<pixels {
                    let px = row + x * 4
                    if px[3] == 255 {
                        px[0] = table[Int(px[0])]
                        px[1] = table[256 + Int(px[1])]
                        px[2] = table[512 + Int(px[2])]
                    } else {
                        // A translucent pixel: each layer's own formula, in order.
                        for (layer, source) in zip(layers, sources) where layer.color.alpha > 0 { layer.mode.composite(source, onto: px) }
                    }
                }
            }
        }
    }
}
