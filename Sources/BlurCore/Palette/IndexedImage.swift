/// An image as indices into a palette of at most 256 opaque colours, with an optional index for
/// transparent pixels: what GIF stores.
public struct IndexedImage: Sendable, Hashable {
    /// Size in pixels, the quantised bitmap's (≥ 1).
    public let width: Int, height: Int
    /// Row-major, one per pixel.
    public var indices: [UInt8]
    /// Straight RGB, at most 256 entries (including the transparent one).
    public var palette: [SIMD3<UInt8>]
    /// The palette entry that stands for a transparent pixel, if any pixel is.
    public var transparentIndex: Int?
}
