import Synchronization

/// Process-wide limits checked before memory is allocated for an image.
///
/// Thread-safe: reads and writes are atomic. Decoders check them against the size a file's header
/// announces, so a small file that claims a huge picture (a decompression bomb) is refused before
/// any pixel memory exists.
public enum ImageLimits {
    /// The default pixel-count limit: 268 MP (16384 × 16384 = 2²⁸ pixels, 1 GiB of RGBA).
    public static let defaultMaximumPixelCount = 1 << 28

    private static let maximumPixels = Atomic<Int>(defaultMaximumPixelCount)

    /// The largest `width × height` a ``Bitmap`` may have. Default 268,435,456 (2²⁸).
    /// Values < 1 are stored as 1.
    public static var maximumPixelCount: Int {
        get { maximumPixels.load(ordering: .relaxed) }
        set { maximumPixels.store(max(1, newValue), ordering: .relaxed) }
    }
}
