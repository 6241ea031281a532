/// `progressive`: BlurUIKit's `VariableBlurView` with its dimming gradient, over a region.
///
/// Every parameter's default is the default of ``VariableBlurEffect``'s property it sets.
public enum ProgressiveBlurOperation: StreamingImageOperation {
    /// `progressive`.
    public static let name = "progressive"
    /// One line about it.
    public static let summary = "progressive (variable) blur with a dimming gradient"
    /// The paragraph of `blurkit progressive --help`.
    public static let details = """
        Draws a progressive (variable) blur over IN, as BlurUIKit's VariableBlurView does: the blur grows
        linearly from the clear edge to the full edge, and a sine-eased dimming gradient lies on top.
        Radii are σ in points; with --scale 3 a 10-pt radius is σ 30 px. Lengths are points (40 or
        40pt) or a percentage of the region along the gradient (25%).
        """

    private static let standard = VariableBlurEffect()

    /// Where the blur is full (``GradientDirection/spec``).
    public static let direction = OperationParameter.choice("direction", GradientDirection.spec, placeholder: "DIR")
    /// ``ProgressiveRamp/angle``: any direction, instead of a word.
    public static let angle = OperationParameter.optionalNumber(
        "angle", ProgressiveRamp.angleSpec, absent: "the direction's: down 0, right 90, up 180, left 270", placeholder: "DEG")
    /// ``ProgressiveRamp/start``.
    public static let start = OperationParameter.number("start", ProgressiveRamp.startSpec, placeholder: "T")
    /// ``ProgressiveRamp/stop``.
    public static let stop = OperationParameter.number("stop", ProgressiveRamp.stopSpec, placeholder: "T")
    /// ``VariableBlurEffect/maximumBlurRadius``.
    public static let maximumBlurRadius = OperationParameter.number(
        "maximumBlurRadius", flag: "max-radius", VariableBlurEffect.maximumRadiusSpec, placeholder: "R")
    /// ``VariableBlurEffect/minimumBlurRadius``.
    public static let minimumBlurRadius = OperationParameter.number(
        "minimumBlurRadius", flag: "min-radius", VariableBlurEffect.minimumRadiusSpec, placeholder: "R")
    /// ``VariableBlurEffect/blurMaximumRadiusInset``.
    public static let blurMaximumRadiusInset = OperationParameter.length(
        "blurMaximumRadiusInset", flag: VariableBlurEffect.blurInset.name, fractions: VariableBlurEffect.blurInset.fractions, allowsNone: true,
        default: standard.blurMaximumRadiusInset, summary: "where maximum blur is reached, from the full edge", placeholder: "LEN")
    /// ``VariableBlurEffect/dimmingTintColor``.
    public static let dimmingTintColor = OperationParameter.color(
        "dimmingTintColor", flag: "tint", default: ParameterValue.Tint(standard.dimmingTintColor),
        summary: "dimming colour; background is white in light appearance, black in dark", placeholder: "COLOR")
    /// ``VariableBlurEffect/dimmingAlpha``, one default per appearance.
    public static let dimmingAlpha = OperationParameter.number(
        "dimmingAlpha", flag: "dimming", VariableBlurEffect.dimmingAlphaSpec,
        default: .perAppearance(
            light: .number(standard.dimmingAlpha?.alpha(for: .light) ?? 0), dark: .number(standard.dimmingAlpha?.alpha(for: .dark) ?? 0)),
        placeholder: "A")
    /// ``VariableBlurEffect/dimmingFullColorInset``.
    public static let dimmingFullColorInset = OperationParameter.length(
        "dimmingFullColorInset", flag: VariableBlurEffect.dimmingInset.name, fractions: VariableBlurEffect.dimmingInset.fractions,
        allowsNone: true, default: standard.dimmingFullColorInset, summary: "where the dimming reaches full colour, from the full edge",
        placeholder: "LEN")
    /// ``VariableBlurEffect/dimmingClearExtension``.
    public static let dimmingClearExtension = OperationParameter.length(
        "dimmingClearExtension", flag: VariableBlurEffect.dimmingExtension.name, fractions: VariableBlurEffect.dimmingExtension.fractions,
        allowsNone: true, default: standard.dimmingClearExtension, summary: "how far the dimming's clear end reaches past the region",
        placeholder: "LEN")
    /// Light or dark: picks the default tint and dimming.
    public static let appearance = BlurOperation.appearance(summary: "the interface style; picks the default tint and dimming")
    /// The view's frame.
    public static let region = BlurOperation.region(summary: "the view's frame, e.g. a header band")

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [
            direction.parameter, angle.parameter, start.parameter, stop.parameter, maximumBlurRadius.parameter, minimumBlurRadius.parameter,
            blurMaximumRadiusInset.parameter,
            dimmingTintColor.parameter, dimmingAlpha.parameter, dimmingFullColorInset.parameter, dimmingClearExtension.parameter,
            appearance.parameter, region.parameter, BlurOperation.scale.parameter,
        ]
    }

    /// A word or an angle, not both.
    public static var exclusive: [[Parameter]] { [[direction.parameter, angle.parameter]] }

    /// The effect the arguments describe, checked.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> VariableBlurEffect {
        var effect = VariableBlurEffect(direction: arguments[direction])
        effect.maximumBlurRadius = arguments[maximumBlurRadius]
        effect.minimumBlurRadius = arguments[minimumBlurRadius]
        effect.blurMaximumRadiusInset = arguments[blurMaximumRadiusInset]
        effect.dimmingFullColorInset = arguments[dimmingFullColorInset]
        effect.dimmingClearExtension = arguments[dimmingClearExtension]
        if let alpha = arguments.given(dimmingAlpha) { effect.dimmingAlpha = .constant(alpha: alpha) }
        if let tint = arguments.given(dimmingTintColor) { effect.dimmingTintColor = tint.dynamicColor }
        // An angle, or a start or stop other than the ends: the ramp, along the word's angle when no
        // angle is given (a start of 0 and a stop of 1 given mean what they mean left out: the word's gradient).
        let ramped = [
            arguments.has(angle), arguments.given(start).map { $0 != start.defaultValue() } ?? false,
            arguments.given(stop).map { $0 != stop.defaultValue() } ?? false,
        ]
        if let given = ramped.firstIndex(of: true) {
            let rampName = [angle.parameter, start.parameter, stop.parameter][given].spelled(arguments.spelling)
            for length in [blurMaximumRadiusInset, dimmingFullColorInset, dimmingClearExtension] where arguments.has(length) {
                throw .conflict(names: [arguments.spelled(length), rampName])
            }
            let ramp = ProgressiveRamp(
                angle: arguments.given(angle) ?? effect.direction.angle, start: arguments[start], stop: arguments[stop])
            guard ramp.start <= ramp.stop else {
                throw .invalidForm(
                    name: arguments.spelled(start), text: formatNumber(ramp.start),
                    expected: "a start at or before the stop (\(formatNumber(ramp.stop)))")
            }
            effect.ramp = ramp
        }
        return try effect.validated()
    }

    /// The effect over the context's frame.
    public static func draw(_ effect: VariableBlurEffect, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        try effect.render(over: image, frame: context.frame, appearance: context.appearance, threads: context.threads, checkpoint: context.checkpoint)
    }

    /// ``VariableBlurEffect/estimatedBytes(width:height:)``.
    public static func estimatedBytes(width: Int, height: Int) -> Int { VariableBlurEffect.estimatedBytes(width: width, height: height) }

    /// The effect's stage over the context's frame.
    package static func stages(_ effect: VariableBlurEffect, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        [effect.stage(width: width, height: height, scale: scale, frame: context.frame, appearance: context.appearance)]
    }
}
