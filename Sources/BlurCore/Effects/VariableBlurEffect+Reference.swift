// The plain, obviously correct progressive blur: what the stages are held to.
//
// Every row (or, for the horizontal directions, every column) of the frame's pixels is the 2-D
// Gaussian of the backdrop at that line's own σ = maximum radius × mask value × scale: the sampled
// kernel exp(−t² / 2σ²) for |t| ≤ ⌈6σ⌉, normalised to sum 1, across the line then along the
// other axis, in float64, edges clamped to the frame's pixels, rounded once (ties to even). A σ of
// 0.2 px or less leaves the line as it is. Then the same dimming gradient as the stages draw.
extension VariableBlurEffect {
    /// The float64 reference of ``render(over:frame:appearance:cache:threads:)``: each line the
    /// Gaussian of its own σ, then the dimming. Slow (O(σ) per pixel): for tests and comparisons;
    /// `BLURKIT_REFERENCE=1` in the environment makes `render` return it.
    public func reference(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light, cache: GradientMaskCache = .shared
    ) -> Bitmap {
        guard layout(width: frame.width, height: frame.height) != nil, !frame.isEmpty else { return backdrop }
        if ramp != nil {
            guard
                let (field, dimming) = rampField(
                    width: backdrop.width, height: backdrop.height, scale: backdrop.scale, frame: frame, appearance: appearance)
            else { return backdrop }
            return FieldBlur.reference(backdrop, field: field, dimming: dimming)
        }
        let lines = VariableBlurLines(
            effect: self, width: backdrop.width, height: backdrop.height, scale: backdrop.scale, frame: frame, appearance: appearance,
            cache: cache)
        var out = backdrop
        if lines.blurs {
            let region = lines.region, vertical = direction.isVertical
            let (w, h) = (region.width, region.height)
            let pixels = backdrop.doublePixels(in: region)
            func pixel(_ x: Int, _ y: Int) -> SIMD4<Double> { pixels[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)] }
            var blurred = pixels
            for (line, sigma) in lines.sigmas.enumerated() where sigma > GaussianBlur.identityThreshold {
                let radius = Int((6 * sigma).rounded(.up))
                var kernel = (-radius...radius).map { gaussian(Double($0), sigma: sigma) }
                let sum = kernel.reduce(0, +)
                kernel = kernel.map { $0 / sum }
                /// The kernel across the line through `x`, `y` (along x for rows, along y for columns).
                func convolve(_ value: (Int) -> SIMD4<Double>) -> SIMD4<Double> {
                    var acc = SIMD4<Double>.zero
                    for t in -radius...radius { acc += kernel[t + radius] * value(t) }
                    return acc
                }
                if vertical {
                    // Row `line`: across each row in reach, then down the columns.
                    var across = [[SIMD4<Double>]]()
                    for y in (line - radius)...(line + radius) {
                        across.append((0..<w).map { x in convolve { pixel(x + $0, y) } })
                    }
                    for x in 0..<w { blurred[line * w + x] = convolve { across[$0 + radius][x] } }
                } else {
                    // Column `line`: across at that column for every row, then down it.
                    let across = (0..<h).map { y in convolve { pixel(line + $0, y) } }
                    for y in 0..<h { blurred[y * w + line] = convolve { across[min(max(y + $0, 0), h - 1)] } }
                }
            }
            out.withMutablePixels { target in
                for y in 0..<h {
                    let row = target.row(region.y + y) + region.x * 4
                    for x in 0..<w {
                        let v = blurred[y * w + x]
                        for c in 0..<4 { row[x * 4 + c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                    }
                }
            }
        }
        if let dimming = lines.dimming {
            out.fill(dimming.region, with: dimming.color, coverage: dimming.coverage, vertical: direction.isVertical)
        }
        return out
    }
}
