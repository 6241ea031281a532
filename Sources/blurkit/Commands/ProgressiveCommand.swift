import BlurCommandLine
import BlurKit

/// `blurkit progressive IN OUT`: BlurUIKit's progressive blur with its dimming gradient.
enum ProgressiveCommand: Command {
    static let name = "progressive"
    static let summary = "progressive (variable) blur with a dimming gradient"
    static let usage = "blurkit progressive IN OUT [options]"
    static let details = """
        Draws a progressive (variable) blur over IN, as BlurUIKit's VariableBlurView does: the blur grows
        linearly from the clear edge to the full edge, and a sine-eased dimming gradient lies on top.
        Radii are σ in points; with --scale 3 a 10-pt radius is σ 30 px. Lengths are points (40 or
        40pt) or a percentage of the region along the gradient (25%).
        """
    static let operandCount = 2...2

    static let options: [OptionSpec] =
        [
            OptionSpec(GradientDirection.spec, value: "DIR"),
            OptionSpec(VariableBlurEffect.maximumRadiusSpec, value: "R"),
            OptionSpec(VariableBlurEffect.minimumRadiusSpec, value: "R"),
            .length(
                VariableBlurEffect.blurInset.name, fractions: VariableBlurEffect.blurInset.fractions,
                help: "where maximum blur is reached, from the full edge: \(lengths(VariableBlurEffect.blurInset.fractions)) (default 0)"),
            .tint(
                "tint",
                help: "dimming colour: #RRGGBB, #RRGGBBAA, white, black, none, or background (default background: white in light, black in dark)"),
            OptionSpec(VariableBlurEffect.dimmingAlphaSpec, value: "A", defaultText: "0.5 light, 0.25 dark"),
            .length(
                VariableBlurEffect.dimmingInset.name, fractions: VariableBlurEffect.dimmingInset.fractions,
                help: "where the dimming reaches full colour, from the full edge: \(lengths(VariableBlurEffect.dimmingInset.fractions)) (default 0)"),
            .length(
                VariableBlurEffect.dimmingExtension.name, fractions: VariableBlurEffect.dimmingExtension.fractions, allowsNone: true,
                help:
                    "how far the dimming's clear end reaches past the region: \(lengths(VariableBlurEffect.dimmingExtension.fractions)), or none (default 25%)"
            ),
            OptionSpec(Appearance.spec, value: "MODE", extra: "; picks the default tint and dimming"),
            .region("region", help: "the view's frame in points, e.g. a header band (default: the whole image)"),
            OptionSpec(StandardOptions.scale, value: "K"),
        ] + StandardOptions.stillOutput

    /// How a length option's help states its forms and ranges, from the tables.
    static func lengths(_ fractions: ParameterSpec) -> String {
        let points = VariableBlurEffect.lengthSpec.range, percent = fractions.range
        return "points (\(formatNumber(points.lowerBound))…\(formatNumber(points.upperBound)) pt) or a percentage of the region "
            + "(\(formatNumber(percent.lowerBound * 100))…\(formatNumber(percent.upperBound * 100))%)"
    }

    static func run(_ arguments: ParsedArguments) throws -> String? {
        var effect = VariableBlurEffect(direction: try arguments.choice(GradientDirection.spec)!)
        effect.maximumBlurRadius = try arguments.number(VariableBlurEffect.maximumRadiusSpec)!
        effect.minimumBlurRadius = try arguments.number(VariableBlurEffect.minimumRadiusSpec)!
        effect.blurMaximumRadiusInset = try arguments.length(VariableBlurEffect.blurInset.name, fractions: VariableBlurEffect.blurInset.fractions)
        effect.dimmingFullColorInset = try arguments.length(
            VariableBlurEffect.dimmingInset.name, fractions: VariableBlurEffect.dimmingInset.fractions)
        let extensionName = VariableBlurEffect.dimmingExtension.name
        if arguments.values[extensionName]?.lowercased() == "none" {
            effect.dimmingClearExtension = nil
        } else if arguments.has(extensionName) {
            effect.dimmingClearExtension = try arguments.length(
                extensionName, fractions: VariableBlurEffect.dimmingExtension.fractions, allowsNone: true)
        }
        if let alpha = try arguments.number(VariableBlurEffect.dimmingAlphaSpec) { effect.dimmingAlpha = .constant(alpha: alpha) }
        effect.dimmingTintColor = try arguments.tint("tint", default: .systemBackground)
        let valid = try effect.validated()
        let scale = try arguments.number(StandardOptions.scale)!
        try ImageFiles.drawOverRegion(
            arguments, job: "progressive", estimate: VariableBlurEffect.estimatedBytes,
            stage: { width, height, frame, appearance, _ in
                valid.stage(width: width, height: height, scale: scale, frame: frame, appearance: appearance)
            },
            draw: { image, frame, appearance, threads in
                valid.render(over: image, frame: frame, appearance: appearance, threads: threads)
            })
        return nil
    }
}
