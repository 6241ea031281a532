import BlurCore

/// BlurUIKit's SwiftUI `VariableBlur`: a value with chainable modifiers that configures a
/// ``VariableBlurView``. Re-applying an unchanged configuration to a view rebuilds nothing.
///
///     VariableBlur(direction: .down)
///         .maximumBlurRadius(8)
///         .dimmingTintColor(DynamicColor(.black))
///         .dimmingClearExtension(.relative(fraction: 0.25))
public struct VariableBlur: Sendable, Hashable {
    public private(set) var effect: VariableBlurEffect

    public init(direction: GradientDirection = .down) {
        effect = VariableBlurEffect(direction: direction)
    }

    private func with<Value>(_ property: WritableKeyPath<VariableBlurEffect, Value>, _ value: Value) -> VariableBlur {
        var copy = self
        copy.effect[keyPath: property] = value
        return copy
    }

    public func maximumBlurRadius(_ radius: Double) -> VariableBlur { with(\.maximumBlurRadius, radius) }
    public func minimumBlurRadius(_ radius: Double) -> VariableBlur { with(\.minimumBlurRadius, radius) }
    public func blurMaximumRadiusInset(_ inset: GradientSizing?) -> VariableBlur { with(\.blurMaximumRadiusInset, inset) }
    public func dimmingTintColor(_ color: DynamicColor?) -> VariableBlur { with(\.dimmingTintColor, color) }
    public func dimmingAlpha(_ alpha: DimmingAlpha?) -> VariableBlur { with(\.dimmingAlpha, alpha) }
    public func dimmingFullColorInset(_ inset: GradientSizing?) -> VariableBlur { with(\.dimmingFullColorInset, inset) }
    public func dimmingClearExtension(_ fraction: GradientSizing?) -> VariableBlur { with(\.dimmingClearExtension, fraction) }

    /// Sets every property of `view` (what SwiftUI's `updateUIView` does).
    public func update(_ view: VariableBlurView) {
        view.apply(effect)
    }

    /// A view with this configuration at `frame` (points).
    public func makeView(frame: Rect) -> VariableBlurView {
        let view = VariableBlurView(frame: frame, direction: effect.direction)
        update(view)
        return view
    }
}
