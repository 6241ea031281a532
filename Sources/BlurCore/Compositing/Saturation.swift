extension Bitmap {
    /// Rec. 709 luminance weights, the ones Apple's UIImageEffects uses for its saturation matrix.
    public static let luminanceWeights = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    /// Changes the saturation of `rect` (pixels) by `factor`: 0 = grey, 1 = unchanged (the bytes are
    /// not touched), 1.8 = a material's boost. The colour matrix `(1 − f)·L + f·I` (L: every row the
    /// luminance weights) is applied to premultiplied colour — it is linear, so that is the same as
    /// applying it to straight colour — and clamped to 0…alpha.
    public mutating func saturate(_ rect: PixelRect, by factor: Double) {
        requireInside(rect)
        guard factor != 1, factor.isFinite else { return }
        guard rect.width > 0, rect.height > 0 else { return }
        withMutablePixels { whole in
            let target = whole.region(rect)
            Parallel.forEachBand(count: rect.height, parts: rect.width * rect.height < 65536 ? 1 : nil) { rows in
                for row in rows { Bitmap.saturateRow(target.row(row), pixels: rect.width, by: factor) }
            }
        }
    }

    /// ``saturate(_:by:)`` over `pixels` pixels at `row` (a factor of 1 leaves them alone).
    package static func saturateRow(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, by factor: Double) {
        guard factor != 1, factor.isFinite else { return }
        let f = Float(factor), l = SIMD3<Float>(Bitmap.luminanceWeights) * (1 - f)
        for column in 0..<pixels {
            let px = row + column * 4
            let r = Float(px[0]), g = Float(px[1]), b = Float(px[2]), a = Float(px[3])
            let grey = l.x * r + l.y * g + l.z * b
            px[0] = Bitmap.clampedByte(grey + f * r, alpha: a)
            px[1] = Bitmap.clampedByte(grey + f * g, alpha: a)
            px[2] = Bitmap.clampedByte(grey + f * b, alpha: a)
        }
    }

    @inline(__always)
    static func clampedByte(_ v: Float, alpha: Float) -> UInt8 {
        // + ½ then truncation: round half up, as `rounded()` for these non-negative values, but a
        // conversion the vectoriser can use.
        UInt8(min(alpha, max(0, v)) + 0.5)
    }
}
