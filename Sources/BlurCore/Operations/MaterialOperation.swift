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

    /// ``MaterialTable`` as data, for the web components that draw the material with the browser's
    /// compositor: `styles` (each word `style` takes as canonical: its thickness, and its appearance when it has its
    /// own) and `recipes` (per thickness and appearance: the blur σ in points, the saturation after
    /// it, the tint layers bottom first, each a colour and a CSS `mix-blend-mode`, and `transfer`:
    /// what the layers make of each byte of an opaque grey, 256 bytes, the same for every channel).
    public static var data: String? {
        func layer(_ l: MaterialRecipe.Layer) -> String {
            "{\"color\":\(Describe.quoted(l.color.hexString)),\"mode\":\(Describe.quoted(kebabCase(l.mode.rawValue)))}"
        }
        // The tint layers are grey, their blend modes separable: over an opaque backdrop they are one
        // curve per channel, the same for all three — the engine's own bytes for each input byte.
        func transfer(_ r: MaterialRecipe) -> String {
            guard var ramp = try? Bitmap(width: 256, height: 1) else { return "[]" }
            for v in 0..<256 { ramp[v, 0] = RGBA8(r: UInt8(v), g: UInt8(v), b: UInt8(v), a: 255) }
            Material.tint(
                &ramp, saturation: 1, layers: r.layers.map { .init($0.color.withAlphaMultiplied(by: Material.dimmingSpec.defaultValue!), $0.mode) })
            return "[" + (0..<256).map { String(ramp[$0, 0].r) }.joined(separator: ",") + "]"
        }
        func recipe(_ r: MaterialRecipe) -> String {
            "{\"blurRadius\":\(formatNumber(r.blurRadius)),\"saturation\":\(formatNumber(r.saturation)),\"layers\":["
                + r.layers.map(layer).joined(separator: ",") + "],\"transfer\":" + transfer(r) + "}"
        }
        // By each word the `style` parameter takes as canonical (`thin`, `systemThinMaterialDark`).
        let styles = MaterialStyle.spec.choices.map { choice in
            let style = choice.value
            let own = style.resolved(for: .light) == style.resolved(for: .dark) ? Describe.quoted(style.resolved(for: .light).rawValue) : "null"
            return "\(Describe.quoted(choice.words[0])):{\"thickness\":\(Describe.quoted(style.thickness.rawValue)),\"appearance\":\(own)}"
        }
        let recipes = MaterialThickness.allCases.map { t in
            "\(Describe.quoted(t.rawValue)):{\"light\":\(recipe(MaterialTable.recipe(t, .light))),\"dark\":\(recipe(MaterialTable.recipe(t, .dark)))}"
        }
        return "{\"styles\":{" + styles.joined(separator: ",") + "},\"recipes\":{" + recipes.joined(separator: ",") + "}}"
    }

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
        var material = Material(style: arguments[style])
        material.blurEffectRadius = arguments.given(blurEffectRadius)
        material.dimmingAlpha = arguments[dimmingAlpha]
        material.cornerRadius = arguments[cornerRadius]
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
