/// Where an operation reads its image: a file (a path, or `-` for standard input) or bytes in memory.
public enum ImageSource: Sendable {
    /// A file, read as the decoder goes (never whole, WebP and GIF excepted).
    case file(String)
    /// Bytes already in memory (a request's body); `name` is how messages call them.
    case bytes([UInt8], name: String)

    /// How messages name the input.
    public var name: String {
        switch self {
        case let .file(path): return path == "-" ? "standard input" : path
        case let .bytes(_, name): return name
        }
    }

    /// Opened for streaming; its decoder stops when `cancellation` says so.
    func open(_ cancellation: Cancellation = .never) throws -> InputFile {
        let file: InputFile
        switch self {
        case let .file(path): file = try InputFile(path: path)
        case let .bytes(bytes, name): file = try InputFile(bytes: bytes, name: name)
        }
        file.cancellation = cancellation
        return file
    }
}

/// Where an operation writes its result: a file, made whole atomically (or `-`, standard output),
/// or memory (the bytes are returned).
public enum ImageDestination: Sendable {
    /// A file, written as the rows come and renamed over the path when complete.
    case file(String)
    /// The bytes, returned.
    case memory
}
