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
    public var isReflectionHidden = false
    /// The inner progressive blur: `.up`, 4.5 pt, no dimming tint by default.
    public var blur: VariableBlurEffect

    public init(frame: Rect) {
        self.frame = frame
        var inner = VariableBlurEffect(direction: .up)
        inner.maximumBlurRadius = 4.5
        inner.dimmingTintColor = nil
        self.blur = inner
    }

    /// The frame of the reflection half, points.
    public var reflectionFrame: Rect {
        Rect(x: frame.x, y: frame.y + frame.height / 2, width: frame.width, height: frame.height / 2)
    }

    /// Draws `content` (any size; scaled to fill the top half, clipped) and its reflection over
    /// `backdrop` at the backdrop's scale.
    public func render(content: Bitmap, over backdrop: Bitmap, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        let scale = backdrop.scale
        let top = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height / 2)
        guard let source = top.pixelRect(scale: scale, clippedTo: Int.max, Int.max), source.width > 0 else { return backdrop }
        let half = Scene.fit(content, width: source.width, height: source.height)
        var out = backdrop
        out.draw(half, atPoint: top)
        guard !isReflectionHidden else { return out }
        let alpha = reflectionAlpha.isNaN ? 0 : min(1, max(0, reflectionAlpha))
        let mirrored = half.oriented(.downMirrored)
        var reflection = out
        reflection.draw(mirrored, atPoint: reflectionFrame)
        reflection = blur.render(over: reflection, frame: reflectionFrame, appearance: appearance, threads: threads)
        // Only the reflection half takes the mirrored image, at reflectionAlpha.
        guard let region = reflectionFrame.pixelRect(scale: scale, clippedTo: out.width, out.height) else { return out }
        let mirroredRegion = try! reflection.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        out.composite(mirroredRegion, at: region, coverage: [Float](repeating: Float(alpha), count: region.width * region.height), replacing: true)
        // The dimming extension of the inner blur may reach above the split: draw it there too.
        if blur.dimmingTintColor != nil, let above = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height / 2)
            .pixelRect(scale: scale, clippedTo: out.width, out.height) {
            let dimmed = try! reflection.cropped(x: above.x, y: above.y, width: above.width, height: above.height)
            out.replacePixels(at: above.x, above.y, with: dimmed)
        }
        return out
    }
}

extension Scene {
    /// `image` scaled to fill `width × height` pixels (aspect kept, centred, overflow cropped).
    static func fit(_ image: Bitmap, width: Int, height: Int) -> Bitmap {
        Compositor.place(image, in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), mode: .fill,
                         region: PixelRect(x: 0, y: 0, width: width, height: height))
    }
}

extension Bitmap {
    /// Draws `image` source-over with its top-left corner at `frame`'s (points, at this bitmap's
    /// scale), clipped to the bitmap.
    mutating func draw(_ image: Bitmap, atPoint frame: Rect) {
        let x = Int((frame.x * scale).rounded()), y = Int((frame.y * scale).rounded())
        guard let target = PixelRect(x: x, y: y, width: image.width, height: image.height)
            .intersection(PixelRect(x: 0, y: 0, width: width, height: height)) else { return }
        let piece = target.width == image.width && target.height == image.height ? image
            : try! image.cropped(x: target.x - x, y: target.y - y, width: target.width, height: target.height)
        composite(piece, at: target)
    }
}
