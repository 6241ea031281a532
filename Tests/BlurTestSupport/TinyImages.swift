import BlurCore

/// One case of ``withEveryTinyImage(sizes:sigmas:edges:strides:opaque:_:)``.
public struct TinyImage: Sendable, CustomStringConvertible {
    /// Noise built through the padded initialiser, `Bitmap(width:height:bytesPerRow:premultipliedRGBA:)`,
    /// with `padding` bytes of 0xEE after each row.
    public let bitmap: Bitmap
    /// The same pixels built tight: every result from ``bitmap`` must equal the result from this.
    public let tight: Bitmap
    /// Bytes past `width * 4` in each row of ``bitmap``'s input (0: tight, but still given a stride).
    public let padding: Int
    public let sigma: Double
    public let edges: EdgeMode
    /// The noise seed, for reproducing a failure with ``TestImages/noise(width:height:seed:opaque:)``.
    public let seed: UInt64

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }

    /// What a failure message needs: size, padding, σ, edges and seed.
    public var description: String {
        "\(width)×\(height), padding \(padding), σ \(sigma), \(edges), seed \(seed)"
    }
}

/// Every size from 1 × 1 to 8 × 8.
public let everyTinySize: [(width: Int, height: Int)] = (1...8).flatMap { w in (1...8).map { h in (w, h) } }

/// Calls `body` once for every combination of size, σ, edge mode and row padding (ring 1 of the
/// tests: tiny exhaustive cases).
///
/// Each image is ``TestImages/noise(width:height:seed:opaque:)`` with seed `10·width + height`, built
/// through the public padded initialiser with `padding` bytes of 0xEE after every row (for odd
/// `width + height` the last row's padding is left off, which the initialiser also accepts). A
/// kernel that read the padding would see bright pixels that are not in ``TinyImage/tight``.
/// - Parameters:
///   - sizes: default every size 1…8 × 1…8.
///   - sigmas: σ values in pixels handed through; for checks without a σ pass one value and ignore it.
///   - edges: default both edge modes.
///   - strides: row paddings in bytes beyond `width * 4`; default 0, 4 and 64.
///   - opaque: opaque noise instead of noise with transparent and translucent pixels.
public func withEveryTinyImage(
    sizes: [(width: Int, height: Int)] = everyTinySize,
    sigmas: [Double] = [0.5, 1.7, 4, 9.5],
    edges: [EdgeMode] = EdgeMode.allCases,
    strides paddings: [Int] = [0, 4, 64],
    opaque: Bool = false,
    _ body: (TinyImage) throws -> Void
) rethrows {
    for (width, height) in sizes {
        let seed = UInt64(width * 10 + height)
        let tight = TestImages.noise(width: width, height: height, seed: seed, opaque: opaque)
        let row = width * 4
        for padding in paddings {
            let stride = row + padding
            var bytes = [UInt8](repeating: 0xEE, count: stride * height)
            for y in 0..<height {
                bytes.replaceSubrange((y * stride)..<(y * stride + row), with: tight.premultipliedRGBA[(y * row)..<(y * row + row)])
            }
            if (width + height) % 2 == 1 { bytes.removeLast(padding) }
            let bitmap = try! Bitmap(width: width, height: height, bytesPerRow: stride, premultipliedRGBA: bytes)
            for sigma in sigmas {
                for edge in edges {
                    try body(TinyImage(bitmap: bitmap, tight: tight, padding: padding, sigma: sigma, edges: edge, seed: seed))
                }
            }
        }
    }
}
