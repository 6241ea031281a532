/// The parameter tables of the progressive blur's lengths and alphas, and strict checking for
/// callers that should refuse a bad value rather than draw it as BlurUIKit does.
extension VariableBlurEffect {
    /// An inset or extension given in points.
    public static let lengthSpec = ParameterSpec(
        name: "inset", unit: "pt", range: 0...1_000_000, defaultValue: 0, summary: "a length along the gradient in points")
    /// An inset given as a fraction of the view's size along the gradient.
    public static let insetFractionSpec = ParameterSpec(
        name: "inset", unit: "× size", range: 0...1, defaultValue: 0, summary: "a fraction of the view's size")
    /// The clear extension given as a fraction of the view's size.
    public static let extensionFractionSpec = ParameterSpec(
        name: "extension", unit: "× size", range: 0...maximumExtensionFactor, defaultValue: 0.25,
        summary: "how far the dimming's clear end reaches past the view, as a fraction of its size")
    /// The dimming gradient's opacity.
    public static let dimmingAlphaSpec = ParameterSpec(
        name: "dimming", unit: "", range: 0...1, defaultValue: nil,
        summary: "opacity of the dimming gradient")

    /// The three lengths, each with the fraction spec that bounds it when relative.
    public static let blurInset = (name: "blur-inset", fractions: insetFractionSpec)
    /// ``dimmingFullColorInset``: `dimming-inset`, fractions 0…1.
    public static let dimmingInset = (name: "dimming-inset", fractions: insetFractionSpec)
    /// ``dimmingClearExtension``: `dimming-extension`, fractions 0…``maximumExtensionFactor``.
    public static let dimmingExtension = (name: "dimming-extension", fractions: extensionFractionSpec)

    /// This effect, if every number in it is finite and inside its table's range: the radii,
    /// the insets (``lengthSpec`` or ``insetFractionSpec``), the clear extension (``lengthSpec`` or
    /// ``extensionFractionSpec``) and the dimming alphas (``dimmingAlphaSpec``). Otherwise an error
    /// naming the first parameter that is not. Rendering never needs this: it sanitises each value
    /// as its property says.
    public func validated() throws(ParameterError) -> VariableBlurEffect {
        _ = try VariableBlurEffect.maximumRadiusSpec.validate(maximumBlurRadius)
        _ = try VariableBlurEffect.minimumRadiusSpec.validate(minimumBlurRadius)
        _ = try ramp?.validated()
        try Self.check(blurMaximumRadiusInset, Self.blurInset)
        try Self.check(dimmingFullColorInset, Self.dimmingInset)
        try Self.check(dimmingClearExtension, Self.dimmingExtension)
        switch dimmingAlpha {
        case let .constant(alpha)?:
            _ = try Self.dimmingAlphaSpec.validate(alpha)
        case let .interfaceStyle(light, dark)?:
            _ = try Self.dimmingAlphaSpec.named("dimming (light)").validate(light)
            _ = try Self.dimmingAlphaSpec.named("dimming (dark)").validate(dark)
        case nil:
            break
        }
        return self
    }

    /// Checks a length against the table its form (points or fraction) belongs to.
    public static func check(_ sizing: GradientSizing?, _ parameter: (name: String, fractions: ParameterSpec)) throws(ParameterError) {
        switch sizing {
        case let .relative(fraction)?: _ = try parameter.fractions.named(parameter.name).validate(fraction)
        case let .absolute(position)?: _ = try lengthSpec.named(parameter.name).validate(position)
        case nil: break
        }
    }
}
