import BlurCore
import BlurIO

/// The options several commands share, declared once.
public enum StandardOptions {
    /// `--threads`: 1…1024 parts, whole; no default (all cores).
    public static let threads = ParameterSpec(
        name: "threads", unit: "", range: 1...1024, defaultValue: nil, integer: true,
        summary: "split the work into this many parts; the output is the same for any value")
    /// `--max-pixels`: the pixel-count limit, checked before decoding; default ``ImageLimits/defaultMaximumPixelCount``.
    public static let maxPixels = ParameterSpec(
        name: "max-pixels", unit: "px", range: 1...Double(1 << 40), defaultValue: Double(ImageLimits.defaultMaximumPixelCount), integer: true,
        summary: "refuse images with more pixels than this, checked before decoding")
    /// `--memory-budget`: one job's memory limit in MB (2²⁰ bytes); default 4096, ``ImageLimits/defaultMemoryBudget``.
    public static let memoryBudget = ParameterSpec(
        name: "memory-budget", unit: "MB", range: 1...Double(1 << 30), defaultValue: Double(ImageLimits.defaultMemoryBudget >> 20), integer: true,
        summary: "refuse a job whose estimated memory exceeds this")

    /// `--quiet`: a flag that turns the progress line off.
    public static let quiet = OptionSpec(name: "quiet", value: nil, help: "no progress line")

    /// `--max-pixels` and `--memory-budget`.
    public static let limits = [OptionSpec(maxPixels, value: "N"), OptionSpec(memoryBudget, value: "MB")]
    /// What a command that writes one image takes beside its operation's parameters: threads and limits.
    public static let work = [OptionSpec(threads, value: "N", defaultText: "all cores")] + limits
}
