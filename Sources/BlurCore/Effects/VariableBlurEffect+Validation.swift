/// Strict checking for callers that should refuse a bad value rather than draw it as BlurUIKit does.
extension VariableBlurEffect {
    /// The range of a relative inset (a fraction of the view's size).
    static let insetFractionRange = 0.0...1.0
    /// The range of an absolute inset or extension, points.
    static let lengthRange = 0.0...1_000_000.0

    /// This effect, if every number in it is finite and inside its range: the radii by their tables,
    /// insets 0…1 of the size or 0…1,000,000 pt, the clear extension 0…``maximumExtensionFactor`` sizes,
    /// dimming alphas 0…1. Otherwise an error naming the first parameter that is not. Rendering never
    /// needs this: it sanitises each value as its property says.
    public func validated() throws(ParameterError) -> VariableBlurEffect {
        _ = try VariableBlurEffect.maximumRadiusSpec.validate(maximumBlurRadius)
        _ = try VariableBlurEffect.minimumRadiusSpec.validate(minimumBlurRadius)
        try Self.check(blurMaximumRadiusInset, name: "blur-maximum-radius-inset", fractions: Self.insetFractionRange)
        try Self.check(dimmingFullColorInset, name: "dimming-full-color-inset", fractions: Self.insetFractionRange)
        try Self.check(dimmingClearExtension, name: "dimming-clear-extension", fractions: 0...Self.maximumExtensionFactor)
        switch dimmingAlpha {
        case let .constant(alpha)?:
            try Self.check(alpha, name: "dimming-alpha", range: 0...1, unit: "")
        case let .interfaceStyle(light, dark)?:
            try Self.check(light, name: "dimming-alpha (light)", range: 0...1, unit: "")
            try Self.check(dark, name: "dimming-alpha (dark)", range: 0...1, unit: "")
        case nil:
            break
        }
        return self
    }

    private static func check(_ sizing: GradientSizing?, name: String, fractions: ClosedRange<Double>) throws(ParameterError) {
        switch sizing {
        case let .relative(fraction)?: try check(fraction, name: name, range: fractions, unit: "× size")
        case let .absolute(position)?: try check(position, name: name, range: lengthRange, unit: "pt")
        case nil: break
        }
    }

    private static func check(_ value: Double, name: String, range: ClosedRange<Double>, unit: String) throws(ParameterError) {
        _ = try ParameterSpec(name: name, unit: unit, range: range, defaultValue: nil, summary: "").validate(value)
    }
}
