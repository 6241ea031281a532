import BlurCore
import BlurTestSupport
import Foundation
import Testing

/// The progressive blur against its own float64 definition: every row (or column) is the Gaussian of
/// the image at that line's σ = maximum radius × mask value × scale (the mask's bytes are BlurUIKit's,
/// held exactly by GradientMaskTests), edges clamped to the frame.
@Suite struct ProgressiveReferenceTests {
    /// The float64 definition, for a vertical gradient: row y of the output is the 2-D Gaussian of σ[y]
    /// at row y (columns first, then across), premultiplied 0…255, rounded once.
    static func reference(_ image: Bitmap, sigmas: [Double]) throws -> Bitmap {
        let w = image.width, h = image.height
        let pixels = (0..<h).map { y in (0..<w).map { x in image[x, y] } }
        var bytes = [UInt8]()
        for y in 0..<h {
            let sigma = sigmas[y]
            var line = [SIMD4<Double>](repeating: .zero, count: w)
            if sigma <= 0.2 {
                line = pixels[y].map { SIMD4(Double($0.r), Double($0.g), Double($0.b), Double($0.a)) }
            } else {
                let r = Int((6 * sigma).rounded(.up))
                var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
                let total = kernel.reduce(0, +)
                kernel = kernel.map { $0 / total }
                var column = [SIMD4<Double>](repeating: .zero, count: w)
                for t in -r...r {
                    let row = pixels[min(h - 1, max(0, y + t))]
                    for x in 0..<w { column[x] += kernel[t + r] * SIMD4(Double(row[x].r), Double(row[x].g), Double(row[x].b), Double(row[x].a)) }
                }
                for x in 0..<w {
                    var acc = SIMD4<Double>.zero
                    for t in -r...r { acc += kernel[t + r] * column[min(w - 1, max(0, x + t))] }
                    line[x] = acc
                }
            }
            for p in line { bytes += (0..<4).map { UInt8(min(255, max(0, p[$0].rounded()))) } }
        }
        return try Bitmap(width: w, height: h, premultipliedRGBA: bytes, scale: image.scale)
    }

    /// σ per row for `effect` over the whole of `image`, as the definition says.
    static func sigmas(_ effect: VariableBlurEffect, over image: Bitmap) -> [Double] {
        let scale = image.scale, (pw, ph) = image.pointSize
        let layout = effect.layout(width: pw, height: ph)!
        let mask = GradientMaskCache.shared.mask(for: layout.blurMask)
        return (0..<image.height).map { y in effect.effectiveMaximumRadius * mask.value(at: (Double(y) + 0.5) / scale) * scale }
    }

    /// `draw(effect, image, frame)` over the whole of `image` (scale 1) with `effect` running `.down`,
    /// or, for `.left`, running `.left` over the image turned a quarter and turned back: the same
    /// definition, the columns' way.
    static func drawn(
        _ effect: VariableBlurEffect, over image: Bitmap, _ direction: GradientDirection,
        _ draw: (VariableBlurEffect, Bitmap, Rect) -> Bitmap
    ) -> Bitmap {
        guard direction == .left else {
            return draw(effect, image, Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        }
        var sideways = effect
        sideways.direction = .left
        let turned = image.oriented(.leftMirrored)
        return draw(sideways, turned, Rect(x: 0, y: 0, width: Double(turned.width), height: Double(turned.height))).oriented(.leftMirrored)
    }

    static func effect(radius: Double) -> VariableBlurEffect {
        var effect = VariableBlurEffect(direction: .down)
        effect.maximumBlurRadius = radius
        effect.dimmingTintColor = nil
        return effect
    }

    /// Opaque and translucent photos, σ up to 24 px and up to 6 px (the direct rows alone), down and,
    /// over the image turned a quarter, left: the columns are the same definition turned.
    @Test(arguments: [
        (false, 24.0, GradientDirection.down), (true, 24, .down), (false, 6, .down), (true, 6, .down), (false, 24, .left),
        (true, 24, .left), (true, 6, .left),
    ])
    func everyRowIsTheGaussianOfItsOwnSigma(_ translucent: Bool, _ radius: Double, _ direction: GradientDirection) throws {
        let source = translucent ? TestImages.translucentPhoto : TestImages.photo
        let image = try source.cropped(x: 200, y: 40, width: 200, height: 240)
        let effect = Self.effect(radius: radius)
        let got = Self.drawn(effect, over: image, direction) { $0.render(over: $1, frame: $2) }
        let expected = try Self.reference(image, sigmas: Self.sigmas(effect, over: image))
        let whole = ImageDifference(got, expected)
        // Measured: 55.6–56.3 dB at σ 24 (worst band of 20 rows 51.1 dB: rows between two pyramid
        // levels are their blend, not a Gaussian of their own σ — the kernels issue's target), 61.3 dB
        // (worst band 54.3) at σ 6; the unblurred image is 22.5–28.2 dB away. The bands keep a local
        // failure from hiding in the average.
        let bar = radius > 6 ? (whole: 53.0, band: 49.0, maximum: 4) : (whole: 58.0, band: 52.0, maximum: 3)
        #expect(whole.psnr >= bar.whole && whole.maximum <= bar.maximum, "\(whole)")
        for band in stride(from: 0, to: 240, by: 20) {
            let d = ImageDifference(
                try got.cropped(x: 0, y: band, width: 200, height: 20), try expected.cropped(x: 0, y: band, width: 200, height: 20))
            #expect(d.psnr >= bar.band, "rows \(band)…\(band + 19): \(d)")
        }
    }

    /// The library's own float64 reference (what `BLURKIT_REFERENCE=1` renders) is this test's
    /// definition, written independently: within 1 everywhere, down and left, with the direct rows
    /// and the pyramid's range both crossed; and it draws the same dimming as `render`.
    @Test(arguments: [GradientDirection.down, .left])
    func theLibrarysReferenceIsTheDefinition(_ direction: GradientDirection) throws {
        let image = try TestImages.translucentPhoto.cropped(x: 150, y: 60, width: 120, height: 90)
        let effect = Self.effect(radius: 10)
        let got = Self.drawn(effect, over: image, direction) { $0.reference(over: $1, frame: $2) }
        let expected = try Self.reference(image, sigmas: Self.sigmas(effect, over: image))
        let difference = ImageDifference(got, expected)
        #expect(difference.maximum <= 1, "\(difference)")
        var dimmed = VariableBlurEffect(direction: direction)
        dimmed.maximumBlurRadius = 0
        let frame = Rect(x: 0, y: 0, width: 120, height: 90)
        #expect(dimmed.reference(over: image, frame: frame) == dimmed.render(over: image, frame: frame))
    }

    /// The σ the output has in the middle of the gradient, measured from how a sharp edge spreads
    /// (the differences across a blurred step are the Gaussian itself: their variance is σ² plus the
    /// ⅟₁₂ of whole-pixel steps), is the σ the mask asks for there.
    @Test(arguments: [GradientDirection.down, .up, .left, .right])
    func theSigmaInTheMiddleIsTheMasks(_ direction: GradientDirection) throws {
        // A step across the gradient: dark before the middle column (or row), light after.
        let size = 240, vertical = direction.isVertical
        var bytes = [UInt8]()
        for y in 0..<size { for x in 0..<size { let v: UInt8 = (vertical ? x : y) < size / 2 ? 30 : 230; bytes += [v, v, v, 255] } }
        let image = try Bitmap(width: size, height: size, premultipliedRGBA: bytes)
        var effect = Self.effect(radius: 16)
        effect.direction = direction
        let out = effect.render(over: image, frame: Rect(x: 0, y: 0, width: Double(size), height: Double(size)))
        let layout = effect.layout(width: Double(size), height: Double(size))!
        let mask = GradientMaskCache.shared.mask(for: layout.blurMask)
        let middle = size / 2
        let expected = 16 * mask.value(at: Double(middle) + 0.5)
        // The profile across the step, on the middle line.
        let profile = (0..<size).map { i in Double(vertical ? out[i, middle].r : out[middle, i].r) }
        let steps = zip(profile.dropFirst(), profile).map { $0 - $1 }
        let total = steps.reduce(0, +)
        let mean = steps.enumerated().map { Double($0) * $1 }.reduce(0, +) / total
        let variance = steps.enumerated().map { (Double($0) - mean) * (Double($0) - mean) * $1 }.reduce(0, +) / total
        let measured = (variance - 1.0 / 12).squareRoot()
        #expect(expected > 6 && abs(measured - expected) / expected < 0.03, "\(direction): σ \(measured), the mask's \(expected)")
    }
}
