import BlurCommandLine
import BlurKit

/// `blurkit material IN OUT`: a frosted-glass material over a region, as UIVisualEffectView draws it.
enum MaterialCommand: Command {
    static let name = "material"
    static let summary = "frosted-glass material (UIBlurEffect style) over a region"
    static let usage = "blurkit material IN OUT [options]"
    static let details = """
        Draws one of UIKit's blur materials over IN: the backdrop in the region blurred (24 pt by default),
        saturated and tinted with the style's layers, clipped to a rounded rectangle. --radius and
        --dimming are seed 004's blurEffectRadius and dimmingAlpha: below the default radius the
        saturation and tint scale back in proportion; --radius 0 leaves the image unchanged.
        """
    static let operandCount = 2...2

    static let options: [OptionSpec] =
        [
            OptionSpec(MaterialStyle.spec, value: "STYLE", extra: " (short names, or a full name such as systemThinMaterialDark)"),
            OptionSpec(Appearance.spec, value: "MODE"),
            .region("region", help: "the material's frame in points (default: the whole image)"),
            OptionSpec(Material.cornerRadiusSpec, value: "R"),
            OptionSpec(Material.radiusSpec, value: "R"),
            OptionSpec(Material.dimmingSpec, value: "A"),
            OptionSpec(StandardOptions.scale, value: "K"),
        ] + StandardOptions.stillOutput

    static func run(_ arguments: ParsedArguments) throws -> String? {
        var material = Material(style: try arguments.choice(MaterialStyle.spec)!)
        if arguments.has(Material.radiusSpec.name) { material.blurEffectRadius = try arguments.number(Material.radiusSpec) }
        material.dimmingAlpha = try arguments.number(Material.dimmingSpec)!
        material.cornerRadius = try arguments.number(Material.cornerRadiusSpec)!
        let valid = try material.validated()
        let scale = try arguments.number(StandardOptions.scale)!
        try ImageFiles.drawOverRegion(
            arguments, job: "material", estimate: Material.estimatedBytes,
            stage: { width, height, frame, appearance, threads in
                valid.stage(width: width, height: height, scale: scale, frame: frame, appearance: appearance, threads: threads)
            },
            draw: { image, frame, appearance, threads in
                valid.render(over: image, frame: frame, appearance: appearance, threads: threads)
            })
        return nil
    }
}
