import BlurCore

/// Why an image could not be read.
public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are not any format BlurKit reads.
    case unknownFormat
    /// The data ends before the image does.
    case truncated(format: ImageFormat)
    /// The decoder rejected the data; `message` is its own words.
    case corrupt(format: ImageFormat, message: String)
    /// A valid file using a feature BlurKit does not read.
    case unsupported(format: ImageFormat, feature: String)
    /// The header announces more pixels than `ImageLimits/maximumPixelCount` (for an animation:
    /// its frames together).
    case tooLarge(format: ImageFormat, width: Int, height: Int, limit: Int)
    /// An animation's frames together hold more pixels than `ImageLimits/maximumPixelCount`.
    case animationTooLarge(format: ImageFormat, frames: Int, width: Int, height: Int, limit: Int)
    /// Decoding a `width × height` image would take `needed` bytes, more than the
    /// `ImageLimits/memoryBudget` of `budget` (checked from the header, before the pixels exist).
    case overBudget(format: ImageFormat, width: Int, height: Int, needed: Int, budget: Int)
    /// The image's ICC profile declares tables that would take lcms2 `needed` bytes to read, over
    /// `limit` (`ColorProfile/byteLimit`); checked before lcms2 sees the profile.
    case profileTooLarge(format: ImageFormat, needed: Int, limit: Int)
    /// Decoding would take about `seconds`, more than the `secondsLeft` before the caller's
    /// deadline, by a decoder that cannot be stopped once it has begun (libheif's); estimated
    /// from the header, before anything is decoded.
    case tooSlow(format: ImageFormat, width: Int, height: Int, seconds: Double, secondsLeft: Double)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .empty: return "the input is empty"
        case .unknownFormat: return "the input is not a PNG, JPEG, WebP, AVIF, HEIC, GIF, PAM or PPM/PGM image"
        case let .truncated(format): return "the \(format.name) data is truncated"
        case let .corrupt(format, message): return "the \(format.name) data is corrupt: \(message)"
        case let .unsupported(format, feature): return "unsupported \(format.name): \(feature)"
        case let .tooLarge(format, w, h, limit):
            return "the \(format.name) image is \(w)×\(h), over the limit of \(pixels(limit))"
        case let .animationTooLarge(format, frames, w, h, limit):
            return "the \(format.name) animation reaches \(frames) frames of \(w)×\(h), over the limit of \(pixels(limit)) in all"
        case let .overBudget(format, w, h, needed, budget):
            return
                "decoding the \(w)×\(h) \(format.name) image needs about \(BudgetError.megabytes(needed)) MB, over the memory budget of \(BudgetError.megabytes(budget)) MB"
        case let .profileTooLarge(format, needed, limit):
            return
                "the \(format.name) image's ICC profile declares tables that need about \(BudgetError.megabytes(needed)) MB to read, over the limit of \(BudgetError.megabytes(limit)) MB"
        case let .tooSlow(format, w, h, seconds, left):
            return "decoding the \(w)×\(h) \(format.name) image would take about \(wholeSeconds(seconds)) s, over the \(secondsLeft(left))"
        }
    }
}

/// Why an image could not be written.
public enum EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The encoder could not write the image (e.g. a library error, a size the format does not take, a
    /// frame of the wrong size); `message` says why.
    case failed(format: ImageFormat, message: String)
    /// A JPEG or WebP quality outside 1…100; carries the value given.
    case invalidQuality(Int)
    /// Encoding would take about `seconds` even at the encoder's fastest setting, more than the
    /// `secondsLeft` before the caller's deadline (libheif's encoders cannot be stopped once begun).
    case tooSlow(format: ImageFormat, width: Int, height: Int, seconds: Double, secondsLeft: Double)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case let .failed(format, message): return "could not encode \(format.name): \(message)"
        case let .invalidQuality(q): return "quality must be between 1 and 100, got \(q)"
        case let .tooSlow(format, w, h, seconds, left):
            return "encoding the \(w)×\(h) image as \(format.name) would take about \(wholeSeconds(seconds)) s, over the \(secondsLeft(left))"
        }
    }
}

extension DecodingError {
    /// Checks the memory a decoder is about to take for a `width × height` image (`bytes`, its
    /// own estimate) against `ImageLimits/memoryBudget`, before it allocates any of it.
    static func checkBudget(_ format: ImageFormat, width: Int, height: Int, bytes: Int) throws(DecodingError) {
        let budget = ImageLimits.memoryBudget
        if bytes > budget { throw .overBudget(format: format, width: width, height: height, needed: bytes, budget: budget) }
    }

    /// Checks a size a header announced, before anything is allocated for it.
    static func checkSize(_ format: ImageFormat, width: Int, height: Int) throws(DecodingError) {
        guard width > 0, height > 0 else {
            throw .corrupt(format: format, message: "image size \(width)×\(height) is invalid")
        }
        let limit = ImageLimits.maximumPixelCount
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit {
            throw .tooLarge(format: format, width: width, height: height, limit: limit)
        }
    }
}

/// `1 pixel`, `268435456 pixels`.
func pixels(_ count: Int) -> String { count == 1 ? "1 pixel" : "\(count) pixels" }

/// Seconds rounded up, at least 1: `42`.
func wholeSeconds(_ seconds: Double) -> Int { seconds.isFinite ? max(1, Int(seconds.rounded(.up))) : Int.max }

/// `12 s left before the deadline`, `0.9 s left …` (tenths under 10 s, never shown as 0),
/// `time left (none: the deadline has passed)`.
func secondsLeft(_ seconds: Double) -> String {
    guard seconds > 0 else { return "time left (none: the deadline has passed)" }
    let shown = seconds >= 10 ? "\(Int(seconds.rounded(.down)))" : "\(Double(max(1, Int((seconds * 10).rounded(.down)))) / 10)"
    return "\(shown) s left before the deadline"
}

extension DecodingError {
    /// Whether this is a limit the reader refused (pixels, frames, memory, a profile's size, the
    /// time left) rather than a file it cannot read: 413 over HTTP, not 422.
    public var isLimit: Bool {
        switch self {
        case .tooLarge, .animationTooLarge, .overBudget, .profileTooLarge, .tooSlow: return true
        default: return false
        }
    }
}
