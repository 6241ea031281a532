/// Which way a progressive blur (and its dimming) runs. The names follow BlurUIKit: vertical names
/// say where the gradient flows *to*, horizontal names say where the full edge *is*.
public enum GradientDirection: String, Sendable, Hashable, CaseIterable {
    /// Full blur at the top, clear at the bottom (the default: under a status bar).
    case down
    /// Full blur at the bottom, clear at the top.
    case up
    /// Full blur at the left, clear at the right.
    case left
    /// Full blur at the right, clear at the left.
    case right

    /// The parameter table entry: `direction`, default `down`.
    public static let spec = ChoiceSpec<GradientDirection>(
        name: "direction", defaultValue: .down,
        summary: "where the full blur is (down: at the top, left: at the left)")

    /// True when the gradient runs along y.
    public var isVertical: Bool { self == .down || self == .up }

    /// True when the full end is at the far end of the axis (bottom or right): the mask is stored
    /// reversed, full at its last entry.
    public var isReversed: Bool { self == .up || self == .right }
}

/// A length along the gradient: a fraction of the view's original size, or a number of points.
public enum GradientSizing: Sendable, Hashable {
    /// `fraction` × the view's size along the gradient axis (1.5 = 150 %).
    case relative(fraction: Double)
    /// A length in points.
    case absolute(position: Double)

    /// The length in points for a view `size` points long. NaN and ±∞ give nil.
    public func points(in size: Double) -> Double? {
        let value: Double
        switch self {
        case let .relative(fraction): value = fraction * size
        case let .absolute(position): value = position
        }
        return value.isFinite ? value : nil
    }
}

/// The opacity of a dimming gradient: one value, or one per appearance.
public enum DimmingAlpha: Sendable, Hashable {
    /// One alpha for both appearances, 0…1 (clamped when read; NaN: 0).
    case constant(alpha: Double)
    /// One alpha for light mode and one for dark, each 0…1 (clamped when read; NaN: 0).
    case interfaceStyle(lightModeAlpha: Double, darkModeAlpha: Double)

    /// BlurUIKit's default: 0.5 in light mode, 0.25 in dark.
    public static let `default` = DimmingAlpha.interfaceStyle(lightModeAlpha: 0.5, darkModeAlpha: 0.25)

    /// The alpha for `appearance`, clamped to 0…1 (NaN: 0).
    public func alpha(for appearance: Appearance) -> Double {
        let value: Double
        switch self {
        case let .constant(alpha): value = alpha
        case let .interfaceStyle(light, dark): value = appearance == .light ? light : dark
        }
        return value.isNaN ? 0 : min(1, max(0, value))
    }
}
