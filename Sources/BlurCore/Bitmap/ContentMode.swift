/// How an image fits a frame of another size: UIKit's `scaleToFill`, `scaleAspectFill` and
/// `scaleAspectFit`.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    /// Both axes scaled to the frame; the aspect ratio may change.
    case stretch
    /// The aspect kept, scaled to cover the frame, centred; what overflows is cropped.
    case fill
    /// The aspect kept, scaled to fit inside the frame, centred.
    case fit

    /// The parameter table entry: `mode`, default `fill`.
    public static let spec = ChoiceSpec<ContentMode>(
        name: "mode", choices: [.init(["fill"], .fill), .init(["fit"], .fit), .init(["stretch"], .stretch)], defaultValue: .fill,
        summary: "how an image fits its frame")
}

extension Bitmap {
    /// This image scaled into `rect` (pixels of an output plane) by `mode`, as the pixels of
    /// `region` of that plane (see ``placed(scaleX:scaleY:originX:originY:region:)``).
    /// - Throws: ``BitmapError`` when `region` is empty or over the pixel limit.
    public func placed(in rect: Rect, mode: ContentMode, region: PixelRect) throws(BitmapError) -> Bitmap {
        let sx = rect.width / Double(width), sy = rect.height / Double(height)
        let (fx, fy): (Double, Double)
        switch mode {
        case .stretch: (fx, fy) = (sx, sy)
        case .fill: (fx, fy) = (max(sx, sy), max(sx, sy))
        case .fit: (fx, fy) = (min(sx, sy), min(sx, sy))
        }
        let ox = rect.x + (rect.width - Double(width) * fx) / 2, oy = rect.y + (rect.height - Double(height) * fy) / 2
        return try placed(scaleX: fx, scaleY: fy, originX: ox, originY: oy, region: region)
    }

    /// Draws `image` source-over with its top-left corner at `frame`'s origin (points, at this
    /// bitmap's scale, rounded to the nearest pixel), clipped to the bitmap.
    public mutating func draw(_ image: Bitmap, atPoint frame: Rect) {
        guard frame.x.isFinite, frame.y.isFinite, abs(frame.x * scale) < 1e9, abs(frame.y * scale) < 1e9 else { return }
        let x = Int((frame.x * scale).rounded()), y = Int((frame.y * scale).rounded())
        guard
            let target = PixelRect(x: x, y: y, width: image.width, height: image.height)
                .intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        else { return }
        let piece =
            target.width == image.width && target.height == image.height
            ? image
            : image.copying(target.offset(by: -x, -y))
        composite(piece, at: target)
    }

    /// Each pixel's alpha, 0…1, row-major: this image as a mask.
    public var alphaCoverage: [Float] {
        withPixels { pixels in
            var out = [Float](repeating: 0, count: width * height)
            for y in 0..<height {
                let row = pixels.row(y)
                for x in 0..<width { out[y * width + x] = Float(row[x * 4 + 3]) / 255 }
            }
            return out
        }
    }
}
