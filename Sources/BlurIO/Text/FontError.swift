/// Why text could not be drawn.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No font file was found; `searched` lists where BlurKit looked.
    case notFound(searched: [String])
    /// FreeType could not open or size the file.
    case cannotLoad(path: String, code: Int32)

    /// A one-line message; for ``notFound(searched:)`` it says how to install a font or set `BLURKIT_FONT`.
    public var description: String {
        switch self {
        case let .notFound(searched):
            return
                "no font found (looked at \(searched.joined(separator: ", "))); install one, e.g. apt-get install fonts-dejavu-core, or set BLURKIT_FONT to a .ttf file"
        case let .cannotLoad(path, code):
            return "FreeType cannot load the font \(path) (error \(code))"
        }
    }
}
