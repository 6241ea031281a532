import BlurCore

extension Layer {
    /// The values showing at `time` (seconds), animations applied: Core Animation's presentation
    /// layer, one property at a time.
    public struct Presentation: Sendable {
        /// Points, in the parent's coordinates.
        public var frame: Rect
        /// As animated, before drawing clamps it to 0…1.
        public var opacity: Double
        /// Points.
        public var cornerRadius: Double
        /// The fill beneath the content.
        public var backgroundColor: Color
        /// The layer's own blur, σ in points.
        public var blurRadius: Double
    }

    /// The values showing at `time` (seconds on the scene's clock), as `CALayer.presentation()` gives them.
    public func presentation(at time: Double) -> Presentation {
        Presentation(
            frame: frameValue.value(at: time), opacity: opacityValue.value(at: time), cornerRadius: cornerRadiusValue.value(at: time),
            backgroundColor: backgroundColorValue.value(at: time), blurRadius: blurRadiusValue.value(at: time))
    }
}
