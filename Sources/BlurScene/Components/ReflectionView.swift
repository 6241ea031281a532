import BlurCore

/// BlurUIKit's `ReflectionBlurView`: content in the top half of its bounds, and below it a mirrored,
/// progressively blurred copy — clear next to the content, fully blurred at the far (bottom) edge —
/// drawn at `reflectionAlpha`.
///
/// The split is at 50 % of the height. The inner progressive blur runs `.up` with a maximum radius of
/// 4.5 pt by default; its other properties pass through (`blur`). The dimming extension of the inner
/// blur reaches up into the content half, as upstream's does; the blur itself never does.
public final class ReflectionView {
    /// Points, in the backdrop's coordinates.
    public var frame: Rect
    /// 0…1, default 0.5 (clamped).
    public var reflectionAlpha: Double = 0.5
    /// True draws the content alone, without its reflection. Default false.
    public var isReflectionHidden = false
    /// The inner progressive blur: `.up`, 4.5 pt, no dimming tint by default.
    public var blur: VariableBlurEffect = ReflectionEffect.defaultBlur

    /// A view at `frame` (points) with upstream's defaults: alpha 0.5, reflection shown, `.up` blur of 4.5 pt.
    public init(frame: Rect) {
        self.frame = frame
    }

    /// The frame of the reflection half, points.
    public var reflectionFrame: Rect { ReflectionEffect.reflectionFrame(of: frame) }

    /// The view's settings as one value.
    public var effect: ReflectionEffect {
        ReflectionEffect(alpha: reflectionAlpha, isHidden: isReflectionHidden, blur: blur)
    }

    /// Draws `content` (any size; scaled to fill the top half, clipped) and its reflection over
    /// `backdrop` at the backdrop's scale.
    public func render(content: Bitmap, over backdrop: Bitmap, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        effect.render(content: content, over: backdrop, frame: frame, appearance: appearance, threads: threads)
    }
}
