/// `material`: one of UIKit's blur materials (`UIBlurEffect(style:)`) over a region.
///
/// Every parameter's default is the default of ``Material``'s property it sets.
public enum MaterialOperation: StreamingImageOperation {
    /// `material`.
    public static let name = "material"
    /// One line about it.
    public static let summary = "frosted-glass material (UIBlurEffect style) over a region"
    /// The paragraph of `blurkit material --help`.
    public static let details = """
        Draws one of UIKit's blur materials over IN: the backdrop in the region blurred (\(formatNumber(Material.radiusSpec.defaultValue!)) pt by default),
        saturated and tinted with the style's layers, clipped to a rounded rectangle. --radius and
        --dimming are BlurUIKit's blurEffectRadius and dimmingAlpha: below the default radius the
        saturation and tint scale back in proportion; --radius 0 leaves the image unchanged.
        """

    /// The style (``MaterialStyle/spec``).
    public static let style = OperationParameter.choice("style", MaterialStyle.spec, placeholder: "STYLE")
    /// Light or dark.
    public static let appearance = BlurOperation.appearance(summary: "the interface style")
    /// The material's frame.
    public static let region = BlurOperation.region(summary: "the material's frame")
    /// ``Material/cornerRadius`` (a scene layer has its own).
    public static let cornerRadius = OperationParameter.number(
        "cornerRadius", flag: "corner-radius", Material.cornerRadiusSpec, placeholder: "R", in: [.commandLine, .http, .javascript])
    /// ``Material/blurEffectRadius``.
    public static let blurEffectRadius = OperationParameter.number("blurEffectRadius", flag: "radius", Material.radiusSpec, placeholder: "R")
    /// ``Material/dimmingAlpha``.
    public static let dimmingAlpha = OperationParameter.number("dimmingAlpha", flag: "dimming", Material.dimmingSpec, placeholder: "A")

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [
            style.parameter, appearance.parameter, region.parameter, cornerRadius.parameter, blurEffectRadius.parameter, dimmingAlpha.parameter,
            BlurOperation.scale.parameter,
        ]
    }

    /// The material the arguments describe, checked.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Material {
        var material = Material(style: arguments[style] ?? .systemMaterial)
        material.blurEffectRadius = arguments.given(blurEffectRadius)
        material.dimmingAlpha = arguments[dimmingAlpha] ?? material.dimmingAlpha
        material.cornerRadius = arguments[cornerRadius] ?? material.cornerRadius
        return try material.validated()
    }

    /// The material over the context's frame, its corners rounded by the context's radius where it has none of its own.
    public static func draw(_ effect: Material, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        var effect = effect
        effect.cornerRadius = max(effect.cornerRadius, context.cornerRadius)
        return try effect.render(
            over: image, frame: context.frame, appearance: context.appearance, threads: context.threads, checkpoint: context.checkpoint)
    }

    /// ``Material/estimatedBytes(width:height:)``.
    public static func estimatedBytes(width: Int, height: Int) -> Int { Material.estimatedBytes(width: width, height: height) }

    /// The material's stage over the context's frame; none when it draws nothing.
    package static func stages(_ effect: Material, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        effect.stage(width: width, height: height, scale: scale, frame: context.frame, appearance: context.appearance, threads: context.threads)
            .map { [$0] } ?? []
    }
}
