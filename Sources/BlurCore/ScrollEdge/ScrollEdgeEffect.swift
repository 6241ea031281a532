/// The scroll-edge effect of iOS 26 (`scrollEdgeEffectStyle(_:for:)`, `UIScrollEdgeEffect`): a band
/// along one edge of a scroll view where the content passes under a bar, so the bar's controls stay
/// legible. Apple fixes the band's extent; here it is ``height`` (the limit BlurUIKit's users hit).
///
/// - **Soft**: BlurUIKit's progressive blur over the band (``VariableBlurEffect``): the blur is
///   ``maximumBlurRadius`` at the edge and 0 at the band's inner end, and the dimming gradient of the
///   bar's background (``tint``) rises to ``softOpacity`` at the edge.
/// - **Hard**: the band blurred by ``maximumBlurRadius`` throughout and covered by the background at
///   ``hardOpacity``, with a one-pixel dividing line of UIKit's `separator` colour at its inner end.
///
/// Points throughout (radii are σ in points); the band is clipped to the frame. Apple publishes no
/// numbers for the effect: the opacities and the default height are chosen to match its description
/// ("progressively more opaque toward the bar", "nearly opaque"), not measured.
public struct ScrollEdgeEffect: Sendable, Hashable {
    /// The band's extent from the edge: `height`, points, 1…10,000, default 64 (a 44-pt bar and its 20-pt fade).
    public static let heightSpec = ParameterSpec(
        name: "height", unit: "pt", range: 1...10_000, defaultValue: 64, summary: "the band's extent from the edge")
    /// The blur at the edge: `max-radius`, σ in points, 0…1,000, default 6.
    public static let maximumRadiusSpec = ParameterSpec(
        name: "max-radius", unit: "pt", range: VariableBlurEffect.maximumRadiusSpec.range, defaultValue: 6,
        summary: "blur radius (σ in points) at the edge")
    /// The soft band's dimming at the edge, light and dark.
    public static let softOpacity = DimmingAlpha.interfaceStyle(lightModeAlpha: 0.9, darkModeAlpha: 0.8)
    /// The hard band's cover: nearly opaque.
    public static let hardOpacity = 0.94
    /// UIKit's `separator`: light (60, 60, 67) at 29 %, dark (84, 84, 88) at 60 %.
    public static let separator = DynamicColor(
        light: Color(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.29),
        dark: Color(red: 84 / 255, green: 84 / 255, blue: 88 / 255, alpha: 0.6))

    /// Soft or hard. Default soft.
    public var style: ScrollEdgeStyle = ScrollEdgeStyle.spec.defaultValue!
    /// The edge. Default top.
    public var edge: ScrollEdge = ScrollEdge.spec.defaultValue!
    /// Points from the edge. Default 64.
    public var height: Double = ScrollEdgeEffect.heightSpec.defaultValue!
    /// σ in points at the edge. Default 6.
    public var maximumBlurRadius: Double = ScrollEdgeEffect.maximumRadiusSpec.defaultValue!
    /// The bar's background. Default the system background (white in light, black in dark).
    public var tint: DynamicColor = .systemBackground

    /// An effect with every property at its default.
    public init() {}

    /// This effect, if every number is finite and inside its table's range.
    public func validated() throws(ParameterError) -> ScrollEdgeEffect {
        _ = try ScrollEdgeEffect.heightSpec.validate(height)
        _ = try ScrollEdgeEffect.maximumRadiusSpec.validate(maximumBlurRadius)
        return self
    }

    /// The band in points: ``height`` from ``edge`` inside `frame`, at most the frame.
    public func band(in frame: Rect) -> Rect {
        let h = min(max(0, height), edge.direction.isVertical ? frame.height : frame.width)
        switch edge {
        case .top: return Rect(x: frame.x, y: frame.y, width: frame.width, height: h)
        case .bottom: return Rect(x: frame.x, y: frame.y + frame.height - h, width: frame.width, height: h)
        case .leading: return Rect(x: frame.x, y: frame.y, width: h, height: frame.height)
        case .trailing: return Rect(x: frame.x + frame.width - h, y: frame.y, width: h, height: frame.height)
        }
    }

    /// Bytes a render over `width × height` pixels needs besides the backdrop.
    public static func estimatedBytes(width: Int, height: Int) -> Int { VariableBlurEffect.estimatedBytes(width: width, height: height) }

    /// The effect along ``edge`` of `frame` (points) of a `width × height` image at `scale`, as
    /// stages of the streaming chain, whose held bytes the memory budget counts: soft, the
    /// progressive blur's own stage over the band; hard, the band's blur and cover drawn whole, its
    /// working images (the band and its Gaussian's) counted besides the two images the stage holds.
    package func stages(width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance, threads: Int?) -> [any RowStage] {
        let band = band(in: frame)
        guard band.width > 0, band.height > 0 else { return [] }
        switch style {
        case .soft:
            return [
                softBlur(background: tint.resolved(for: appearance)).stage(
                    width: width, height: height, scale: scale, frame: band, appearance: appearance)
            ]
        case .hard:
            let pixels = band.pixelRect(scale: scale, clippedTo: width, height)
            let working = pixels.map { $0.width * $0.height * 4 + GaussianBlur.estimatedBytes(width: $0.width, height: $0.height) } ?? 0
            return [
                WholeImageStage(width: width, height: height, scale: scale, workingBytes: working) { image, checkpoint in
                    try render(over: image, frame: frame, appearance: appearance, threads: threads, checkpoint: checkpoint)
                }
            ]
        }
    }

    /// The soft style's progressive blur over the band, dimmed to `background`.
    func softBlur(background: Color) -> VariableBlurEffect {
        var blur = VariableBlurEffect(direction: edge.direction)
        blur.maximumBlurRadius = maximumBlurRadius
        blur.dimmingTintColor = DynamicColor(background)
        blur.dimmingAlpha = ScrollEdgeEffect.softOpacity
        blur.dimmingClearExtension = nil
        return blur
    }

    /// The backdrop with the effect along ``edge`` of `frame` (points, at the backdrop's scale).
    public func render(over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        try! render(over: backdrop, frame: frame, appearance: appearance, threads: threads, checkpoint: {})
    }

    /// ``render(over:frame:appearance:threads:)`` that stops when `checkpoint` throws, and throws that.
    package func render(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        let band = band(in: frame)
        guard band.width > 0, band.height > 0 else { return backdrop }
        let background = tint.resolved(for: appearance)
        switch style {
        case .soft:
            return try softBlur(background: background).render(
                over: backdrop, frame: band, appearance: appearance, threads: threads, checkpoint: checkpoint)
        case .hard:
            var out = try backdrop.blurring(band, radius: maximumBlurRadius, threads: threads, checkpoint: checkpoint)
            try checkpoint()
            guard let pixels = band.pixelRect(scale: out.scale, clippedTo: out.width, out.height) else { return out }
            out.fill(
                pixels, with: background.withAlphaMultiplied(by: ScrollEdgeEffect.hardOpacity), coverage: [Float](repeating: 1, count: pixels.height),
                vertical: true)
            let line: PixelRect
            switch edge {
            case .top: line = PixelRect(x: pixels.x, y: pixels.y + pixels.height - 1, width: pixels.width, height: 1)
            case .bottom: line = PixelRect(x: pixels.x, y: pixels.y, width: pixels.width, height: 1)
            case .leading: line = PixelRect(x: pixels.x + pixels.width - 1, y: pixels.y, width: 1, height: pixels.height)
            case .trailing: line = PixelRect(x: pixels.x, y: pixels.y, width: 1, height: pixels.height)
            }
            out.fill(
                line, with: ScrollEdgeEffect.separator.resolved(for: appearance), coverage: [Float](repeating: 1, count: line.height), vertical: true)
            return out
        }
    }
}
