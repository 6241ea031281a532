import BlurCore
import BlurIO

/// The options several commands share, declared once.
public enum StandardOptions {
    /// `--threads`: 1…1024 parts, whole; no default (all cores).
    public static let threads = ParameterSpec(
        name: "threads", unit: "", range: 1...1024, defaultValue: nil, integer: true,
        summary: "split the work into this many parts; the output is the same for any value")
    /// `--scale`: pixels per point, 0.01…16, default 1.
    public static let scale = Bitmap.scaleSpec.named("scale", summary: "pixels per point of the image: radii and regions are in points")
    /// `--max-pixels`: the pixel-count limit, checked before decoding; default ``ImageLimits/defaultMaximumPixelCount``.
    public static let maxPixels = ParameterSpec(
        name: "max-pixels", unit: "px", range: 1...Double(1 << 40), defaultValue: Double(ImageLimits.defaultMaximumPixelCount), integer: true,
        summary: "refuse images with more pixels than this, checked before decoding")
    /// `--memory-budget`: one job's memory limit in MB (2²⁰ bytes); default 4096, ``ImageLimits/defaultMemoryBudget``.
    public static let memoryBudget = ParameterSpec(
        name: "memory-budget", unit: "MB", range: 1...Double(1 << 30), defaultValue: Double(ImageLimits.defaultMemoryBudget >> 20), integer: true,
        summary: "refuse a job whose estimated memory exceeds this")

    /// `--format FMT`: the output format; by default from OUT's suffix, needed when OUT is `-`.
    public static let format = OptionSpec(ImageFormat.spec, value: "FMT", extra: " (default: from OUT's suffix; needed when OUT is -)")
    /// `--quality Q`: JPEG and WebP quality, 1…100, default 90.
    public static let quality = OptionSpec(ImageFile.qualitySpec, value: "Q")
    /// `--compression L`: the PNG zlib level, 0…9, default 1.
    public static let compression = OptionSpec(ImageFile.compressionSpec, value: "L")
    /// `--quiet`: a flag that turns the progress line off.
    public static let quiet = OptionSpec(name: "quiet", value: nil, help: "no progress line")

    /// `--max-pixels` and `--memory-budget`.
    public static let limits = [OptionSpec(maxPixels, value: "N"), OptionSpec(memoryBudget, value: "MB")]
    /// What a command that writes one image takes beside its operation's parameters: threads and limits.
    public static let work = [OptionSpec(threads, value: "N", defaultText: "all cores")] + limits
    /// What every command writing one image takes.
    public static let stillOutput = [format, quality, compression, OptionSpec(threads, value: "N", defaultText: "all cores")] + limits
}
