import BlurCore
import BlurIO
import BlurScene
import BlurTestSupport
import Testing

@Suite struct MaterialTests {
    static let photo = TestImages.photo
    static let card = Rect(x: 60, y: 50, width: 300, height: 160)

    static func mean(_ image: Bitmap, _ rect: PixelRect) -> SIMD3<Double> {
        var sum = SIMD3<Double>()
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { let p = image[x, y]; sum += SIMD3(Double(p.r), Double(p.g), Double(p.b)) }
        }
        return sum / Double(rect.width * rect.height)
    }

    static func detail(_ image: Bitmap, _ rect: PixelRect) -> Double {
        var sum = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in (rect.x + 1)..<(rect.x + rect.width) { sum += abs(Int(image[x, y].g) - Int(image[x - 1, y].g)) }
        }
        return Double(sum) / Double(rect.width * rect.height)
    }

    /// Mean distance of each pixel's colour from its grey: how colourful.
    static func chroma(_ image: Bitmap, _ rect: PixelRect) -> Double {
        var sum = 0.0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let p = image[x, y], m = (Double(p.r) + Double(p.g) + Double(p.b)) / 3
                sum += abs(Double(p.r) - m) + abs(Double(p.g) - m) + abs(Double(p.b) - m)
            }
        }
        return sum / Double(rect.width * rect.height)
    }

    let inside = PixelRect(x: 80, y: 70, width: 260, height: 120)

    @Test(arguments: MaterialStyle.allCases)
    func everyStyleRendersInEveryAppearance(_ style: MaterialStyle) {
        for appearance in Appearance.allCases {
            let out = Blur(style: style).render(over: Self.photo, frame: Self.card, cornerRadius: 15, appearance: appearance)
            #expect(Self.mean(out, inside) != Self.mean(Self.photo, inside))
            #expect(Self.detail(out, inside) < Self.detail(Self.photo, inside) * 0.3)
            for (x, y) in [(0, 0), (59, 100), (361, 100), (200, 211), (450, 299)] { #expect(out[x, y] == Self.photo[x, y]) }
            #expect(out.isOpaque)
        }
    }

    @Test func darkIsDarkerThanLightAndThicknessIsOrdered() {
        for style in MaterialStyle.adaptive {
            let light = Self.mean(Blur(style: style).render(over: Self.photo, frame: Self.card, appearance: .light), inside)
            let dark = Self.mean(Blur(style: style).render(over: Self.photo, frame: Self.card, appearance: .dark), inside)
            #expect(dark.sum() < light.sum() * 0.6, "\(style)")
        }
        // Thicker dark materials hide more of the backdrop: closer to their #252525 fill.
        let spread = [MaterialStyle.systemUltraThinMaterialDark, .systemThinMaterialDark, .systemMaterialDark, .systemThickMaterialDark].map {
            Self.chroma(Blur(style: $0).render(over: Self.photo, frame: Self.card), inside)
        }
        #expect(spread == spread.sorted(by: >), "\(spread)")
        // Fixed variants ignore the appearance.
        #expect(
            Blur(style: .systemMaterialDark).render(over: Self.photo, frame: Self.card, appearance: .light)
                == Blur(style: .systemMaterial).render(over: Self.photo, frame: Self.card, appearance: .dark))
    }

    @Test func radiusZeroIsNoEffectAtAll() {
        for dimming in [0.0, 0.5, 1] {
            let m = Material(style: .systemThickMaterial, blurEffectRadius: 0, dimmingAlpha: dimming, cornerRadius: 20)
            #expect(m.render(over: Self.photo, frame: Self.card, appearance: .dark) == Self.photo)
        }
        for bad in [Double.nan, -3] {
            #expect(Material(style: .systemMaterial, blurEffectRadius: bad).render(over: Self.photo, frame: Self.card) == Self.photo)
        }
    }

    @Test func aLargerRadiusIsBlurrier() {
        let details = [1.0, 3, 8, 24, 40].map { r in
            Self.detail(Material(style: .systemMaterial, blurEffectRadius: r, dimmingAlpha: 0).render(over: Self.photo, frame: Self.card), inside)
        }
        #expect(zip(details, details.dropFirst()).allSatisfy { $0 > $1 }, "\(details)")
    }

    @Test func saturationAndTintScaleWithTheRadius() throws {
        // On a flat colour the blur changes nothing: what differs is the saturation boost alone.
        let flat = try Bitmap(width: 64, height: 64, straightRGBA: [UInt8](repeating: 0, count: 4096).flatMap { _ in [170, 120, 100, 255] })
        let frame = Rect(x: 0, y: 0, width: 64, height: 64), all = PixelRect(x: 8, y: 8, width: 48, height: 48)
        let chroma = [0.0, 6, 12, 24, 48].map { r in
            Self.chroma(Material(style: .systemMaterial, blurEffectRadius: r, dimmingAlpha: 0).render(over: flat, frame: frame), all)
        }
        #expect(chroma[0] < chroma[1] && chroma[1] < chroma[2] && chroma[2] < chroma[3], "\(chroma)")
        #expect(abs(chroma[3] - chroma[4]) < 1, "saturation stops growing at the default radius")
        // Half the default radius: half the boost (1.4), within rounding.
        let half = Material(style: .systemMaterial, blurEffectRadius: 12, dimmingAlpha: 0).render(over: flat, frame: frame)
        var expected = flat
        expected.saturate(PixelRect(x: 0, y: 0, width: 64, height: 64), by: 1.4)
        #expect(ImageDifference(half, expected).maximum <= 1)
        // The tint scales with dimmingAlpha: none at 0, the style's at 1.
        let blurOnly = Self.mean(Material(style: .systemThickMaterialDark, dimmingAlpha: 0).render(over: flat, frame: frame), all)
        let tinted = Self.mean(Material(style: .systemThickMaterialDark, dimmingAlpha: 1).render(over: flat, frame: frame), all)
        let halfTint = Self.mean(Material(style: .systemThickMaterialDark, dimmingAlpha: 0.5).render(over: flat, frame: frame), all)
        #expect(tinted.sum() < halfTint.sum() && halfTint.sum() < blurOnly.sum())
    }

    @Test func reducedResolutionNeverPixelates() {
        // At the default radius the backdrop is sampled at half resolution. Over noise, the result
        // must still be smooth: neighbours differ by at most a couple of levels, and it matches the
        // full-resolution rendering closely.
        var random = TestRandom(state: 7)
        let noise = try! Bitmap(
            width: 400, height: 300,
            premultipliedRGBA: (0..<(400 * 300)).flatMap { _ -> [UInt8] in
                let v = UInt8(truncatingIfNeeded: random.next() >> 33)
                return [v, v / 2, 255 - v, 255]
            })
        let frame = Rect(x: 0, y: 0, width: 400, height: 300)
        let out = Material(style: .systemThinMaterial).render(over: noise, frame: frame)
        var largest = 0
        for y in 0..<300 { for x in 1..<400 { largest = max(largest, abs(Int(out[x, y].r) - Int(out[x - 1, y].r))) } }
        #expect(largest <= 2, "largest neighbour difference \(largest)")
        let full = Material(style: .systemThinMaterial, blurEffectRadius: 23.999).render(over: noise, frame: frame)
        // More than 3σ (72 px) from the frame's edges: near them, clamping repeats one pixel at full
        // resolution and the mean of two at half, which on noise (not on photos) weighs heavily.
        let interior = (try! out.cropped(x: 80, y: 80, width: 240, height: 140), try! full.cropped(x: 80, y: 80, width: 240, height: 140))
        #expect(ImageDifference(interior.0, interior.1).maximum <= 4)
    }

    @Test func cornersAreAntialiased() {
        let out = Blur(style: .systemChromeMaterialDark).render(over: Self.photo, frame: Self.card, cornerRadius: 30)
        #expect(out[60, 50] == Self.photo[60, 50])  // the corner itself stays backdrop
        #expect(out[75, 75] != Self.photo[75, 75])
        // Along the diagonal into the corner, some pixel is a partial mix of the two.
        let partial = (60..<80).contains { i in
            let o = Int(out[i, 50 + (i - 60)].r), p = Int(Self.photo[i, 50 + (i - 60)].r)
            let full = Int(Blur(style: .systemChromeMaterialDark).render(over: Self.photo, frame: Self.card)[i, 50 + (i - 60)].r)
            return o != p && o != full
        }
        #expect(partial)
        let coverage = RoundedRect.coverage(of: Rect(x: 0, y: 0, width: 40, height: 40), radius: 12, in: PixelRect(x: 0, y: 0, width: 40, height: 40))
        #expect(coverage[0] == 0 && coverage[20 * 40 + 20] == 1 && coverage.contains { $0 > 0 && $0 < 1 })
    }

    @Test func changingStyleOrAppearanceLeavesNothingStale() {
        let view = VisualEffectView(style: .systemUltraThinMaterial, frame: Self.card)
        _ = view.render(over: Self.photo)
        view.style = .systemThickMaterial
        view.blurEffectRadius = 6
        view.dimmingAlpha = 0.5
        let dark = view.render(over: Self.photo, appearance: .dark)
        #expect(
            dark
                == Material(style: .systemThickMaterial, blurEffectRadius: 6, dimmingAlpha: 0.5).render(
                    over: Self.photo, frame: Self.card, appearance: .dark))
        #expect(dark != view.render(over: Self.photo, appearance: .light))
    }

    @Test func textRendersWithASystemFont() throws {
        let font = try Font.system(size: 34)
        var canvas = try Bitmap(width: 400, height: 60)
        let touched = font.draw("World's Greatest Flag", into: &canvas, x: 4, y: 44, color: .black)
        #expect(touched > 500)
        #expect(font.width(of: "World's Greatest Flag") > 200)
        #expect(font.draw("   ", into: &canvas, x: 4, y: 44, color: .black) == 0)
        #expect(throws: FontError.self) { try Font(path: "/nonexistent/font.ttf", size: 12) }
        #expect(throws: ParameterError.self) { try Font(path: font.path, size: .nan) }
        #expect("\(FontError.notFound(searched: ["/a"]))".contains("BLURKIT_FONT"))
    }
}
