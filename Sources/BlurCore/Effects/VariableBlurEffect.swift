/// A progressive blur with a dimming gradient, as BlurUIKit's `VariableBlurView` draws it: the blur
/// grows linearly from the clear edge to the full edge, and a separately shaped (sine-eased)
/// gradient of `dimmingTintColor` lies on top.
///
/// Radii are in **points** (σ of the Gaussian in points); rendering multiplies by the backdrop's
/// scale. Invalid values never trap: they are sanitised as BlurUIKit does (see each property).
public struct VariableBlurEffect: Sendable, Hashable {
    /// The parameter table entry: `max-radius`, σ in points, 0…1000, default 3.5.
    public static let maximumRadiusSpec = ParameterSpec(
        name: "max-radius", unit: "pt", range: 0...1000, defaultValue: 3.5,
        summary: "blur radius (σ in points) at the full edge")
    /// The parameter table entry: `min-radius`, σ in points, 0…1000, default 0.
    public static let minimumRadiusSpec = ParameterSpec(
        name: "min-radius", unit: "pt", range: 0...1000, defaultValue: 0,
        summary: "blur radius at the clear edge (a floor, capped at the maximum)")

    /// Where the full end is. Default `.down`: full blur at the top.
    public var direction: GradientDirection
    /// The radius at the full end, points. Default 3.5. NaN, ±∞ and negative values render as 0.
    public var maximumBlurRadius: Double = VariableBlurEffect.maximumRadiusSpec.defaultValue!
    /// The radius at the clear end, points. Default 0. Clamped to 0…maximum; NaN counts as 0.
    public var minimumBlurRadius: Double = VariableBlurEffect.minimumRadiusSpec.defaultValue!
    /// Moves the point where the maximum radius is reached inward from the full edge; the region
    /// before it stays at the maximum. nil (default) = no constant region. Invalid values count as 0;
    /// more than the view's size fills it.
    public var blurMaximumRadiusInset: GradientSizing?
    /// The dimming colour; nil draws no dimming. Default `.systemBackground`.
    public var dimmingTintColor: DynamicColor? = .systemBackground
    /// The dimming gradient's opacity; nil means 0. Default 0.5 light / 0.25 dark.
    public var dimmingAlpha: DimmingAlpha? = .default
    /// Moves the dimming's full-colour point inward from the full edge, measured on the view's
    /// original size. Relative values are clamped to 0…1, absolute ones to 0…size; invalid ones count as 0.
    public var dimmingFullColorInset: GradientSizing?
    /// Stretches the dimming's clear end beyond the view (never the blur). Default `.relative(0.25)`.
    /// NaN, ±∞, negative, or more than ``maximumExtensionFactor`` × the size: no extension.
    public var dimmingClearExtension: GradientSizing? = .relative(fraction: VariableBlurEffect.extensionFractionSpec.defaultValue!)
    /// A ramp at any angle from a start to a stop instead of BlurUIKit's gradient along
    /// ``direction``; nil (default) draws the gradient. With a ramp, σ and the dimming follow it, and
    /// ``blurMaximumRadiusInset``, ``dimmingFullColorInset`` and ``dimmingClearExtension`` do not apply.
    public var ramp: ProgressiveRamp?

    /// An extension longer than this many view sizes is taken as a mistake and ignored.
    public static let maximumExtensionFactor = 16.0

    /// An effect running `direction` (default `.down`), every other property at its default.
    public init(direction: GradientDirection = .down) {
        self.direction = direction
    }

    /// The maximum radius as rendered: 0 for NaN, ±∞ or negative.
    public var effectiveMaximumRadius: Double {
        maximumBlurRadius.isFinite && maximumBlurRadius > 0 ? maximumBlurRadius : 0
    }

    /// The blur mask's floor, minimum ÷ maximum, 0…1.
    public var minimumAlpha: Double {
        let top = effectiveMaximumRadius
        guard top > 0, !minimumBlurRadius.isNaN else { return 0 }
        return min(max(minimumBlurRadius, 0), top) / top
    }

    /// The masks and dimming frame for a view of `width × height` points; nil while either side is
    /// not a positive finite number up to 1,000,000 (BlurUIKit keeps the update pending until the
    /// view has a size).
    public func layout(width: Double, height: Double) -> VariableBlurLayout? {
        guard width.isFinite, height.isFinite, width > 0, height > 0, max(width, height) <= 1_000_000 else { return nil }
        let size = direction.isVertical ? height : width

        let length = Int(size.rounded(.up))
        let inset = max(0, blurMaximumRadiusInset?.points(in: size) ?? 0)
        let blurKey = GradientMask.Key(
            length: length, startLocation: min(1, max(0, inset / Double(length))),
            reversed: direction.isReversed, smooth: false, minimumAlpha: minimumAlpha)

        var extensionPoints = dimmingClearExtension?.points(in: size) ?? 0
        if !(extensionPoints > 0 && extensionPoints <= VariableBlurEffect.maximumExtensionFactor * size) { extensionPoints = 0 }
        let dimmingLength = Int((size + extensionPoints).rounded(.up))
        var fullInset = 0.0
        switch dimmingFullColorInset {
        case let .relative(fraction)? where fraction.isFinite: fullInset = min(1, max(0, fraction)) * size
        case let .absolute(position)? where position.isFinite: fullInset = min(size, max(0, position))
        default: break
        }
        let dimmingKey = GradientMask.Key(
            length: dimmingLength, startLocation: min(1, max(0, fullInset / Double(dimmingLength))),
            reversed: direction.isReversed, smooth: true, minimumAlpha: 0)

        let frame: Rect
        switch direction {
        case .down: frame = Rect(x: 0, y: 0, width: width, height: height + extensionPoints)
        case .up: frame = Rect(x: 0, y: -extensionPoints, width: width, height: height + extensionPoints)
        case .left: frame = Rect(x: 0, y: 0, width: width + extensionPoints, height: height)
        case .right: frame = Rect(x: -extensionPoints, y: 0, width: width + extensionPoints, height: height)
        }
        return VariableBlurLayout(blurMask: blurKey, dimmingMask: dimmingKey, dimmingFrame: frame)
    }
}

/// Where a progressive blur's pieces go for one view size.
public struct VariableBlurLayout: Sendable, Hashable {
    /// The blur mask: one entry per point along the gradient.
    public let blurMask: GradientMask.Key
    /// The dimming gradient, as long as the view plus its clear extension.
    public let dimmingMask: GradientMask.Key
    /// The dimming image's frame in the view's coordinates (points): the view's bounds grown by the
    /// extension beyond the clear edge. The blur always covers exactly the bounds.
    public let dimmingFrame: Rect
}
