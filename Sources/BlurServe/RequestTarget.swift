import Foundation

/// A request target (`/blur/photos/a.jpg?sigma=8`) decoded: the route, the rest of the path, and
/// the query's parameters, with everything a path or a parameter may not hold refused.
///
/// The path and each query name and value are percent-decoded by Foundation; in the query `+` is a
/// space (the form encoding). Refused with 400: a target that does not start with `/`, a fragment,
/// malformed percent-encoding, a decoded NUL or other control character, a parameter given twice.
public struct RequestTarget: Sendable, Equatable {
    /// One query parameter.
    public struct Parameter: Sendable, Equatable {
        /// Percent-decoded, `+` read as a space; never empty.
        public let name: String
        /// Decoded as the name is; empty when the parameter has no `=`.
        public let value: String
    }

    /// The first path segment, decoded: `blur` (empty for `/`).
    public let route: String
    /// The path after the route's segment, decoded, without its leading `/`: `photos/a.jpg`.
    public let rest: String
    /// The query's parameters in order.
    public let parameters: [Parameter]

    /// The longest target taken, in bytes.
    public static let maximumLength = 8192

    /// Decodes a target as it came on the request line.
    /// - Throws: ``ServeError/badRequest(_:parameter:)`` for a target over ``maximumLength`` bytes or one the type's rules refuse.
    public init(_ raw: String) throws(ServeError) {
        guard raw.utf8.count <= RequestTarget.maximumLength else {
            throw .badRequest("the request target is over \(RequestTarget.maximumLength) bytes")
        }
        guard raw.hasPrefix("/") else { throw .badRequest("the request target must start with /") }
        guard !raw.contains("#") else { throw .badRequest("a request target has no fragment (#)") }
        let pieces = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = try RequestTarget.decode(String(pieces[0]), what: "the path")
        var segments = path.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        if segments.isEmpty { segments = [""] }
        route = String(segments[0])
        rest = segments.count > 1 ? String(segments[1]) : ""
        // `//etc/passwd`: no route, a path after it — an absolute path, never the playground.
        if route.isEmpty, segments.count > 1 { throw .forbidden("absolute paths are refused") }

        var parameters: [Parameter] = []
        if pieces.count > 1 {
            for item in pieces[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = try RequestTarget.decode(String(pair[0]).replacingOccurrences(of: "+", with: " "), what: "a parameter name")
                let value =
                    pair.count > 1
                    ? try RequestTarget.decode(String(pair[1]).replacingOccurrences(of: "+", with: " "), what: "parameter \(name)", parameter: name)
                    : ""
                guard !name.isEmpty else { throw .badRequest("a query parameter has no name") }
                guard !parameters.contains(where: { $0.name == name }) else { throw .badRequest("\(name) is given twice", parameter: name) }
                parameters.append(Parameter(name: name, value: value))
            }
        }
        self.parameters = parameters
    }

    /// A parameter's value, nil when absent.
    public subscript(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// `text` percent-decoded; `parameter`, the name of the parameter it is the value of, for the error's field.
    private static func decode(_ text: String, what: String, parameter: String? = nil) throws(ServeError) -> String {
        guard let decoded = text.removingPercentEncoding else { throw .badRequest("\(what) has malformed percent-encoding", parameter: parameter) }
        guard !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badRequest("\(what) holds a control character", parameter: parameter)
        }
        return decoded
    }
}
