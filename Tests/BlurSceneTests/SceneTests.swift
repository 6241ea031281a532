import BlurCore
import BlurScene
import Testing

@Suite struct SceneTests {
    static func checker(_ w: Int, _ h: Int) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<h { for x in 0..<w { let v: UInt8 = (x / 2 + y / 2) % 2 == 0 ? 240 : 20; bytes += [v, v, v, 255] } }
        return try! Bitmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    @Test func opacityAndBlendModesFollowTheFormulas() throws {
        let scene = Scene(width: 40, height: 20, backgroundColor: Color(red: 0.2, green: 0.6, blue: 1))
        let a = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20), content: .color(Color(red: 1, green: 0.5, blue: 0)))
        a.opacity = 0.5
        let b = Layer(frame: Rect(x: 20, y: 0, width: 20, height: 20), content: .color(Color(red: 0.5, green: 0.5, blue: 0.5)))
        b.blendMode = .multiply
        scene.addLayer(a)
        scene.addLayer(b)
        let image = try scene.render(at: 0)
        let left = image[10, 10], right = image[30, 10]
        // Half red over the blue-ish background; multiply by grey halves the background.
        let expected: [(UInt8, Double)] = [(left.r, 0.5 + 0.5 * 0.2), (left.g, 0.25 + 0.5 * 0.6), (right.b, 0.5), (right.g, 0.3)]
        for (got, value) in expected {
            let target: Double = value * 255
            #expect(abs(Double(got) - target) <= 1.5)
        }
    }

    @Test func ownBlurSpreadsAndLeavesWhatIsBeneathAlone() throws {
        func scene(blur: Double?) -> Scene {
            let s = Scene(width: 60, height: 60)
            s.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 60, height: 60), content: .bitmap(Self.checker(60, 60), mode: .stretch)))
            if let blur {
                let square = Layer(frame: Rect(x: 25, y: 25, width: 10, height: 10), content: .color(Color(red: 1, green: 0, blue: 0)))
                square.blurRadius = blur
                s.addLayer(square)
            }
            return s
        }
        let plain = try scene(blur: nil).render(at: 0), blurred = try scene(blur: 3).render(at: 0)
        // Spread past the frame: 2 px outside the square is reddish.
        #expect(Int(blurred[22, 30].r) > Int(blurred[22, 30].g) + 30)
        // Far away, and the pattern beneath: untouched (not blurred).
        for (x, y) in [(2, 2), (5, 50), (55, 10), (50, 55)] { #expect(blurred[x, y] == plain[x, y]) }
        #expect(blurred[2, 2] != blurred[3, 2] || blurred[2, 2] != blurred[2, 4])
    }

    /// A checker of `square`-pixel squares, 240 and 20 grey.
    static func checker(_ w: Int, _ h: Int, square: Int) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<h { for x in 0..<w { let v: UInt8 = (x / square + y / square) % 2 == 0 ? 240 : 20; bytes += [v, v, v, 255] } }
        return try! Bitmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    // Before: the two pixels compared lay in one checker square, equal with no blur at all.
    @Test func backdropFiltersSeeOnlyWhatLiesBeneath() throws {
        let s = Scene(width: 60, height: 40)
        let checker = Self.checker(60, 40, square: 6)
        s.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 60, height: 40), content: .bitmap(checker, mode: .stretch)))
        let glass = Layer(frame: Rect(x: 10, y: 5, width: 40, height: 30))
        glass.backdropFilter = .blur(radius: 4)
        s.addLayer(glass)
        let above = Layer(frame: Rect(x: 20, y: 15, width: 20, height: 10), content: .bitmap(Self.checker(20, 10), mode: .stretch))
        s.addLayer(above)
        let image = try s.render(at: 0)
        // Under the glass (outside `above`): the Gaussian of σ 4 of what lies beneath, its edges clamped
        // to the glass, within the fast path's bound. σ 2 or 6 would be tens of levels away.
        let expected = try GaussianBlur(sigma: 4).reference(checker.cropped(x: 10, y: 5, width: 40, height: 30))
        var worst = 0, blurred = 0
        for y in 5..<35 {
            for x in 10..<50 where !((20..<40).contains(x) && (15..<25).contains(y)) {
                worst = max(worst, abs(Int(image[x, y].r) - Int(expected[x - 10, y - 5].r)))
                blurred = max(blurred, abs(Int(image[x, y].r) - Int(checker[x, y].r)))
            }
        }
        #expect(worst <= 3, "\(worst)")
        #expect(blurred > 60)
        // Half or twice the radius would be far outside that bound.
        for sigma in [2.0, 8] {
            let other = try GaussianBlur(sigma: sigma).reference(checker.cropped(x: 10, y: 5, width: 40, height: 30))
            #expect(ImageDifference(other, expected).maximum > 6, "σ \(sigma)")
        }
        // `above` itself: still sharp, drawn after the filter. Outside the glass: untouched.
        #expect(abs(Int(image[24, 18].r) - Int(image[26, 18].r)) > 150)
        #expect(image[2, 2] == checker[2, 2] && image[55, 38] == checker[55, 38])
    }

    // Before: it checked only that values fell, and compared render(1.6) with render(1.6).
    @Test func viewBlurAnimatesAwayLinearly() throws {
        let s = Scene(width: 40, height: 40)
        let square = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20), content: .color(Color(red: 1, green: 0, blue: 0)))
        square.blurRadius = 6
        s.addLayer(square)
        square.setBlurRadiusAnimated(radius: 0, duration: 0.6, delay: 0.3, at: 1)
        // Held for the delay, then linear: radius 6 × (1 − (t − 1.3) / 0.6), 0 from t = 1.9 on.
        for (t, radius) in [(0.5, 6.0), (1.29, 6), (1.45, 4.5), (1.6, 3), (1.75, 1.5), (1.9, 0), (2.5, 0)] {
            #expect(abs(square.presentation(at: t).blurRadius - radius) < 1e-9, "t \(t)")
            // Each frame is the frame of a still square blurred by that radius.
            let still = Scene(width: 40, height: 40)
            let copy = Layer(frame: square.frame, content: square.content)
            copy.blurRadius = radius
            still.addLayer(copy)
            let d = ImageDifference(try s.render(at: t), try still.render(at: 0))
            #expect(d.maximum <= 1, "t \(t): \(d)")
        }
        // And the pacing is not eased: halfway through the time is halfway through the radius.
        #expect(abs(square.presentation(at: 1.6).blurRadius - 3) < 1e-9)
        let end = try s.render(at: 2.5)
        #expect(end[10, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255) && end[9, 20] == RGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func theDialogBackdropComesBackIntoFocus() throws {
        // Seed 004: the content behind a dialog comes back into focus as the dialog fades.
        let s = Scene(width: 80, height: 60)
        let content = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 60), content: .bitmap(Self.checker(80, 60), mode: .stretch))
        s.addLayer(content)
        let backdrop = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 60))
        backdrop.backdropFilter = .material(Material(style: .systemMaterial, blurEffectRadius: 6, dimmingAlpha: 0.5))
        s.addLayer(backdrop)
        let dialog = Layer(frame: Rect(x: 20, y: 20, width: 40, height: 20), content: .color(.white))
        dialog.cornerRadius = 6
        s.addLayer(dialog)
        s.animate(at: 1, duration: 0.5) {
            dialog.opacity = 0
            backdrop.setBackdropParameter(MaterialOperation.blurEffectRadius, to: 0)
            backdrop.setBackdropParameter(MaterialOperation.dimmingAlpha, to: 0)
        }
        let before = try s.render(at: 0.5), during = try s.render(at: 1.25), after = try s.render(at: 2)
        let plain = try {
            let p = Scene(width: 80, height: 60);
            p.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 80, height: 60), content: .bitmap(Self.checker(80, 60), mode: .stretch)));
            return try p.render(at: 0)
        }()
        #expect(after == plain)
        #expect(ImageDifference(before, plain).maximum > 50 && ImageDifference(during, plain).maximum < ImageDifference(before, plain).maximum)
        #expect(before[40, 30] == RGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func bitmapContentModes() throws {
        let wide = try Bitmap(width: 2, height: 1, straightRGBA: [255, 0, 0, 255, 0, 0, 255, 255])
        func render(_ mode: Layer.ContentMode) throws -> Bitmap {
            let s = Scene(width: 20, height: 20, backgroundColor: .white)
            s.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20), content: .bitmap(wide, mode: mode)))
            return try s.render(at: 0)
        }
        let fit = try render(.fit), fill = try render(.fill), stretch = try render(.stretch)
        #expect(fit[10, 1] == RGBA8(r: 255, g: 255, b: 255, a: 255) && fit[1, 10].r > 200)  // letterboxed
        #expect(fill[10, 1].a == 255 && fill[0, 0].r > 200 && fill[19, 19].b > 200)  // covers, cropped
        #expect(stretch[0, 0].r > 200 && stretch[19, 0].b > 200 && stretch[0, 19].r > 200)
    }
}
