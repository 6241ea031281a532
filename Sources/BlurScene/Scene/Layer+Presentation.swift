import BlurCore

extension Layer {
    /// The values showing at `time` (seconds), animations applied: Core Animation's presentation
    /// layer, one property at a time.
    public struct Presentation: Sendable {
        public var frame: Rect
        public var opacity: Double
        public var cornerRadius: Double
        public var backgroundColor: Color
        public var blurRadius: Double
        /// nil: the material's default radius.
        public var blurEffectRadius: Double?
        public var dimmingAlpha: Double
    }

    public func presentation(at time: Double) -> Presentation {
        Presentation(
            frame: frameValue.value(at: time), opacity: opacityValue.value(at: time), cornerRadius: cornerRadiusValue.value(at: time),
            backgroundColor: backgroundColorValue.value(at: time), blurRadius: blurRadiusValue.value(at: time),
            blurEffectRadius: backdropRadiusValue?.value(at: time), dimmingAlpha: dimmingAlphaValue.value(at: time))
    }
}
