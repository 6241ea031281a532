/// Why an operation did not finish, beside the errors of its parts (`ParameterError` for a
/// value, `FileError` for a path, `BudgetError` for memory, `SceneFileError` for a scene).
public enum RenderError: Error, Sendable, CustomStringConvertible {
    /// The input cannot be decoded (or is over the pixel limit); `name` is how it was named.
    case input(name: String, DecodingError)
    /// The caller's `cancelled` said stop; nothing was written (a folder of frames keeps the
    /// `framesWritten` complete frames).
    case cancelled(framesWritten: Int)
    /// The output cannot be made as asked (an animation to standard output, a format that does not fit).
    case output(String)
    /// The output would be larger than `RenderOptions/maximumOutputBytes` (`bytes`: its size when
    /// known before encoding, else the bytes written when the limit was passed).
    case outputTooLarge(bytes: Int, limit: Int)

    /// One line: the input's name and what is wrong with it, or what stopped.
    public var description: String {
        switch self {
        case let .input(name, error): return "\(name): \(error)"
        case .cancelled: return "cancelled"
        case let .output(text): return text
        case let .outputTooLarge(bytes, limit):
            return "the output would take \(bytes > limit ? "over" : "at least") \(limit) bytes, the limit of an output in memory"
        }
    }
}
