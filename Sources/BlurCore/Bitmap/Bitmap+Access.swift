// Pixel memory for the package's kernels and codecs. `package` access: clients of BlurKit never
// see a pointer; code inside the package reaches pixels only through these two functions.
extension Bitmap {
    package func withUnsafePixels<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer(body)
    }

    package mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// A bitmap of the same size and scale whose bytes are not yet written.
    package func makeUninitializedLike() -> Bitmap {
        // The size was valid for `self`, so it is valid again.
        try! Bitmap(uninitializedWidth: width, height: height, scale: scale)
    }

    package static func uninitialized(width: Int, height: Int, scale: Double = 1) throws -> Bitmap {
        try Bitmap(uninitializedWidth: width, height: height, scale: scale)
    }
}
