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

    /// One line: the input's name and what is wrong with it, or what stopped.
    public var description: String {
        switch self {
        case let .input(name, error): return "\(name): \(error)"
        case .cancelled: return "cancelled"
        case let .output(text): return text
        }
    }
}
