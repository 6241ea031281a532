// The plain, obviously correct glass: what the fast path is held to.
//
// In float64 throughout, nothing rounded until the end: the region's backdrop blurred with the
// sampled Gaussian exp(−t²/2σ²), |t| ≤ ⌈6σ⌉, normalised, rows then columns, edges clamped to the
// region (σ ≤ 0.2 px leaves it sharp); mixed with the sharp backdrop by the depth; every pixel
// toned by GlassTone's formula; then every pixel of the canvas shaded by GlassShader with the exact
// curves, sampling that layer bilinearly. Output rounded to nearest (ties to even) once.
extension GlassEffect {
    /// The float64 reference of ``render(over:frame:scale:threads:)``. Slow (O(σ) per pixel of the
    /// shape's bounding box): for tests and comparisons; `BLURKIT_REFERENCE=1` in the environment
    /// makes `render` return it.
    public func reference(over backdrop: Bitmap, frame: Rect, scale: Double) -> Bitmap {
        GlassContainer(effect: self, members: [GlassContainer.Member(shape, frame: frame)]).reference(over: backdrop, scale: scale)
    }
}

extension GlassPlan {
    /// The toned layer in float64, premultiplied 0…255, sampled bilinearly and clamped to the region.
    struct FloatLayer: GlassLayer {
        let pixels: [SIMD4<Double>]
        let region: PixelRect

        func sample(_ x: Double, _ y: Double) -> SIMD4<Double> {
            let u = min(max(x - 0.5 - Double(region.x), 0), Double(region.width - 1))
            let v = min(max(y - 0.5 - Double(region.y), 0), Double(region.height - 1))
            let i = Int(u), j = Int(v), fx = u - Double(i), fy = v - Double(j)
            let i1 = min(i + 1, region.width - 1), j1 = min(j + 1, region.height - 1)
            func at(_ a: Int, _ b: Int) -> SIMD4<Double> { pixels[b * region.width + a] }
            let top = at(i, j) + (at(i1, j) - at(i, j)) * fx
            let bottom = at(i, j1) + (at(i1, j1) - at(i, j1)) * fx
            return top + (bottom - top) * fy
        }
    }

    /// The reference render over `backdrop`.
    func reference(over backdrop: Bitmap) -> Bitmap {
        let (w, h) = (region.width, region.height)
        let sharp = backdrop.doublePixels(in: region)
        var blurred = sharp
        if sigma > GaussianBlur.identityThreshold {
            let radius = Int((6 * sigma).rounded(.up))
            var kernel = (-radius...radius).map { gaussian(Double($0), sigma: sigma) }
            let sum = kernel.reduce(0, +)
            kernel = kernel.map { $0 / sum }
            var rows = sharp
            for y in 0..<h {
                for x in 0..<w {
                    var acc = SIMD4<Double>.zero
                    for t in -radius...radius { acc += kernel[t + radius] * sharp[y * w + min(max(x + t, 0), w - 1)] }
                    rows[y * w + x] = acc
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    var acc = SIMD4<Double>.zero
                    for t in -radius...radius { acc += kernel[t + radius] * rows[min(max(y + t, 0), h - 1) * w + x] }
                    blurred[y * w + x] = acc
                }
            }
        }
        let layer = FloatLayer(pixels: (0..<(w * h)).map { tone.pixel(sharp[$0] * (1 - depth) + blurred[$0] * depth) }, region: region)
        let shader = shader(tabulated: false)
        var out = backdrop
        out.withMutablePixels { target in
            for y in canvas.y..<(canvas.y + canvas.height) {
                let row = target.row(y)
                for x in canvas.x..<(canvas.x + canvas.width) {
                    let p = row + x * 4
                    let under = SIMD4(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3]))
                    let v = shader.shade(x, y, under: under, layer: layer)
                    for c in 0..<4 { p[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                }
            }
        }
        return out
    }
}
