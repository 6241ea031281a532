/// Why a file could not be read or written.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case wouldOverwriteInput(path: String)
    case unknownOutputFormat(path: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): return "cannot read \(path.isEmpty ? "an empty path" : path): \(reason)"
        case let .cannotWrite(path, reason): return "cannot write \(path.isEmpty ? "an empty path" : path): \(reason)"
        case let .wouldOverwriteInput(path): return "refusing to overwrite the input file \(path)"
        case let .unknownOutputFormat(path):
            return
                "cannot tell the output format from \(path): use a suffix (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))) or --format"
        }
    }
}
