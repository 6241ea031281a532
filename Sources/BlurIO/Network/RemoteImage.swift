import BlurCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loading an image from a URL: an ephemeral `URLSession` (no cache, no cookies), a time-out, a
/// size limit, any status outside 200…299 an error, the body decoded by ``ImageFile``.
public enum RemoteImage {
    /// Loads and decodes the image at `url`.
    /// - Parameters:
    ///   - url: where the image is (any scheme URLSession loads).
    ///   - timeout: seconds without progress before the request fails (NaN, ∞ or ≤ 0: 30).
    ///   - maximumBytes: the most bytes the response may have.
    /// - Throws: ``RemoteImageError``.
    public static func load(_ url: URL, timeout: Double = 30, maximumBytes: Int = 64 << 20) async throws(RemoteImageError) -> Bitmap {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.isFinite && timeout > 0 ? timeout : 30
        configuration.timeoutIntervalForResource = max(configuration.timeoutIntervalForRequest, 60)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch let error as URLError {
            throw error.code == .timedOut ? .timedOut(url) : .transport(url, error.localizedDescription)
        } catch {
            throw .transport(url, "\(error)")
        }
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            throw .status(url, http.statusCode)
        }
        guard data.count <= maximumBytes else { throw .tooLarge(url, data.count) }
        do {
            return try ImageFile.decode([UInt8](data))
        } catch {
            throw .notAnImage(url, error)
        }
    }
}

/// Why a remote image did not arrive.
public enum RemoteImageError: Error, Sendable, CustomStringConvertible {
    /// The request failed before a whole response arrived (network, DNS, TLS…); the system's message.
    case transport(URL, String)
    /// The request timed out.
    case timedOut(URL)
    /// The server answered with an HTTP status outside 200…299: the code.
    case status(URL, Int)
    /// The response is longer than the `maximumBytes` allowed: its byte count (checked once it has arrived).
    case tooLarge(URL, Int)
    /// The body did not decode as an image: the decoding error.
    case notAnImage(URL, DecodingError)

    /// `<url>: <what went wrong>`, one line.
    public var description: String {
        switch self {
        case let .transport(url, message): "\(url.absoluteString): \(message)"
        case let .timedOut(url): "\(url.absoluteString): timed out"
        case let .status(url, code): "\(url.absoluteString): HTTP status \(code)"
        case let .tooLarge(url, bytes): "\(url.absoluteString): the response has \(bytes) bytes, over the limit"
        case let .notAnImage(url, error): "\(url.absoluteString): \(error)"
        }
    }
}
