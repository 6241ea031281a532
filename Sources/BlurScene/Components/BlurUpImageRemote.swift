import BlurCore
import BlurIO
import Foundation

/// SwiftUI Blocks' `BlurUpImageRemote`: a ``BlurUpImage`` whose full image comes from a URL. The
/// blurred preview shows while it loads; on any failure (transport error, time-out, an HTTP status
/// outside 200…299, a body that is not an image, one over the size limit) the preview stays and
/// loading stops. A nil URL means nothing is loading.
public struct BlurUpImageRemote: Sendable {
    /// What a load came to, as SwiftUI's `AsyncImagePhase`.
    public enum Phase: Sendable {
        /// Not loaded yet (or no URL).
        case empty
        /// Loaded and decoded: the full image.
        case success(Bitmap)
        /// The load failed, for the reason the error gives; the preview stays.
        case failure(RemoteImageError)
    }

    /// Where the full image is; nil: nothing loads and no activity indicator shows.
    public let url: URL?
    /// The small image shown blurred until the full one arrives.
    public let preview: Bitmap
    /// What VoiceOver reads for the image.
    public let label: String
    /// Seconds without progress before the request fails. Default 30.
    public var timeout: Double = 30
    /// The most bytes a response may have. Default 64 MiB.
    public var maximumBytes = 64 << 20

    /// A component with a 30 s time-out and a 64 MiB limit; nothing loads until ``load()``.
    public init(url: URL?, preview: Bitmap, label: String) {
        self.url = url
        self.preview = preview
        self.label = label
    }

    /// Loads and decodes the image (`RemoteImage/load(_:timeout:maximumBytes:)`). Never throws:
    /// failures are a phase.
    public func load() async -> Phase {
        guard let url else { return .empty }
        do { return .success(try await RemoteImage.load(url, timeout: timeout, maximumBytes: maximumBytes)) } catch { return .failure(error) }
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
