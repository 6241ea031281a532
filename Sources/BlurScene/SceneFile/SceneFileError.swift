/// Why a scene file could not be read. Paths name the value (`layers[2].frame.width`).
public enum SceneFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON.
    case syntax(line: Int, column: Int, message: String)
    /// A value of the wrong kind: `expected` says what was wanted, `got` what was there.
    case type(path: String, expected: String, got: String)
    /// A required value is missing.
    case missing(path: String)
    /// A key that the format does not have (often a typo).
    case unknownKey(path: String, known: [String])
    /// A value of the right kind that is not allowed.
    case invalid(path: String, message: String)
    /// An image named by the scene could not be read; `message` names the file.
    case image(path: String, file: String, message: String)
    /// An image named by the scene would take the images past the memory budget: `message` says
    /// by how much.
    case overBudget(path: String, message: String)
    /// Reading the images was stopped (the render's deadline passed or it was cancelled).
    case cancelled

    /// One line: the value's path (or the line and column) and what is wrong with it.
    public var description: String {
        switch self {
        case let .syntax(line, column, message): "line \(line), column \(column): \(message)"
        case let .type(path, expected, got): "\(path): expected \(expected), got \(got)"
        case let .missing(path): "\(path): missing"
        case let .unknownKey(path, known): "\(path): unknown key (known here: \(known.joined(separator: ", ")))"
        case let .invalid(path, message): "\(path): \(message)"
        case let .image(path, _, message): "\(path): \(message)"
        case let .overBudget(path, message): "\(path): \(message)"
        case .cancelled: "reading the scene's images was stopped"
        }
    }
}
