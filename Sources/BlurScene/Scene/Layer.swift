import BlurCore

/// A node of the retained layer tree, as in Core Animation: a frame in its parent's coordinates
/// (points), content, opacity, a rounded clip, filters, and sublayers drawn above the content.
///
/// The properties marked *animatable* keep their history (``Animated``): setting one inside
/// ``Scene/animate(at:duration:delay:curve:_:)`` animates from what was showing at that moment.
/// Rendering reads them at a time, so a scene renders any frame of its timeline in any order.
public final class Layer {
    /// What a layer draws inside its bounds, below its sublayers.
    public enum Content: Sendable {
        /// Nothing: only the background, if any, shows.
        case none
        /// One colour filling the (rounded) bounds.
        case color(Color)
        /// Premultiplied pixels, scaled into the bounds by `mode`; a crop keeps the part `gravity`
        /// says. A reduction on whole pixels is `resize`'s (Lanczos-3; `attention` at any scale).
        case bitmap(Bitmap, mode: ContentMode, gravity: ResizeGravity = ResizeGravity.spec.defaultValue!)
        /// Colours evenly spaced from `start` to `end`, unit coordinates of the bounds (0,0 top-left
        /// … 1,1 bottom-right), interpolated in sRGB; constant beyond the ends.
        case linearGradient(colors: [Color], start: (x: Double, y: Double), end: (x: Double, y: Double))
        /// A filled vector shape, anti-aliased, non-zero winding; the path in points with (0, 0) at
        /// the layer's top-left corner. Parts outside the bounds show unless `masksToBounds`.
        case shape(Path, fill: Color)
        /// BlurUIKit's reflection view (`ReflectionEffect`): the bitmap scaled to fill the top half
        /// of the bounds, its mirrored, progressively blurred copy in the bottom half.
        case reflection(Bitmap, Reflection)
        /// UIKit's activity indicator (SwiftUI's `ProgressView()`): eight spokes around the centre of
        /// the bounds, the brightest turning once a second, in `color`; it moves with the scene time.
        case activityIndicator(Color)
    }

    /// The settings of a reflection: upstream's defaults (see `ReflectionEffect`).
    public typealias Reflection = ReflectionEffect

    /// How a bitmap fits the bounds.
    public typealias ContentMode = BlurCore.ContentMode

    /// A label for finding the layer (a scene file's `name`, ``SceneFile/layers``); never drawn. Default empty.
    public var name: String
    /// What the layer draws inside its bounds, below its sublayers. Default `.none`.
    public var content: Content = .none
    /// Clip the content, sublayers and own blur to the (rounded) bounds. Default false.
    public var masksToBounds = false
    /// How the layer and its sublayers, as one group, blend with what is beneath. Default `.normal`.
    public var blendMode: BlendMode = .normal
    /// SwiftUI's `blur(radius:opaque: true)`: the own blur clamps at the layer's bounds instead of
    /// fading into transparency, and stays inside them (opaque content stays opaque). Default false.
    public var blurIsOpaque = false
    /// An image operation of the registry applied to what is beneath, within the (rounded) bounds,
    /// before the content draws, and mixed in at the layer's opacity (``BackdropEffect``). Default nil: none.
    public var backdropFilter: BackdropEffect?
    /// A layer whose alpha (its content and sublayers, in this layer's coordinates, at its own
    /// opacity) masks this layer's content, sublayers and own blur, as `CALayer.mask`. Its backdrop
    /// filters are ignored.
    public var mask: Layer?
    /// Drawn above the content in order, the last on top; add with ``addSublayer(_:)``.
    public private(set) var sublayers: [Layer] = []

    var frameValue: Animated<Rect>
    var backgroundColorValue = Animated(Color.clear)
    var opacityValue = Animated(Layer.opacitySpec.defaultValue!)
    var cornerRadiusValue = Animated(Layer.cornerRadiusSpec.defaultValue!)
    var blurRadiusValue = Animated(Layer.blurRadiusSpec.defaultValue!)
    /// The animated number and colour parameters of the backdrop, by canonical name (those never
    /// set keep the backdrop's own value).
    var effectNumbers: [String: Animated<Double>] = [:]
    var effectColors: [String: Animated<Color>] = [:]

    /// A layer at `frame` (points, in the parent's coordinates): opacity 1, clear background, no blur, no sublayers.
    public init(name: String = "", frame: Rect, content: Content = .none) {
        self.name = name
        self.frameValue = Animated(frame)
        self.content = content
    }

    /// Adds `layer` above the sublayers already there.
    public func addSublayer(_ layer: Layer) { sublayers.append(layer) }

    /// Points, in the parent's coordinates. *Animatable.*
    public var frame: Rect {
        get { frameValue.model }
        set { Layer.record(&frameValue, newValue) }
    }
    /// Fills the (rounded) bounds beneath the content, as `CALayer.backgroundColor`. Default clear.
    /// *Animatable.*
    public var backgroundColor: Color {
        get { backgroundColorValue.model }
        set { Layer.record(&backgroundColorValue, newValue) }
    }
    /// 0…1 (clamped when drawn). *Animatable.*
    public var opacity: Double {
        get { opacityValue.model }
        set { Layer.record(&opacityValue, newValue) }
    }
    /// Points, for the clip of `masksToBounds` and of backdrop filters. *Animatable.*
    public var cornerRadius: Double {
        get { cornerRadiusValue.model }
        set { Layer.record(&cornerRadiusValue, newValue) }
    }
    /// BlurUIKit's view blur: a Gaussian of this radius (σ, points) over the layer's own rendered
    /// subtree, with transparent edges so it spreads past the frame unless `masksToBounds`. What is
    /// beneath is not blurred. *Animatable.*
    public var blurRadius: Double {
        get { blurRadiusValue.model }
        set { Layer.record(&blurRadiusValue, newValue) }
    }
    /// Sets the backdrop's number parameter `p` (clamped to its range when drawn). *Animatable*:
    /// the first change starts from the value the backdrop has in `appearance`. Nothing happens
    /// when the backdrop is not made from values (``BackdropEffect/isAnimatable``) or has no `p`.
    public func setBackdropParameter(_ p: DefaultedParameter<Double>, to value: Double, appearance: Appearance = .light) {
        setBackdropParameter(p.name, to: value, appearance: appearance)
    }

    /// Sets the backdrop's number parameter `p`, one without a default (a blur's radius), as
    /// the overload for a parameter with a default does.
    public func setBackdropParameter(_ p: OperationParameter<Double>, to value: Double, appearance: Appearance = .light) {
        setBackdropParameter(p.name, to: value, appearance: appearance)
    }

    /// Sets the backdrop's colour parameter `p`. *Animatable* (premultiplied): the first change
    /// starts from the colour the backdrop has in `appearance`.
    public func setBackdropParameter(_ p: DefaultedParameter<ParameterValue.Tint>, to value: Color, appearance: Appearance = .light) {
        setBackdropParameter(p.name, to: value, appearance: appearance)
    }

    /// The backdrop's number parameter `p` showing at `time`: animated, else as given, else its default.
    public func backdropValue(_ p: DefaultedParameter<Double>, at time: Double) -> Double? { backdropNumber(p.name, at: time) }

    /// The backdrop's number parameter `p` showing at `time`; nil when it has none.
    public func backdropValue(_ p: OperationParameter<Double>, at time: Double) -> Double? { backdropNumber(p.name, at: time) }

    private func backdropNumber(_ name: String, at time: Double) -> Double? {
        if let animated = effectNumbers[name] { return animated.value(at: time) }
        guard case let .number(v)? = backdropFilter?.value(name, appearance: .light) else { return nil }
        return v
    }

    /// Sets the number parameter called `name` (the scene reader's, which reads names generically).
    func setBackdropParameter(_ name: String, to value: Double, appearance: Appearance) {
        if effectNumbers[name] == nil {
            guard let effect = backdropFilter, effect.isAnimatable, case let .number(initial)? = effect.value(name, appearance: appearance) else {
                return
            }
            effectNumbers[name] = Animated(initial)
        }
        Layer.record(&effectNumbers[name]!, value)
    }

    /// Sets the colour parameter called `name` (the scene reader's).
    func setBackdropParameter(_ name: String, to value: Color, appearance: Appearance) {
        if effectColors[name] == nil {
            guard let effect = backdropFilter, effect.isAnimatable, case let .color(tint)? = effect.value(name, appearance: appearance) else {
                return
            }
            effectColors[name] = Animated(tint.color(for: appearance))
        }
        Layer.record(&effectColors[name]!, value)
    }

    /// The backdrop's parameters as its animations leave them (each one's last value), by name.
    func backdropEndValues() -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for (name, value) in effectNumbers { values[name] = .number(value.model) }
        for (name, value) in effectColors { values[name] = .color(.color(value.model)) }
        return values
    }

    /// The layer's effect backdrop with its animated parameters at `time`.
    func effect(_ effect: BackdropEffect, at time: Double) -> BackdropEffect {
        guard !effectNumbers.isEmpty || !effectColors.isEmpty else { return effect }
        var values: [String: ParameterValue] = [:]
        for (name, value) in effectNumbers { values[name] = .number(value.value(at: time)) }
        for (name, value) in effectColors { values[name] = .color(.color(value.value(at: time))) }
        return effect.with(values)
    }

    /// BlurUIKit's `setBlurRadiusAnimated(radius:duration:delay:)`: from the radius showing at `time`
    /// to `radius`, linear, 0.45 s by default.
    public func setBlurRadiusAnimated(radius: Double, duration: Double = 0.45, delay: Double = 0, at time: Double) {
        blurRadiusValue.set(radius, at: time, animation: Animation(duration: duration, delay: delay, curve: .linear))
    }

    static func record<Value>(_ property: inout Animated<Value>, _ value: Value) {
        if let transaction = Transaction.current {
            property.set(value, at: transaction.time, animation: transaction.animation)
        } else {
            property.set(value, at: -.infinity)
        }
    }
}

extension Layer.Content {
    /// A two-colour linear gradient.
    public static func gradient(from: Color, to: Color, start: (x: Double, y: Double), end: (x: Double, y: Double)) -> Layer.Content {
        .linearGradient(colors: [from, to], start: start, end: end)
    }
}
