/// The animation context of property changes: UIKit's `UIView.animate` as a scoped value.
///
/// Inside ``Scene/animate(at:duration:delay:curve:_:)`` every animatable layer property that is set
/// records the change at that time with that animation; outside, a set is immediate (at the time of
/// the innermost ``Scene/at(_:_:)``, or part of the initial state when there is none).
public struct Transaction: Sendable {
    /// Seconds on the scene's clock.
    public var time: Double
    /// nil: the change is immediate.
    public var animation: Animation?

    /// The transaction in effect on this task: nil outside ``Scene/animate(at:duration:delay:curve:_:)`` and ``Scene/at(_:_:)``.
    @TaskLocal public static var current: Transaction?
}
