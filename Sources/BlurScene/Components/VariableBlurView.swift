import BlurCore

/// BlurUIKit's `VariableBlurView`, rendered in software: a progressive blur of whatever lies behind
/// its frame, with an optional dimming gradient on top.
///
/// Set its properties, then `render(over:appearance:)` a backdrop. As in BlurUIKit, setting a
/// property marks the view for update, and the next render regenerates only what that property
/// affects: a mask is fetched again only when its parameters changed (and built only when the shared
/// cache has no equal one); changing the tint colour or the dimming alpha touches no mask.
/// Not thread-safe: use a view from one thread at a time.
public final class VariableBlurView {
    /// Which way the blur runs: `GradientDirection`.
    public typealias Direction = GradientDirection
    /// A length along the gradient, a fraction of the view's size or points: `BlurCore/GradientSizing`.
    public typealias GradientSizing = BlurCore.GradientSizing
    /// The dimming's opacity, one value or one per appearance: `BlurCore/DimmingAlpha`.
    public typealias DimmingAlpha = BlurCore.DimmingAlpha

    /// The view's frame in points, in the backdrop's coordinates.
    public var frame: Rect { didSet { if frame != oldValue { needsLayout = true } } }

    /// Where the full blur is. Default `.down`: at the top.
    public var direction: Direction {
        get { effect.direction }
        set { update(\.direction, newValue) }
    }
    /// Points; default 3.5.
    public var maximumBlurRadius: Double {
        get { effect.maximumBlurRadius }
        set { update(\.maximumBlurRadius, newValue) }
    }
    /// Points; default 0.
    public var minimumBlurRadius: Double {
        get { effect.minimumBlurRadius }
        set { update(\.minimumBlurRadius, newValue) }
    }
    /// Where the maximum radius is reached, in from the full edge; nil (default) = at the edge. Invalid values count as 0.
    public var blurMaximumRadiusInset: GradientSizing? {
        get { effect.blurMaximumRadiusInset }
        set { update(\.blurMaximumRadiusInset, newValue) }
    }
    /// Default `.systemBackground`; nil removes the dimming.
    public var dimmingTintColor: DynamicColor? {
        get { effect.dimmingTintColor }
        set { update(\.dimmingTintColor, newValue) }
    }
    /// Default 0.5 light / 0.25 dark; nil means 0.
    public var dimmingAlpha: DimmingAlpha? {
        get { effect.dimmingAlpha }
        set { update(\.dimmingAlpha, newValue) }
    }
    /// Where the dimming reaches full colour, in from the full edge; nil (default) = at the edge. Invalid values count as 0.
    public var dimmingFullColorInset: GradientSizing? {
        get { effect.dimmingFullColorInset }
        set { update(\.dimmingFullColorInset, newValue) }
    }
    /// Default `.relative(fraction: 0.25)`.
    public var dimmingClearExtension: GradientSizing? {
        get { effect.dimmingClearExtension }
        set { update(\.dimmingClearExtension, newValue) }
    }

    /// Everything the view draws, as one value.
    public private(set) var effect: VariableBlurEffect
    /// The blur mask in use (nil until the first layout with a size).
    public private(set) var blurMask: GradientMask?
    /// The dimming gradient in use.
    public private(set) var dimmingMask: GradientMask?
    /// The dimming image's frame in the view's coordinates (points), after the last layout.
    public private(set) var dimmingFrame: Rect?
    /// How many times a layout has changed the view's masks: re-applying equal values never does.
    public private(set) var maskUpdateCount = 0

    private let cache: GradientMaskCache
    private var needsLayout = true

    /// A view at `frame` (points, default zero size) with BlurUIKit's defaults; masks come from `cache`, default the shared one.
    public init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), direction: Direction = .down, cache: GradientMaskCache = .shared) {
        self.frame = frame
        self.effect = VariableBlurEffect(direction: direction)
        self.cache = cache
    }

    /// Applies every property of `effect` (as a SwiftUI update does); equal values change nothing.
    public func apply(_ effect: VariableBlurEffect) {
        if effect != self.effect {
            self.effect = effect
            needsLayout = true
        }
    }

    private func update<Value: Equatable>(_ property: WritableKeyPath<VariableBlurEffect, Value>, _ value: Value) {
        guard effect[keyPath: property] != value else { return }
        effect[keyPath: property] = value
        needsLayout = true
    }

    /// Regenerates what changed since the last layout. While the size along the gradient is zero the
    /// update stays pending.
    public func layoutIfNeeded() {
        guard needsLayout, let layout = effect.layout(width: frame.width, height: frame.height) else { return }
        needsLayout = false
        dimmingFrame = layout.dimmingFrame
        let blur = blurMask?.key == layout.blurMask ? blurMask : cache.mask(for: layout.blurMask)
        let dimming = dimmingMask?.key == layout.dimmingMask ? dimmingMask : cache.mask(for: layout.dimmingMask)
        if blur !== blurMask || dimming !== dimmingMask { maskUpdateCount += 1 }
        blurMask = blur
        dimmingMask = dimming
    }

    /// The backdrop with this view drawn over it at the backdrop's scale.
    public func render(over backdrop: Bitmap, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        layoutIfNeeded()
        return effect.render(over: backdrop, frame: frame, appearance: appearance, cache: cache, threads: threads)
    }
}
