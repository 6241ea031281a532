import Foundation

/// One request as the service sees it, once libmicrohttpd has parsed it: the method, the raw
/// target (path and query exactly as sent), the headers and the body.
public struct HTTPRequest: Sendable {
    /// The method as sent on the request line: `GET`, `POST`…
    public let method: String
    /// The request target as it came on the request line, before any decoding.
    public let rawTarget: String
    /// Header values by lower-cased name (the first of repeated headers).
    public let headers: [String: String]
    /// The body, for POST (at most the server's body limit).
    public let body: [UInt8]
    /// True once the client has gone (closed or reset its connection): a render it asked for stops.
    /// A server that cannot tell leaves it false.
    public var isAbandoned: @Sendable () -> Bool = { false }
    /// When its first byte arrived: the server's time limit runs from here, through the body's
    /// upload (a server that cannot tell leaves the moment it was made).
    public var began = Date()

    /// Header names are lower-cased; of two that differ only in case, one is kept.
    public init(method: String, rawTarget: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.rawTarget = rawTarget
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// A header's value, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// A request whose body comes as a stream of chunks, as a server framework hands it over
    /// (`next` returns nil at the end): read into ``body`` up to `limit` bytes and no further.
    /// - Throws: ``ServeError/tooLarge(_:)`` (413) when `Content-Length` declares more than `limit`,
    ///   before any chunk is read, or as soon as the chunks pass it: the body is sized before memory
    ///   is spent on it.
    public init(
        method: String, rawTarget: String, headers: [String: String] = [:], limit: Int, body next: () throws -> [UInt8]?
    ) throws {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        if let declared = lowered["content-length"].flatMap(Int.init), declared > limit {
            throw ServeError.tooLarge("the body is over \(limit) bytes")
        }
        var bytes: [UInt8] = []
        while let chunk = try next() {
            guard bytes.count + chunk.count <= limit else { throw ServeError.tooLarge("the body is over \(limit) bytes") }
            bytes += chunk
        }
        self.init(method: method, rawTarget: rawTarget, headers: lowered, body: bytes)
    }
}

/// What the service answers: a status, headers and a body. `Content-Length` and `Date` are the
/// HTTP library's to add. The body is whole: a render's status is known only when it has finished (an
/// error halfway must be a 4xx or 5xx, never a 200 cut short), and ``chunks(of:)`` hands it to a
/// framework that writes a body as a stream.
public struct HTTPResponse: Sendable {
    /// The HTTP status code: 200, 304, 404…
    public var status: Int
    /// Header values by name, sent as they are.
    public var headers: [String: String]
    /// The body's bytes; empty for none.
    public var body: [UInt8]
    /// Room for the body already reserved in the server's ``ByteBudget`` (a cache hit reserves it
    /// before it reads the entry): a server keeps it until the body's last byte is sent, then lets
    /// it go. Nil: the server reserves the room itself when it sends the response.
    public var reservation: ByteReservation?

    /// `contentType`, when given, sets `Content-Type`, over one in `headers`.
    public init(status: Int, contentType: String? = nil, body: [UInt8] = [], headers: [String: String] = [:]) {
        self.status = status
        self.headers = headers
        if let contentType { self.headers["Content-Type"] = contentType }
        self.body = body
    }

    /// The body in chunks of at most `size` bytes (at least 1), for a server that writes a stream.
    public func chunks(of size: Int) -> [ArraySlice<UInt8>] {
        let step = max(1, size)
        return stride(from: 0, to: body.count, by: step).map { body[$0..<min(body.count, $0 + step)] }
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }
}

/// How a handler answers: with a response now, on the thread that read the request (errors, cache
/// hits, 304, the small routes), or with work that makes it, run on a thread of its own while the
/// connection waits (a render).
public enum HTTPAnswer: Sendable {
    /// The response, sent at once by the worker that read the request.
    case now(HTTPResponse)
    /// Work that makes the response, run on a thread of its own while the connection waits.
    case later(@Sendable () -> HTTPResponse)
}
