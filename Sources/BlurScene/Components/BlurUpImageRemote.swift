import BlurCore
import BlurIO
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SwiftUI Blocks' `BlurUpImageRemote`: a ``BlurUpImage`` whose full image comes from a URL. The
/// blurred preview shows while it loads; on any failure (transport error, time-out, an HTTP status
/// outside 200…299, a body that is not an image, one over the size limit) the preview stays and
/// loading stops. A nil URL means nothing is loading.
public struct BlurUpImageRemote: Sendable {
    /// What a load came to, as SwiftUI's `AsyncImagePhase`.
    public enum Phase: Sendable {
        /// Not loaded yet (or no URL).
        case empty
        case success(Bitmap)
        case failure(RemoteImageError)
    }

    public let url: URL?
    public let preview: Bitmap
    public let label: String
    /// Seconds without progress before the request fails. Default 30.
    public var timeout: Double = 30
    /// The most bytes a response may have. Default 64 MiB.
    public var maximumBytes = 64 << 20

    public init(url: URL?, preview: Bitmap, label: String) {
        self.url = url
        self.preview = preview
        self.label = label
    }

    /// Loads and decodes the image. Never throws: failures are a phase.
    public func load() async -> Phase {
        guard let url else { return .empty }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.isFinite && timeout > 0 ? timeout : 30
        configuration.timeoutIntervalForResource = max(configuration.timeoutIntervalForRequest, 60)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch let error as URLError {
            return .failure(error.code == .timedOut ? .timedOut(url) : .transport(url, error.localizedDescription))
        } catch {
            return .failure(.transport(url, "\(error)"))
        }
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            return .failure(.status(url, http.statusCode))
        }
        guard data.count <= maximumBytes else { return .failure(.tooLarge(url, data.count)) }
        do {
            return .success(try ImageFile.decode([UInt8](data)))
        } catch {
            return .failure(.notAnImage(url, error))
        }
    }

    /// The component for a phase at `time`: the image (entering with the transition when it has
    /// just arrived), loading only while a URL is set and no failure happened.
    public func view(frame: Rect, blurRadius: Double = BlurUpImage.defaultBlurRadius, reduceMotion: Bool = false) -> BlurUpImage {
        BlurUpImage(preview: preview, label: label, blurRadius: blurRadius, isLoading: url != nil, reduceMotion: reduceMotion, frame: frame)
    }

    /// Applies what a load came to, at `time` on the scene's clock.
    public static func apply(_ phase: Phase, to view: BlurUpImage, at time: Double) {
        switch phase {
        case .empty: break
        case let .success(image): view.setImage(image, at: time)
        case .failure: view.setLoading(false, at: time)
        }
    }
}

/// Why a remote image did not arrive.
public enum RemoteImageError: Error, Sendable, CustomStringConvertible {
    case transport(URL, String)
    case timedOut(URL)
    case status(URL, Int)
    case tooLarge(URL, Int)
    case notAnImage(URL, DecodingError)

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
