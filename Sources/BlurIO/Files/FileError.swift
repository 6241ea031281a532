/// Why a file could not be read or written.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file or standard input could not be read (or does not exist); `reason` says why.
    case cannotRead(path: String, reason: String)
    /// A file, a folder, standard output or standard error could not be written; `reason` says why.
    case cannotWrite(path: String, reason: String)
    /// The output `path` is the input file itself (the same path or the same file on disk): refused.
    case wouldOverwriteInput(path: String)
    /// No format was given and the output path's suffix names none.
    case unknownOutputFormat(path: String)

    /// A one-line message for people, naming the path ("an empty path" when it is empty).
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
