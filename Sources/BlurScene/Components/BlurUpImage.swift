import BlurCore

/// SwiftUI Blocks' `BlurUpImage`: a blurred preview until the full image arrives, which then comes
/// into focus — rendered as a layer tree on a scene's clock.
///
/// It fills its frame (each image scaled to fill, the overflow clipped). The preview is blurred by
/// `blurRadius` with opaque edges and always stays beneath, so no frame is ever blank. When an image
/// is set it enters with blur `blurRadius` → 0 and opacity 0 → 1, ease-out (0, 0, 0.58, 1) over
/// 0.8 s; set back to nil it leaves the same way; with Reduce Motion both are a 0.2 s fade. While
/// there is no image and `isLoading`, a white activity indicator turns in the middle.
/// Not thread-safe: change it from one thread (rendering only reads it).
public final class BlurUpImage {
    /// The seed's default blur radius of the preview, points: 24 (BlurCore's `BlurUpTransition`).
    public static let defaultBlurRadius = BlurUpTransition.defaultBlurRadius
    /// The parameter table entry of ``blurRadius``: `radius`, points, 0…200, default ``defaultBlurRadius``.
    public static let radiusSpec = BlurUpTransition.radiusSpec
    /// Seconds the image takes to come into focus, or to leave: 0.8.
    public static let transitionDuration = BlurUpTransition.duration
    /// The longest side, pixels, of the tiny preview `blurkit blurup` starts from by default: 32
    /// (a page's placeholder, `blurkit placeholder`, is 10 px by default, as Next.js recommends).
    public static let defaultPreviewSide = 32
    /// Seconds of the fade that replaces the transition under Reduce Motion: 0.2.
    public static let reducedMotionDuration = BlurUpTransition.reducedMotionDuration
    /// The transition's curve: ease-out, cubic Bézier (0, 0, 0.58, 1).
    public static let transitionCurve = TimingCurve.cubicBezier(
        x1: BlurUpTransition.curve.x1, y1: BlurUpTransition.curve.y1, x2: BlurUpTransition.curve.x2, y2: BlurUpTransition.curve.y2)
    /// The activity indicator's side, points (UIKit's medium style).
    public static let indicatorSize = BlurUpTransition.indicatorSize

    /// The root layer: add it to a ``Scene`` (or render the component alone with
    /// `render(at:scale:)`).
    public let layer: Layer
    /// What VoiceOver reads for the image (see ``accessibility``).
    public let label: String
    /// Points, ≥ 0 (a negative radius counts as 0; NaN as 0).
    public let blurRadius: Double
    /// True when the transition is a 0.2 s fade with no blur, as under Reduce Motion. Default false.
    public let reduceMotion: Bool
    /// The full image, nil while there is none; change it with ``setImage(_:at:)``.
    public private(set) var image: Bitmap?
    /// True while the image is still expected (default); change it with ``setLoading(_:at:)``.
    public private(set) var isLoading: Bool

    private let previewLayer: Layer
    private let imageLayer: Layer
    private let indicatorLayer: Layer

    /// - Parameters:
    ///   - preview: the tiny image shown, blurred, until the full one comes.
    ///   - image: shown at once (no transition) when given here.
    ///   - label: what VoiceOver reads.
    ///   - blurRadius: the preview's blur in points (default 24; NaN counts as 0, at most 1,000).
    ///   - isLoading: whether the activity indicator turns while there is no image (default true).
    ///   - reduceMotion: a 0.2-s fade instead of the focus pull (default false).
    ///   - frame: points, in the parent's coordinates.
    public init(
        preview: Bitmap, image: Bitmap? = nil, label: String, blurRadius: Double = BlurUpImage.defaultBlurRadius,
        isLoading: Bool = true, reduceMotion: Bool = false, frame: Rect
    ) {
        self.label = label
        self.blurRadius = blurRadius.isNaN ? 0 : max(0, min(BlurUpImage.radiusSpec.range.upperBound, blurRadius))
        self.reduceMotion = reduceMotion
        self.image = image
        self.isLoading = isLoading
        let bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        layer = Layer(name: "blur-up", frame: frame)
        layer.masksToBounds = true
        previewLayer = Layer(name: "preview", frame: bounds, content: .bitmap(preview, mode: .fill))
        previewLayer.blurRadius = self.blurRadius
        previewLayer.blurIsOpaque = true
        imageLayer = Layer(name: "image", frame: bounds, content: image.map { .bitmap($0, mode: .fill) } ?? .none)
        let s = BlurUpImage.indicatorSize
        indicatorLayer = Layer(
            name: "activity indicator", frame: Rect(x: (bounds.width - s) / 2, y: (bounds.height - s) / 2, width: s, height: s),
            content: .activityIndicator(.white))
        layer.addSublayer(previewLayer)
        layer.addSublayer(imageLayer)
        layer.addSublayer(indicatorLayer)
        applyState(image != nil)
    }

    /// Sets the full image (nil removes it) at `time` on the scene's clock, with the transition.
    /// Setting the image it already has changes nothing.
    public func setImage(_ newImage: Bitmap?, at time: Double) {
        let had = image != nil
        image = newImage
        if let newImage { imageLayer.content = .bitmap(newImage, mode: .fill) }  // a leaving image keeps its pixels
        guard had != (newImage != nil) else { return }
        let duration = reduceMotion ? BlurUpImage.reducedMotionDuration : BlurUpImage.transitionDuration
        Transaction.$current.withValue(Transaction(time: time, animation: Animation(duration: duration, curve: BlurUpImage.transitionCurve))) {
            applyState(newImage != nil)
        }
    }

    /// Whether the image is still expected: the indicator shows only while loading with no image.
    public func setLoading(_ loading: Bool, at time: Double) {
        guard loading != isLoading else { return }
        isLoading = loading
        Transaction.$current.withValue(Transaction(time: time, animation: nil)) { applyState(image != nil) }
    }

    private func applyState(_ shown: Bool) {
        imageLayer.opacity = shown ? 1 : 0
        imageLayer.blurRadius = shown || reduceMotion ? 0 : blurRadius
        indicatorLayer.opacity = !shown && isLoading ? 1 : 0
    }

    /// Whether the activity indicator is drawn at `time`.
    public func showsActivityIndicator(at time: Double) -> Bool { indicatorLayer.presentation(at: time).opacity > 0 }

    /// The full image's presentation at `time`: its opacity (0…1) and blur radius (points).
    public func imagePresentation(at time: Double) -> (opacity: Double, blurRadius: Double) {
        let p = imageLayer.presentation(at: time)
        return (p.opacity, p.blurRadius)
    }

    /// What assistive technologies read: one element, the label, "Loading" while loading with no
    /// image, the image trait.
    public var accessibility: AccessibilityElement {
        AccessibilityElement(label: label, value: image == nil && isLoading ? "Loading" : "", traits: [.image])
    }

    /// The component alone, its frame's size at `scale`, at `time`.
    public func render(at time: Double, scale: Double = 1, threads: Int? = nil) throws -> Bitmap {
        let scene = Scene(width: layer.frame.width, height: layer.frame.height, backgroundColor: .clear)
        let saved = layer.frame
        layer.frameValue = Animated(Rect(x: 0, y: 0, width: saved.width, height: saved.height))
        defer { layer.frameValue = Animated(saved) }
        scene.addLayer(layer)
        return try scene.render(at: time, scale: scale, threads: threads)
    }
}

/// An accessibility element as data: what VoiceOver would read.
public struct AccessibilityElement: Sendable, Hashable {
    /// What kind of element it is, as UIKit's `UIAccessibilityTraits`.
    public enum Trait: String, Sendable, Hashable {
        /// An image (`.image`).
        case image
        /// Something that acts when activated (`.button`).
        case button
        /// The heading of a section (`.header`).
        case header
    }
    /// The element's name, read first.
    public var label: String
    /// Its current state (`Loading`), read after the label; empty for none.
    public var value: String
    /// What kind of element it is.
    public var traits: Set<Trait>

    /// An element that reads `label`, then `value`, with `traits`.
    public init(label: String, value: String, traits: Set<Trait>) {
        self.label = label
        self.value = value
        self.traits = traits
    }
}
