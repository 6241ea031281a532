import BlurCore
import BlurTestSupport
import Testing

/// Ring 1: every public effect over every tiny image (1…8 pixels a side; rows tight, padded, and
/// padded but for the last row), held to its reference, and padded rows giving the tight result.
@Suite struct TinyImageTests {
    /// The σ grid of the Gaussian tests: both schedules (the fixed-point direct kernel below 6, the
    /// pyramid from 6) and a σ far wider than any tiny image.
    static let sigmas = [0.3, 0.5, 1, 1.7, 3.5, 4, 6, 9.5, 25, 100]

    @Test func paddedRowsBuildTheTightBitmap() {
        withEveryTinyImage(sigmas: [0], edges: [.clamp]) { tiny in
            #expect(tiny.bitmap == tiny.tight && tiny.bitmap.bytesPerRow == tiny.width * 4, "\(tiny)")
        }
    }

    @Test(arguments: EdgeMode.allCases)
    func gaussianBlurMatchesTheReference(_ edges: EdgeMode) throws {
        try withEveryTinyImage(sigmas: Self.sigmas, edges: [edges]) { tiny in
            let blur = try GaussianBlur(sigma: tiny.sigma, edges: tiny.edges)
            let fast = blur.fastPath(tiny.bitmap)
            let d = ImageDifference(blur.reference(tiny.bitmap), fast)
            #expect(d.maximum <= 1, "\(tiny): \(d)")
            #expect(fast == blur.fastPath(tiny.tight), "\(tiny): padded and tight rows differ")
        }
    }

    /// With minimum = maximum radius the mask is 1 everywhere: the progressive blur is the uniform
    /// blur with edges clamped to the frame, in every direction.
    @Test func aConstantProgressiveBlurIsTheUniformBlur() throws {
        try withEveryTinyImage(sigmas: Self.sigmas, edges: [.clamp]) { tiny in
            let reference = try GaussianBlur(sigma: tiny.sigma, edges: .clamp).reference(tiny.bitmap)
            let frame = Rect(x: 0, y: 0, width: Double(tiny.width), height: Double(tiny.height))
            for direction in GradientDirection.allCases {
                var effect = VariableBlurEffect(direction: direction)
                effect.maximumBlurRadius = tiny.sigma
                effect.minimumBlurRadius = tiny.sigma
                effect.dimmingTintColor = nil
                let out = effect.render(over: tiny.bitmap, frame: frame)
                let d = ImageDifference(reference, out)
                #expect(d.maximum <= 1, "\(tiny) \(direction): \(d)")
                #expect(out == effect.render(over: tiny.tight, frame: frame), "\(tiny) \(direction): padded and tight rows differ")
            }
        }
    }

    /// A gradient from σ 0 to each σ of the grid over every tiny image, in every direction: the
    /// stage's lines (copies, the direct rows, and from σ 8 the pyramid's levels with their
    /// fixed-point composite, residual and upsampling) against the float64 reference, the dimming
    /// drawn by both. Also over the image set in a larger backdrop, the frame inset by one pixel.
    @Test func aProgressiveBlurMatchesItsReference() throws {
        try withEveryTinyImage(sigmas: [1.7, 9.5, 25], edges: [.clamp], strides: [0, 4]) { tiny in
            let (w, h) = (tiny.width, tiny.height)
            var backdrop = try Bitmap(width: w + 2, height: h + 2, premultipliedRGBA: [UInt8](repeating: 77, count: (w + 2) * (h + 2) * 4))
            backdrop.replacePixels(at: 1, 1, with: tiny.bitmap)
            let whole = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
            let inset = Rect(x: 1, y: 1, width: Double(w), height: Double(h))
            for direction in GradientDirection.allCases {
                var effect = VariableBlurEffect(direction: direction)
                effect.maximumBlurRadius = tiny.sigma
                effect.minimumBlurRadius = 0
                for (image, frame) in [(tiny.bitmap, whole), (backdrop, inset)] {
                    let out = effect.render(over: image, frame: frame)
                    let d = ImageDifference(effect.reference(over: image, frame: frame), out)
                    #expect(d.maximum <= 1, "\(tiny) \(direction) frame \(frame): \(d)")
                }
                let out = effect.render(over: tiny.bitmap, frame: whole)
                #expect(out == effect.render(over: tiny.tight, frame: whole), "\(tiny) \(direction): padded and tight rows differ")
            }
        }
    }

    /// `resized` is "the mean of the source area each output pixel covers, partial pixels weighted
    /// by their overlap", rounded to nearest with halves up (its `+ 0.5` and truncation). The mean is
    /// computed here exactly, in integers: measured in 1/w of a source pixel, output pixel x covers
    /// [x·W, (x + 1)·W) and source pixel i covers [i·w, (i + 1)·w), so the overlaps are integers and
    /// the mean is their weighted sum over W·H. A mean that is not a half lies at least 1/(2·W·H) ≥
    /// 1/128 from one, far beyond the error of `resized`'s Float sums (~10⁻⁵), so it must round
    /// exactly; an exact half may come out of Float just below and round down, so there, and only
    /// there, one less is allowed. Every target size 1…8 × 1…8: shrinking, enlarging and
    /// non-integer ratios.
    @Test func resizeIsTheExactAreaAverage() throws {
        try withEveryTinyImage(sigmas: [0], edges: [.clamp]) { tiny in
            let (sw, sh) = (tiny.width, tiny.height)
            for (w, h) in everyTinySize {
                let out = try tiny.bitmap.resized(width: w, height: h), fromTight = try tiny.tight.resized(width: w, height: h)
                #expect(out == fromTight, "\(tiny) → \(w)×\(h): padded and tight rows differ")
                #expect(out.scale == Double(w) / Double(sw), "\(tiny) → \(w)×\(h)")
                let xs = Self.overlaps(from: sw, to: w), ys = Self.overlaps(from: sh, to: h)
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = SIMD4<Int>()
                        for (j, wy) in ys[y] { for (i, wx) in xs[x] { sum &+= Self.channels(tiny.tight[i, j]) &* (wx * wy) } }
                        let got = Self.channels(out[x, y]), area = sw * sh
                        for c in 0..<4 {
                            let expected = (2 * sum[c] + area) / (2 * area)
                            let half = (2 * sum[c]) % (2 * area) == area
                            #expect(
                                got[c] == expected || (half && got[c] == expected - 1),
                                "\(tiny) → \(w)×\(h) pixel (\(x), \(y)) channel \(c): \(got[c]), exact mean \(sum[c])/\(area)")
                        }
                    }
                }
            }
        }
    }

    /// `reduced` is "each pixel the mean of a factor × factor block, the edge blocks averaging the
    /// pixels they have". It sums integers, so the result is exact; its rounding (not stated in the
    /// doc comment) is to nearest with halves up. Over the whole image and over a region off the
    /// origin, factors from 1 to past the image's size.
    @Test func reduceIsTheExactBlockAverage() throws {
        try withEveryTinyImage(sigmas: [0], edges: [.clamp]) { tiny in
            let offset = PixelRect(x: tiny.width / 3, y: tiny.height / 2, width: tiny.width - tiny.width / 3, height: tiny.height - tiny.height / 2)
            for region in [PixelRect(x: 0, y: 0, width: tiny.width, height: tiny.height), offset] {
                for factor in [1, 2, 3, 5, 8] {
                    let out = try tiny.bitmap.reduced(region, by: factor), fromTight = try tiny.tight.reduced(region, by: factor)
                    let description = "\(tiny), region \(region) by \(factor)"
                    #expect(out == fromTight, "\(description): padded and tight rows differ")
                    let (w, h) = ((region.width + factor - 1) / factor, (region.height + factor - 1) / factor)
                    #expect(out.width == w && out.height == h && out.scale == 1 / Double(factor), "\(description)")
                    guard out.width == w && out.height == h else { return }
                    for y in 0..<h {
                        for x in 0..<w {
                            var sum = SIMD4<Int>(), count = 0
                            for j in (y * factor)..<min(region.height, (y + 1) * factor) {
                                for i in (x * factor)..<min(region.width, (x + 1) * factor) {
                                    sum &+= Self.channels(tiny.tight[region.x + i, region.y + j])
                                    count += 1
                                }
                            }
                            let expected = (2 &* sum &+ count) / (2 * count)
                            #expect(Self.channels(out[x, y]) == expected, "\(description) pixel (\(x), \(y)): exact mean \(sum) / \(count)")
                        }
                    }
                }
            }
        }
    }

    /// At radius 0 a material draws nothing; at any radius, over an opaque backdrop, every style
    /// stays opaque (the blur clamps at the frame, the tints are drawn source-over). Radii across
    /// the full-resolution range and the reduced-resolution one (24 pt and up).
    @Test(arguments: MaterialStyle.allCases)
    func materialsAreTheIdentityAtRadiusZeroAndKeepOpaqueOpaque(_ style: MaterialStyle) {
        withEveryTinyImage(sigmas: [0], edges: [.clamp]) { tiny in
            let frame = Rect(x: 0, y: 0, width: Double(tiny.width), height: Double(tiny.height))
            let material = Material(style: style, blurEffectRadius: 0, dimmingAlpha: 1, cornerRadius: 2)
            #expect(material.render(over: tiny.bitmap, frame: frame) == tiny.bitmap, "\(style) \(tiny)")
        }
        withEveryTinyImage(sigmas: [1, 3.5, 24, 40], edges: [.clamp], opaque: true) { tiny in
            let frame = Rect(x: 0, y: 0, width: Double(tiny.width), height: Double(tiny.height))
            let material = Material(style: style, blurEffectRadius: tiny.sigma, cornerRadius: 2)
            let out = material.render(over: tiny.bitmap, frame: frame)
            #expect(out.isOpaque, "\(style) \(tiny)")
            #expect(out == material.render(over: tiny.tight, frame: frame), "\(style) \(tiny): padded and tight rows differ")
        }
    }

    /// Per output index along one axis, `n` source pixels to `m`: the source indices it overlaps and
    /// the overlap in units of 1/m source pixel (integers; they sum to `n`).
    static func overlaps(from n: Int, to m: Int) -> [[(Int, Int)]] {
        (0..<m).map { o in
            (0..<n).compactMap { i in
                let overlap = min((o + 1) * n, (i + 1) * m) - max(o * n, i * m)
                return overlap > 0 ? (i, overlap) : nil
            }
        }
    }

    static func channels(_ p: RGBA8) -> SIMD4<Int> { SIMD4(Int(p.r), Int(p.g), Int(p.b), Int(p.a)) }
}
