import BlurCore

/// A value that can be animated: interpolated linearly between two of its kind.
public protocol Interpolatable: Sendable, Equatable {
    /// `self` at `t` = 0, `other` at `t` = 1; `t` may leave 0…1 (a spring's overshoot).
    func interpolated(to other: Self, at t: Double) -> Self
}

extension Double: Interpolatable {
    /// Linear; a `t` outside 0…1 extrapolates.
    public func interpolated(to other: Double, at t: Double) -> Double { self + (other - self) * t }
}

extension BlurCore.Rect: Interpolatable {
    /// Origin and size interpolated linearly, each on its own; a `t` outside 0…1 extrapolates.
    public func interpolated(to other: BlurCore.Rect, at t: Double) -> BlurCore.Rect {
        BlurCore.Rect(
            x: x.interpolated(to: other.x, at: t), y: y.interpolated(to: other.y, at: t),
            width: width.interpolated(to: other.width, at: t), height: height.interpolated(to: other.height, at: t))
    }
}

extension BlurCore.Color: Interpolatable {
    /// Interpolates premultiplied components (so a fade to clear does not darken), then clamps.
    public func interpolated(to other: BlurCore.Color, at t: Double) -> BlurCore.Color {
        mixed(with: other, at: t)
    }
}

/// How a change animates: UIKit's `UIView.animate(withDuration:delay:options:)` in one value.
public struct Animation: Sendable, Hashable {
    /// Seconds, ≥ 0 (NaN and negative count as 0). A spring settles in its own time and ignores it.
    public var duration: Double
    /// Seconds before the change starts, ≥ 0; the old value shows until then.
    public var delay: Double
    /// How the progress runs over the duration. Default `.default`, Core Animation's curve.
    public var curve: TimingCurve

    /// Durations and delays in seconds; NaN, ±∞ and negative values count as 0.
    public init(duration: Double, delay: Double = 0, curve: TimingCurve = .default) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        self.delay = delay.isFinite ? max(0, delay) : 0
        self.curve = curve
    }

    /// The length of the change itself, after the delay.
    public var activeDuration: Double {
        if case .spring = curve { return curve.settlingDuration }
        return duration
    }

    /// The fraction of the change applied `elapsed` seconds after the animation began.
    public func progress(elapsed: Double) -> Double {
        let t = elapsed - delay
        if t <= 0 { return 0 }
        let length = activeDuration
        if length <= 0 || t >= length { return 1 }
        return curve.progress(at: t / length, duration: length)
    }
}

/// A property with UIKit's animation semantics: setting it changes the **model** value at once; with
/// an animation, the **presentation** value moves there over time, starting from whatever it showed
/// at that moment (so a new animation interrupts an old one smoothly).
///
/// Rendering is a pure function of time: every change is kept with the time it was made, and
/// ``value(at:)`` replays them.
public struct Animated<Value: Interpolatable>: Sendable {
    private struct Change: Sendable {
        let time: Double
        let from: Value
        let to: Value
        let animation: Animation?
    }

    private let initial: Value
    private var changes: [Change] = []

    /// A property showing `value` from the start, with no changes yet.
    public init(_ value: Value) { initial = value }

    /// The value the property was last set to.
    public var model: Value { changes.last?.to ?? initial }

    /// Sets the model value at `time` (seconds), animated or not. Changes must come in time order;
    /// an earlier time is treated as `time` of the last change.
    public mutating func set(_ value: Value, at time: Double, animation: Animation? = nil) {
        let when = max(time.isFinite ? time : 0, changes.last?.time ?? -.infinity)
        changes.append(Change(time: when, from: self.value(at: when), to: value, animation: animation))
    }

    /// What is shown at `time`: the curve's progress as it is until the animation ends — a spring or
    /// a Bézier with a control point's y outside 0…1 passes the target, as UIKit's do — then exactly
    /// the target.
    public func value(at time: Double) -> Value {
        guard let change = changes.last(where: { $0.time <= time }) else { return initial }
        guard let animation = change.animation else { return change.to }
        let elapsed = time - change.time
        if elapsed >= animation.delay + animation.activeDuration { return change.to }
        return change.from.interpolated(to: change.to, at: animation.progress(elapsed: elapsed))
    }

    /// True when the value is still changing at `time`.
    public func isAnimating(at time: Double) -> Bool {
        guard let change = changes.last(where: { $0.time <= time }), let animation = change.animation else { return false }
        return time - change.time < animation.delay + animation.activeDuration
    }
}
