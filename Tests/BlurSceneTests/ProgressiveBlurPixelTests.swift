import BlurCore
import BlurScene
import BlurTestSupport
import Foundation
import Testing

/// What a progressive blur does to pixels.
@Suite struct ProgressiveBlurPixelTests {
    /// A checkerboard of 2-pixel squares: every blur shows as lost contrast.
    static func checkerboard(width: Int, height: Int, square: Int = 2, scale: Double = 1) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let v: UInt8 = ((x / square) + (y / square)) % 2 == 0 ? 230 : 25
                bytes += [v, v, v, 255]
            }
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes, scale: scale)
    }

    /// Deterministic noise, opaque.
    static func noise(width: Int, height: Int) -> Bitmap {
        var random = TestRandom(state: 0x1234_5678_9ABC_DEF1)
        var bytes = [UInt8]()
        for _ in 0..<(width * height) {
            let v = UInt8(truncatingIfNeeded: random.next() >> 20)
            bytes += [v, v &+ 40, 255 &- v, 255]
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// Mean absolute difference between horizontal neighbours in a row: fine detail left.
    static func rowDetail(_ image: Bitmap, _ y: Int) -> Double {
        var sum = 0
        for x in 1..<image.width { sum += abs(Int(image[x, y].r) - Int(image[x - 1, y].r)) }
        return Double(sum) / Double(image.width - 1)
    }

    static func columnDetail(_ image: Bitmap, _ x: Int) -> Double {
        var sum = 0
        for y in 1..<image.height { sum += abs(Int(image[x, y].r) - Int(image[x, y - 1].r)) }
        return Double(sum) / Double(image.height - 1)
    }

    func render(_ configure: (inout VariableBlurEffect) -> Void, over backdrop: Bitmap, frame: Rect? = nil, appearance: Appearance = .light) -> Bitmap
    {
        var effect = VariableBlurEffect()
        effect.dimmingTintColor = nil
        configure(&effect)
        let f = frame ?? Rect(x: 0, y: 0, width: Double(backdrop.width) / backdrop.scale, height: Double(backdrop.height) / backdrop.scale)
        return effect.render(over: backdrop, frame: f, appearance: appearance)
    }

    @Test(arguments: GradientDirection.allCases)
    func blurIsFullAtTheFullEdgeAndNoneAtTheClearEdge(_ direction: GradientDirection) {
        let backdrop = Self.checkerboard(width: 120, height: 120)
        let out = render(
            {
                $0.direction = direction; $0.maximumBlurRadius = 6
            }, over: backdrop)
        let detail: (Int) -> Double = direction.isVertical ? { Self.rowDetail(out, $0) } : { Self.columnDetail(out, $0) }
        let original = direction.isVertical ? Self.rowDetail(backdrop, 60) : Self.columnDetail(backdrop, 60)
        let (full, clear) = direction.isReversed ? (detail(118), detail(1)) : (detail(1), detail(118))
        #expect(full < original * 0.05, "\(direction): full edge keeps \(full) of \(original)")
        #expect(clear > original * 0.9, "\(direction): clear edge keeps \(clear) of \(original)")
        #expect(out.isOpaque)
    }

    @Test func aConstantMaskIsTheUniformGaussian() throws {
        let backdrop = Self.noise(width: 160, height: 90)
        for configure in [
            { (e: inout VariableBlurEffect) in
                e.maximumBlurRadius = 5; e.minimumBlurRadius = 5
            },
            { (e: inout VariableBlurEffect) in
                e.maximumBlurRadius = 5; e.blurMaximumRadiusInset = .relative(fraction: 1)
            },
        ] {
            let out = render(configure, over: backdrop)
            let d = ImageDifference(out, try GaussianBlur(sigma: 5).apply(to: backdrop))
            #expect(d.psnr >= 58 && d.maximum <= 3, "\(d)")
        }
        // Below the pyramid (σ < 8 px for rows) rows are blurred exactly, each by its own σ: a constant 2 is
        // the uniform blur itself.
        let small = render(
            {
                $0.maximumBlurRadius = 2; $0.minimumBlurRadius = 2
            }, over: backdrop)
        #expect(small == (try GaussianBlur(sigma: 2).apply(to: backdrop)))
        // At scale 2 the radius is in points: σ = 5 pt × 2 = 10 px.
        let retina = try Bitmap(width: 160, height: 90, premultipliedRGBA: backdrop.premultipliedRGBA, scale: 2)
        let out = render(
            {
                $0.maximumBlurRadius = 5; $0.minimumBlurRadius = 5
            }, over: retina)
        let d = ImageDifference(out, try GaussianBlur(sigma: 10).apply(to: retina))
        #expect(d.psnr >= 58 && d.maximum <= 3, "\(d)")
    }

    /// Stripes of a sine wave across the gradient (period 16 px). A Gaussian of σ scales their
    /// amplitude by exp(−2π²σ²/16²), a smooth function of σ: along a smooth blur the amplitude
    /// changes a little from line to line; a blur built from discrete levels jumps.
    static func stripes(length: Int, across: Int, vertical: Bool) -> Bitmap {
        var bytes = [UInt8]()
        let (w, h) = vertical ? (across, length) : (length, across)
        for y in 0..<h {
            for x in 0..<w {
                let phase = Double(vertical ? x : y) * 2 * .pi / 16
                let v = UInt8((128 + 100 * sin(phase)).rounded())
                bytes += [v, v, v, 255]
            }
        }
        return try! Bitmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    /// Peak-to-peak amplitude of each line along the gradient, over its middle 32 pixels (two
    /// periods, away from the clamped edges).
    static func amplitudes(_ image: Bitmap, vertical: Bool) -> [Int] {
        let lines = vertical ? image.height : image.width, across = vertical ? image.width : image.height
        return (0..<lines).map { line in
            let values = (across / 2 - 16..<across / 2 + 16).map { i in Int(vertical ? image[i, line].r : image[line, i].r) }
            return values.max()! - values.min()!
        }
    }

    /// The largest change of amplitude between neighbouring lines, and whether the amplitude only
    /// grows from the full edge to the clear edge (within rounding).
    static func profile(_ amplitudes: [Int], reversed: Bool) -> (largestStep: Int, monotone: Bool) {
        let ordered = reversed ? amplitudes.reversed() : amplitudes
        let steps = zip(ordered.dropFirst(), ordered).map { $0 - $1 }
        return (steps.map(abs).max()!, steps.allSatisfy { $0 >= -2 })
    }

    @Test(arguments: GradientDirection.allCases)
    func blurGrowsSmoothlyWithNoSteps(_ direction: GradientDirection) {
        let vertical = direction.isVertical
        let backdrop = Self.stripes(length: 400, across: 160, vertical: vertical)
        let out = render(
            {
                $0.direction = direction; $0.maximumBlurRadius = 12
            }, over: backdrop)
        let amplitude = Self.amplitudes(out, vertical: vertical)
        let (largest, monotone) = Self.profile(amplitude, reversed: direction.isReversed)
        #expect(monotone)
        #expect(largest <= 4, "largest change between neighbouring lines: \(largest)")
        #expect(amplitude[direction.isReversed ? 399 : 0] <= 2 && amplitude[direction.isReversed ? 0 : 399] >= 195)
    }

    @Test func aSteppedBlurFailsTheSmoothnessCheck() throws {
        // The same measure on a blur made of four uniform bands, to show that the check can fail.
        let backdrop = Self.stripes(length: 400, across: 64, vertical: true)
        var stepped = backdrop
        for band in 0..<4 {
            let crop = try backdrop.cropped(x: 0, y: band * 100, width: 64, height: 100)
            stepped.replacePixels(at: 0, band * 100, with: try crop.gaussianBlurred(sigma: Double(4 - band) * 1.5))
        }
        #expect(Self.profile(Self.amplitudes(stepped, vertical: true), reversed: false).largestStep > 4)
    }

    @Test func dimmingColoursAndAlphas() {
        let gray = try! Bitmap(width: 40, height: 100, straightRGBA: [UInt8](repeating: 0, count: 4000).flatMap { _ in [128, 128, 128, 255] })
        // Light: white at 0.5 at the full (top) edge, clear at the bottom.
        var light = VariableBlurEffect()
        light.maximumBlurRadius = 0
        light.dimmingClearExtension = nil
        let lit = light.render(over: gray, frame: Rect(x: 0, y: 0, width: 40, height: 100), appearance: .light)
        #expect(abs(Int(lit[20, 0].r) - 191) <= 2)  // 128 + (255 − 128) · 0.5
        #expect(lit[20, 99].r <= 131)
        // Dark: black at 0.25.
        let dark = light.render(over: gray, frame: Rect(x: 0, y: 0, width: 40, height: 100), appearance: .dark)
        #expect(abs(Int(dark[20, 0].r) - 96) <= 2)  // 128 · 0.75
        // A constant tint and alpha; no tint, no dimming.
        var red = light
        red.dimmingTintColor = DynamicColor(Color(red: 1, green: 0, blue: 0))
        red.dimmingAlpha = .constant(alpha: 1)
        let reddened = red.render(over: gray, frame: Rect(x: 0, y: 0, width: 40, height: 100))
        #expect(reddened[20, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        red.dimmingTintColor = nil
        #expect(red.render(over: gray, frame: Rect(x: 0, y: 0, width: 40, height: 100)) == gray)
        // The dimming is independent of the blur radii.
        red.dimmingTintColor = .systemBackground
        red.minimumBlurRadius = 2
        red.maximumBlurRadius = 2
        let flatBlurred = red.render(over: gray, frame: Rect(x: 0, y: 0, width: 40, height: 100))
        #expect(flatBlurred[20, 0].r == 255)
    }

    @Test func extensionIsDrawnOutsideTheViewButNotBlurred() throws {
        let backdrop = Self.checkerboard(width: 100, height: 200)
        var effect = VariableBlurEffect(direction: .down)
        effect.maximumBlurRadius = 6
        effect.dimmingTintColor = DynamicColor(.black)
        effect.dimmingAlpha = .constant(alpha: 1)
        // A 100-pt view at y 40: the dimming extends 25 pt below it, to y 165.
        let out = effect.render(over: backdrop, frame: Rect(x: 0, y: 40, width: 100, height: 100))
        for y in [0, 39] { for x in 0..<100 { #expect(out[x, y] == backdrop[x, y]) } }  // above: untouched
        for y in [170, 199] { for x in 0..<100 { #expect(out[x, y] == backdrop[x, y]) } }  // beyond the extension
        // Inside the extension: darker, but the checkerboard's squares are still sharp (a ratio of
        // neighbours equal to the original's), because only dimming, not blur, reaches there.
        let y = 150
        #expect(Self.rowDetail(out, y) > 0 && Self.rowDetail(out, y) < Self.rowDetail(backdrop, y))
        let a = Double(out[0, y].r), b = Double(out[2, y].r)
        #expect(abs(max(a, b) / max(1, min(a, b)) - 230.0 / 25) < 1.5)
    }

    /// `left` and `right` turn the image through cache a tile at a time (4 × 4 blocks in registers,
    /// a pixel at a time at a tile's edges): on every small size, and across a tile's edge, they are
    /// `down` and `up` over the image turned by another route (`oriented(.leftMirrored)`), byte for
    /// byte, dimming included.
    /// A stage's plan is kept by geometry (``VariableBlurEffect``'s values, the backdrop's size and
    /// scale, the frame, the appearance): each of these, drawn twice in turn over one backdrop size
    /// so that the second pass finds every plan kept, is its own float64 reference.
    @Test func everyGeometryGetsItsOwnPlan() throws {
        let backdrop = Self.noise(width: 96, height: 64)
        var retina = backdrop
        retina.scale = 2
        var effects: [(VariableBlurEffect, Bitmap, Rect, Appearance)] = []
        for frame in [Rect(x: 0, y: 0, width: 96, height: 64), Rect(x: 8, y: 4, width: 60, height: 40), Rect(x: 0, y: 20, width: 96, height: 44)] {
            for direction in [GradientDirection.down, .left] {
                var effect = VariableBlurEffect(direction: direction)
                effect.maximumBlurRadius = 12
                effects.append((effect, backdrop, frame, .light))
                effect.maximumBlurRadius = 9
                effects.append((effect, backdrop, frame, .dark))
            }
        }
        effects.append((VariableBlurEffect(direction: .up), retina, Rect(x: 0, y: 0, width: 48, height: 32), .light))
        for pass in 0..<2 {
            for (effect, image, frame, appearance) in effects {
                let d = ImageDifference(
                    effect.render(over: image, frame: frame, appearance: appearance),
                    effect.reference(over: image, frame: frame, appearance: appearance))
                #expect(
                    d.psnr >= 58 && d.maximum <= 3,
                    "pass \(pass), \(effect.direction) radius \(effect.maximumBlurRadius) over \(frame), \(appearance): \(d)")
            }
        }
    }

    @Test func theHorizontalDirectionsAreTheVerticalOnesTurnedOnEverySize() {
        let sizes = [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 37, 70]
        for (direction, vertical) in [(GradientDirection.left, GradientDirection.down), (.right, .up)] {
            for width in sizes {
                for height in sizes {
                    let image = TestImages.noise(width: width, height: height, seed: UInt64(width * 100 + height))
                    var effect = VariableBlurEffect(direction: direction)
                    effect.maximumBlurRadius = width > 32 ? 24 : 6
                    let out = effect.render(over: image, frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
                    effect.direction = vertical
                    let turned = image.oriented(.leftMirrored)
                    let expected = effect.render(over: turned, frame: Rect(x: 0, y: 0, width: Double(height), height: Double(width)))
                        .oriented(.leftMirrored)
                    #expect(out.premultipliedRGBA == expected.premultipliedRGBA, "\(direction) over \(width)×\(height)")
                }
            }
        }
    }
}
