import BlurCore

/// The animated outputs BlurKit writes.
public enum AnimationFormat: String, Sendable, Hashable, CaseIterable {
    /// Animated WebP (libwebp's animation encoder): lossy at a quality, or lossless at 100.
    case webp
    /// GIF89a (giflib): a median-cut palette of up to 256 colours per frame with Floyd–Steinberg
    /// dithering; pixels under half alpha are transparent. Frame times are whole centiseconds (the
    /// rounding is spread so the total stays exact).
    case gif
    /// Animated PNG: frames from the PNG encoder (``PNGCodec``, level 1) in APNG chunks (`acTL`,
    /// `fcTL`, `fdAT`); lossless, and a still PNG to readers that do not know APNG.
    case apng
    /// A folder of numbered PNG files, `frame-00000.png` on.
    case pngSequence = "png"

    /// The parameter table entry: `format` for an animation (webp, gif, apng, or png for a folder of
    /// PNG frames); no default (the output path decides).
    public static let spec = ChoiceSpec<AnimationFormat>(
        name: "format", choices: [.init(["webp"], .webp), .init(["gif"], .gif), .init(["apng"], .apng), .init(["png", "frames"], .pngSequence)],
        defaultValue: nil, summary: "animation format (png: a folder of numbered PNG frames)")
    /// How many times an animation plays; 0 = forever.
    public static let loopSpec = ParameterSpec(
        name: "loop", unit: "", range: 0...65535, defaultValue: 0, integer: true, summary: "times the animation plays, 0 = forever")

    /// The format for an output path: `.webp`, `.gif`, `.png`/`.apng` (APNG), or a path without a
    /// suffix or ending in `/` (a PNG sequence in that folder); nil for anything else.
    public init?(path: String) {
        if path.hasSuffix("/") { self = .pngSequence; return }
        guard let suffix = ImageFormat.suffix(of: path) else { self = .pngSequence; return }
        switch suffix.lowercased() {
        case "webp": self = .webp
        case "gif": self = .gif
        case "png", "apng": self = .apng
        default: return nil
        }
    }
}
