// The plain, obviously correct blur of a σ field: what the ladder (`FieldBlurStage`) is held to.
//
// Each output pixel of the field's region is the 2-D Gaussian average of the input at that
// pixel's own σ — the gather model: the sampled kernel exp(−t² / 2σ²) for |t| ≤ ⌈6σ⌉, normalised
// to sum 1, across then down, in float64, the region's pixels clamped at its edges, rounded once
// (ties to even). A σ of 0.2 px or less leaves the pixel as it is. Then the dimming, if any.
package enum FieldBlur {
    /// `image` with `field` blurred into it and `dimming` drawn over the region: the ladder's stage
    /// over the image in memory, `checkpoint` asked between bands and inside them; the reference
    /// instead when `BLURKIT_REFERENCE=1`.
    package static func render(
        _ image: Bitmap, field: any SigmaField, dimming: FieldDimming? = nil, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        if KernelSwitch.useReference { return reference(image, field: field, dimming: dimming) }
        return try FieldBlurStage(field: field, width: image.width, height: image.height, dimming: dimming)
            .run(image, parts: threads, checkpoint: checkpoint)
    }

    /// The float64 reference of ``render(_:field:dimming:threads:checkpoint:)``. Slow (O(σ²) a
    /// pixel): for tests.
    package static func reference(_ image: Bitmap, field: any SigmaField, dimming: FieldDimming? = nil) -> Bitmap {
        let region = field.region, (w, h) = (region.width, region.height)
        let pixels = image.doublePixels(in: region)
        var out = image
        var sigmas = [Double](repeating: 0, count: w)
        var coverage = [Float](repeating: 0, count: w)
        out.withMutablePixels { target in
            for y in 0..<h {
                sigmas.withUnsafeMutableBufferPointer { field.sigmas(row: region.y + y, columns: region.columns, into: $0.baseAddress!) }
                let row = target.row(region.y + y) + region.x * 4
                for x in 0..<w where sigmas[x] > GaussianBlur.identityThreshold {
                    let sigma = sigmas[x], radius = Int((6 * sigma).rounded(.up))
                    var kernel = (-radius...radius).map { gaussian(Double($0), sigma: sigma) }
                    let total = kernel.reduce(0, +)
                    kernel = kernel.map { $0 / total }
                    var acc = SIMD4<Double>.zero
                    for dy in -radius...radius {
                        let yy = min(max(y + dy, 0), h - 1)
                        var across = SIMD4<Double>.zero
                        for dx in -radius...radius { across += kernel[dx + radius] * pixels[yy * w + min(max(x + dx, 0), w - 1)] }
                        acc += kernel[dy + radius] * across
                    }
                    for c in 0..<4 { row[x * 4 + c] = UInt8(min(255, max(0, acc[c].rounded(.toNearestOrEven)))) }
                }
                if let dimming {
                    dimming.coverages(region.y + y, region.columns, &coverage)
                    Bitmap.fillRow(row, pixels: w, with: dimming.color, coverages: coverage)
                }
            }
        }
        return out
    }
}
