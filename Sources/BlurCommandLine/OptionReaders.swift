import BlurCore
import BlurIO

extension ParsedArguments {
    /// The format of a still output: `asked` (the operation's `--format`, read by the registry),
    /// else OUT's suffix, else nil — standard output or
    /// OUT without a suffix, for the input's format (`Renderer.defaultFormat(for:)`). A suffix that
    /// names no format is refused. Checked before any work, together with OUT's folder, so that a
    /// mistake costs nothing.
    public func stillFormat(for output: String, asked: ImageFormat?) throws -> ImageFormat? {
        if output != "-" { try OutputPath.checkFolder(of: output) }
        if let asked { return asked }
        guard output != "-", ImageFormat.suffix(of: output) != nil else { return nil }
        guard let format = ImageFormat(path: output) else {
            throw CLIError.usage(FileError.unknownOutputFormat(path: output).description)
        }
        return format
    }

    /// The format of an animated output: `asked` (the operation's `--format`, read by the
    /// registry), else OUT's suffix (a folder for PNG frames).
    /// An animation cannot go to standard output.
    public func animationFormat(for output: String, asked: AnimationFormat?) throws -> AnimationFormat {
        guard output != "-" else {
            throw CLIError.usage("an animation cannot be written to standard output; give a file (.webp .gif .png .apng) or a folder for PNG frames")
        }
        let format: AnimationFormat
        if let named = asked {
            format = named
        } else {
            guard let bySuffix = AnimationFormat(path: output) else {
                throw CLIError.usage("OUT must end in .webp, .gif, .png or .apng, or name a folder for PNG frames, got \(output)")
            }
            format = bySuffix
        }
        // A folder of frames is made (with its parents) when the writer starts, before any frame.
        if format != .pngSequence { try OutputPath.checkFolder(of: output) }
        return format
    }
}

/// Checks on an output path made before the work.
public enum OutputPath {
    /// Throws unless the folder that will hold the file `path` exists.
    public static func checkFolder(of path: String) throws(FileError) {
        guard !path.isEmpty else { throw .cannotWrite(path: path, reason: "no file name given") }
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        guard AtomicFile.isFolder(folder) else { throw .cannotWrite(path: path, reason: "the folder \(folder) does not exist") }
    }
}
