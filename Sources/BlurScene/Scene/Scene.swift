import BlurCore

/// A root layer of a given size (points) with a background, a clock for its transactions, and a
/// compositor: `render(at:scale:)` is a pure function of the layer tree and the time.
public final class Scene {
    /// Points.
    public let width: Double, height: Double
    /// Fills the canvas beneath the layers. Default white.
    public var backgroundColor: Color
    /// Light or dark: picks the materials' and dimming colours' variants. Default light.
    public var appearance: Appearance = .light
    /// Spans the scene; only its sublayers are drawn, not its own content, background or filters.
    public let root: Layer

    /// The parameter table entry of a render's scale: `scale`, 0.01…16 px/pt, default 1.
    public static let scaleSpec = Bitmap.scaleSpec.named("scale", summary: "pixels per point of the rendered frames")

    /// A scene `width × height` points (positive and finite, or rendering throws) over `backgroundColor`, default white.
    public init(width: Double, height: Double, backgroundColor: Color = .white) {
        self.width = width
        self.height = height
        self.backgroundColor = backgroundColor
        self.root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
    }

    /// Adds `layer` to ``root``, above the layers already there.
    public func addLayer(_ layer: Layer) { root.addSublayer(layer) }

    /// UIKit's `UIView.animate(withDuration:delay:options:animations:)`, at `time` on the scene's
    /// clock: every animatable property set in `changes` animates from what shows at `time`.
    public func animate(at time: Double, duration: Double, delay: Double = 0, curve: TimingCurve = .default, _ changes: () -> Void) {
        Transaction.$current.withValue(Transaction(time: time, animation: Animation(duration: duration, delay: delay, curve: curve))) {
            changes()
        }
    }

    /// Changes made at `time` without animation.
    public func at(_ time: Double, _ changes: () -> Void) {
        Transaction.$current.withValue(Transaction(time: time, animation: nil)) { changes() }
    }

    /// The scene at `time` (seconds) and `scale` (pixels per point), premultiplied RGBA. Reads the
    /// layer tree without changing it: frames of one scene may render concurrently as long as no
    /// thread changes the tree meanwhile.
    /// - Throws: `ParameterError` for a scale or size that is not a positive finite number;
    ///   `BitmapError/tooLarge(width:height:limit:)` when the canvas, or an offscreen surface that a
    ///   blur's reach widens beyond it, would pass `ImageLimits/maximumPixelCount`;
    ///   `RecordingError/cancelled(framesWritten:)` when `cancelled`, asked before each layer and
    ///   inside its effects (between their bands and batches of rows), says stop.
    public func render(
        at time: Double, scale: Double = 1, threads: Int? = nil, cancelled: @escaping @Sendable () -> Bool = { false }
    ) throws
        -> Bitmap
    {
        try renderReporting(at: time, scale: scale, threads: threads, cancelled: cancelled).image
    }

    /// ``render(at:scale:threads:cancelled:)`` and how many layers were drawn and how many culled (outside
    /// the canvas or the offscreen surface they would draw into).
    /// `surfaceBudget`: the most bytes its offscreen surfaces may hold at once (default the memory
    /// budget); over it, `BudgetError`.
    package func renderReporting(
        at time: Double, scale: Double = 1, threads: Int? = nil, cancelled: @escaping @Sendable () -> Bool = { false },
        surfaceBudget: Int? = nil
    ) throws -> (image: Bitmap, drawn: Int, culled: Int) {
        let scale = try Scene.scaleSpec.validate(scale)
        guard width.isFinite, width > 0 else { throw ParameterError.notFinite(name: "width", value: width) }
        guard height.isFinite, height > 0 else { throw ParameterError.notFinite(name: "height", value: height) }
        let w = max(1, Int(min(1e6, (width * scale).rounded()))), h = max(1, Int(min(1e6, (height * scale).rounded())))
        let canvas = try Bitmap(width: w, height: h, filledWith: backgroundColor, scale: scale)
        var compositor = Compositor(time: time, scale: scale, appearance: appearance, threads: threads)
        compositor.cancelled = cancelled
        if let surfaceBudget { compositor.surfaceBudget = surfaceBudget }
        var surface = Compositor.Surface(bitmap: canvas, window: PixelRect(x: 0, y: 0, width: w, height: h))
        for layer in root.sublayers { try compositor.draw(layer, into: &surface, originX: 0, originY: 0) }
        return (surface.bitmap, compositor.statistics.drawn, compositor.statistics.culled)
    }
}
