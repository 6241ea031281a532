/// BlurUIKit's `ReflectionBlurView` as a value: content in the top half of a frame and, below the
/// 50 % split, a mirrored, progressively blurred copy — clear next to the content, fully blurred at
/// the bottom edge — drawn at ``alpha``.
///
/// The inner progressive blur runs `.up` with a maximum radius of 4.5 pt and no dimming tint by
/// default; its dimming extension reaches up into the content half, as upstream's does, while the
/// blur itself never does.
public struct ReflectionEffect: Sendable, Hashable {
    /// The reflection's opacity.
    public static let alphaSpec = ParameterSpec(name: "alpha", unit: "", range: 0...1, defaultValue: 0.5, summary: "opacity of the reflection")

    /// Opacity of the reflection, 0…1 (clamped; NaN draws nothing). Default 0.5.
    public var alpha: Double
    /// True draws the content alone. Default false.
    public var isHidden: Bool
    /// The inner progressive blur.
    public var blur: VariableBlurEffect

    /// Upstream's inner blur: `.up`, 4.5 pt, no dimming tint.
    public static var defaultBlur: VariableBlurEffect {
        var inner = VariableBlurEffect(direction: .up)
        inner.maximumBlurRadius = 4.5
        inner.dimmingTintColor = nil
        return inner
    }

    /// Defaults: alpha 0.5, the reflection shown, and ``defaultBlur`` when `blur` is nil. Nothing is checked here.
    public init(alpha: Double = ReflectionEffect.alphaSpec.defaultValue!, isHidden: Bool = false, blur: VariableBlurEffect? = nil) {
        self.alpha = alpha
        self.isHidden = isHidden
        self.blur = blur ?? ReflectionEffect.defaultBlur
    }

    /// The frame of the reflection half of `frame`.
    public static func reflectionFrame(of frame: Rect) -> Rect {
        Rect(x: frame.x, y: frame.y + frame.height / 2, width: frame.width, height: frame.height / 2)
    }

    /// Bytes a render over a `width × height` backdrop at `scale` with `frame` holds besides the
    /// backdrop: the content placed in the top half, two copies of the backdrop (the output and the
    /// reflection) and the inner blur's stage over the reflection's half.
    package func workingBytes(width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance) -> Int {
        let top = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height / 2)
        let placed = top.width * scale * top.height * scale * 4
        guard placed.isFinite, placed < Double(Int.max / 4) else { return .max }
        let stage = blur.stage(width: width, height: height, scale: scale, frame: ReflectionEffect.reflectionFrame(of: frame), appearance: appearance)
        let (sum, overflow) = StreamingDefaults.workingBytes(of: [stage]).addingReportingOverflow(Int(placed) + 2 * width * height * 4)
        return overflow ? .max : sum
    }

    /// `backdrop` with `content` (any size; scaled to fill the top half of `frame`, clipped) and its
    /// reflection drawn over it. `frame` is in points at the backdrop's scale.
    public func render(content: Bitmap, over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        try! render(content: content, over: backdrop, frame: frame, appearance: appearance, threads: threads, checkpoint: {})
    }

    /// ``render(content:over:frame:appearance:threads:)`` that stops when `checkpoint` throws, and
    /// throws that (inside the reflection's blur, ``VariableBlurEffect/render(over:frame:appearance:cache:threads:checkpoint:)``).
    package func render(
        content: Bitmap, over backdrop: Bitmap, frame: Rect, appearance: Appearance, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        let scale = backdrop.scale
        let top = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height / 2)
        let limit = Double(ImageLimits.maximumPixelCount)
        guard !top.isEmpty, top.width * scale * top.height * scale <= limit,
            let source = top.pixelRect(scale: scale, clippedTo: Int.max, Int.max),
            let half = try? content.placed(
                in: Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height)), mode: .fill,
                region: PixelRect(x: 0, y: 0, width: source.width, height: source.height))
        else { return backdrop }
        var out = backdrop
        out.draw(half, atPoint: top)
        guard !isHidden else { return out }
        let opacity = alpha.isNaN ? 0 : min(1, max(0, alpha))
        let below = ReflectionEffect.reflectionFrame(of: frame)
        var reflection = out
        reflection.draw(half.oriented(.downMirrored), atPoint: below)
        reflection = try blur.render(over: reflection, frame: below, appearance: appearance, threads: threads, checkpoint: checkpoint)
        // Only the reflection half takes the mirrored image, at `alpha`.
        guard let region = below.pixelRect(scale: scale, clippedTo: out.width, out.height) else { return out }
        out.composite(
            reflection.copying(region), at: region,
            coverage: [Float](repeating: Float(opacity), count: region.width * region.height), replacing: true)
        // The dimming extension of the inner blur may reach above the split: draw it there too.
        if blur.dimmingTintColor != nil, let above = top.pixelRect(scale: scale, clippedTo: out.width, out.height) {
            out.replacePixels(at: above.x, above.y, with: reflection.copying(above))
        }
        return out
    }
}
