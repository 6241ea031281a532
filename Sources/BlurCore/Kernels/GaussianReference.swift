// The plain, obviously correct Gaussian blur: what the fast path is held to.
//
// Kernel: the sampled Gaussian w(t) = exp(−t² / 2σ²) for |t| ≤ ⌈6σ⌉, normalised to sum 1 (the
// tail beyond 6σ weighs under 2·10⁻⁹). Separable: rows, then columns, in float64, with no rounding
// in between. Edges: `.clamp` reads the nearest edge pixel, `.transparent` reads zero. Output is
// rounded to nearest (ties to even) and clamped to 0…255.
extension GaussianBlur {
    /// The float64 reference result. Slow (O(σ) per pixel): for tests and comparisons.
    public func reference(_ image: Bitmap) -> Bitmap {
        if sigma <= GaussianBlur.identityThreshold { return image }
        let radius = Int((6 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { t in gaussian(Double(t), sigma: sigma) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }

        let w = image.width, h = image.height
        var rows = [Double](repeating: 0, count: w * h * 4)
        image.withPixels { source in
            for y in 0..<h {
                let src = source.row(y)
                for x in 0..<w {
                    var acc = SIMD4<Double>()
                    for t in -radius...radius {
                        guard let sx = sourceIndex(x + t, count: w) else { continue }
                        let i = sx * 4
                        let pixel = SIMD4<Double>(Double(src[i]), Double(src[i + 1]), Double(src[i + 2]), Double(src[i + 3]))
                        acc += kernel[t + radius] * pixel
                    }
                    for c in 0..<4 { rows[(y * w + x) * 4 + c] = acc[c] }
                }
            }
        }
        var out = image.makeUninitializedLike()
        out.withMutablePixels { target in
            var column = [Double](repeating: 0, count: w * 4)
            for y in 0..<h {
                for i in column.indices { column[i] = 0 }
                for t in -radius...radius {
                    guard let sy = sourceIndex(y + t, count: h) else { continue }
                    let weight = kernel[t + radius]
                    for i in 0..<(w * 4) { column[i] += weight * rows[sy * w * 4 + i] }
                }
                let dst = target.row(y)
                for i in 0..<(w * 4) {
                    dst[i] = UInt8(min(255, max(0, column[i].rounded(.toNearestOrEven))))
                }
            }
        }
        return out
    }

    /// Where sample `i` of a line of `count` comes from, or nil when it is transparent.
    private func sourceIndex(_ i: Int, count: Int) -> Int? {
        if i >= 0 && i < count { return i }
        switch edges {
        case .clamp: return min(max(i, 0), count - 1)
        case .transparent: return nil
        }
    }
}
