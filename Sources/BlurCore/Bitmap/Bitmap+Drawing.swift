extension Bitmap {
    /// Copies `image`'s pixels into this bitmap with its top-left corner at pixel (x, y), clipped to
    /// this bitmap's bounds.
    public mutating func replacePixels(at x: Int, _ y: Int, with image: Bitmap) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x1 > x0, y1 > y0 else { return }
        let stride = bytesPerRow
        image.withUnsafePixels { src in
            withUnsafeMutablePixels { dst in
                for row in y0..<y1 {
                    let from = src.baseAddress! + (row - y) * image.bytesPerRow + (x0 - x) * 4
                    (dst.baseAddress! + row * stride + x0 * 4).update(from: from, count: (x1 - x0) * 4)
                }
            }
        }
    }

    /// Draws `color` source-over into `rect` (pixels) with a coverage per line: per row when
    /// `vertical`, per column otherwise (`coverage.count` lines, each 0…1, times the colour's alpha).
    public mutating func fill(_ rect: PixelRect, with color: Color, coverage: [Float], vertical: Bool) {
        precondition(coverage.count == (vertical ? rect.height : rect.width), "one coverage per line")
        let straight = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255
        let stride = bytesPerRow, opacity = Float(color.alpha)
        withUnsafeMutablePixels { p in
            for row in 0..<rect.height {
                let base = p.baseAddress! + (rect.y + row) * stride + rect.x * 4
                for column in 0..<rect.width {
                    let a = opacity * coverage[vertical ? row : column]
                    if a <= 0 { continue }
                    let px = base + column * 4
                    for c in 0..<4 {
                        // Premultiplied source-over: s·a + d·(1 − a), the same operations for every channel.
                        let v = straight[c] * a + Float(px[c]) * (1 - a) + 8_388_608
                        px[c] = UInt8(truncatingIfNeeded: v.bitPattern)
                    }
                }
            }
        }
    }
}
