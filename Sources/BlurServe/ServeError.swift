/// Why the service refuses or fails a request: each case is one HTTP status, answered with a JSON
/// body `{"error": "…", "parameter": "…"}` (the parameter when one is to blame).
public enum ServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400: the request is malformed — an unknown or invalid parameter, a bad path or signature form.
    case badRequest(String, parameter: String? = nil)
    /// 403: the path leads out of the root, or the URL's signature is missing or wrong.
    case forbidden(String)
    /// 404: no such route or file.
    case notFound(String)
    /// 405: the route does not take this method.
    case methodNotAllowed(String, allowed: [String])
    /// 406: none of the formats the route writes is acceptable to the request's `Accept`.
    case notAcceptable(String)
    /// 413: the body, the image's pixel count or its memory estimate is over the server's limits.
    case tooLarge(String)
    /// 415: the bytes are not an image format the service reads, or no output format it writes was asked for.
    case unsupportedMediaType(String)
    /// 422: an image of a known format that cannot be decoded, or a scene file that cannot be used.
    case unprocessable(String)
    /// 503: every slot is busy, the server is draining, or the work ran out of time; try again after `retryAfter` seconds.
    case busy(String, retryAfter: Int)
    /// 500: what should not happen.
    case internalError(String)

    /// The HTTP status the case stands for.
    public var status: Int {
        switch self {
        case .badRequest: return 400
        case .forbidden: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .notAcceptable: return 406
        case .tooLarge: return 413
        case .unsupportedMediaType: return 415
        case .unprocessable: return 422
        case .busy: return 503
        case .internalError: return 500
        }
    }

    /// The message: the JSON body's `error`.
    public var description: String {
        switch self {
        case let .badRequest(text, _), let .forbidden(text), let .notFound(text), let .methodNotAllowed(text, _), let .notAcceptable(text),
            let .tooLarge(text),
            let .unsupportedMediaType(text), let .unprocessable(text), let .busy(text, _), let .internalError(text):
            return text
        }
    }

    /// The parameter to blame, if one is.
    public var parameter: String? {
        if case let .badRequest(_, parameter) = self { return parameter }
        return nil
    }

    /// The response: the status, the JSON body, `Retry-After` for 503 and `Allow` for 405.
    public var response: HTTPResponse {
        var body = "{\"error\": " + JSONText.quoted(description)
        if let parameter { body += ", \"parameter\": " + JSONText.quoted(parameter) }
        body += "}\n"
        var response = HTTPResponse(status: status, contentType: "application/json", body: Array(body.utf8))
        response.headers["Cache-Control"] = "no-store"
        switch self {
        case let .busy(_, seconds): response.headers["Retry-After"] = String(seconds)
        case let .methodNotAllowed(_, allowed): response.headers["Allow"] = allowed.joined(separator: ", ")
        case .notAcceptable: response.headers["Vary"] = "Accept"
        default: break
        }
        return response
    }
}
