import BlurCore

/// BlurUIKit's SwiftUI `VariableBlur`: a value with chainable modifiers that configures a
/// ``VariableBlurView``. Re-applying an unchanged configuration to a view rebuilds nothing.
///
///     VariableBlur(direction: .down)
///         .maximumBlurRadius(8)
///         .dimmingTintColor(DynamicColor(.black))
///         .dimmingClearExtension(.relative(fraction: 0.25))
public struct VariableBlur: Sendable, Hashable {
    /// Everything the configuration sets, as one value.
    public private(set) var effect: VariableBlurEffect

    /// BlurUIKit's defaults, running `direction` (default `.down`: full blur at the top).
    public init(direction: GradientDirection = .down) {
        effect = VariableBlurEffect(direction: direction)
    }

    private func with<Value>(_ property: WritableKeyPath<VariableBlurEffect, Value>, _ value: Value) -> VariableBlur {
        var copy = self
        copy.effect[keyPath: property] = value
        return copy
    }

    /// A copy with the radius at the full edge, points (default 3.5; NaN, ±∞ and negative render as 0).
    public func maximumBlurRadius(_ radius: Double) -> VariableBlur { with(\.maximumBlurRadius, radius) }
    /// A copy with the radius at the clear edge, points (default 0; clamped to 0…maximum, NaN as 0).
    public func minimumBlurRadius(_ radius: Double) -> VariableBlur { with(\.minimumBlurRadius, radius) }
    /// A copy whose maximum radius is reached this far in from the full edge; nil (default) = at the edge.
    public func blurMaximumRadiusInset(_ inset: GradientSizing?) -> VariableBlur { with(\.blurMaximumRadiusInset, inset) }
    /// A copy with this dimming colour; nil draws no dimming. Default `.systemBackground`.
    public func dimmingTintColor(_ color: DynamicColor?) -> VariableBlur { with(\.dimmingTintColor, color) }
    /// A copy with this dimming opacity; nil means 0. Default 0.5 light / 0.25 dark.
    public func dimmingAlpha(_ alpha: DimmingAlpha?) -> VariableBlur { with(\.dimmingAlpha, alpha) }
    /// A copy whose dimming reaches full colour this far in from the full edge; nil (default) = at the edge.
    public func dimmingFullColorInset(_ inset: GradientSizing?) -> VariableBlur { with(\.dimmingFullColorInset, inset) }
    /// A copy whose dimming's clear end reaches this far beyond the view. Default `.relative(fraction: 0.25)`.
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
