import BlurCore

/// The little JSON the service writes by hand (error bodies, metrics labels): strings quoted and
/// escaped as RFC 8259 asks. Documents with structure go through `JSONEncoder`.
public enum JSONText {
    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String { Describe.quoted(text) }
}
