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

    @Test func backdropFiltersSeeOnlyWhatLiesBeneath() throws {
        let s = Scene(width: 60, height: 40)
        s.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 60, height: 40), content: .bitmap(Self.checker(60, 40), mode: .stretch)))
        let glass = Layer(frame: Rect(x: 10, y: 5, width: 40, height: 30))
        glass.backdropFilter = .blur(radius: 4)
        s.addLayer(glass)
        let above = Layer(frame: Rect(x: 20, y: 15, width: 20, height: 10), content: .bitmap(Self.checker(20, 10), mode: .stretch))
        s.addLayer(above)
        let image = try s.render(at: 0)
        // Under the glass (outside `above`): smooth. `above` itself: still sharp. Outside: untouched.
        #expect(abs(Int(image[14, 8].r) - Int(image[15, 8].r)) < 20)
        #expect(abs(Int(image[24, 18].r) - Int(image[26, 18].r)) > 150)
        #expect(image[2, 2] == Self.checker(60, 40)[2, 2])
    }

    @Test func viewBlurAnimatesAwayLinearly() throws {
        let s = Scene(width: 40, height: 40)
        let square = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20), content: .color(Color(red: 1, green: 0, blue: 0)))
        square.blurRadius = 6
        s.addLayer(square)
        square.setBlurRadiusAnimated(radius: 0, duration: 0.6, delay: 0.3, at: 1)
        let frames = try [0.5, 1.29, 1.6, 1.9, 2.5].map { try s.render(at: $0) }
        // Held during the delay, then sharper and sharper; sharp at the end.
        #expect(frames[0] == frames[1])
        let edge = frames.map { Int($0[10, 20].g) }  // the square's left edge: white mixes in while blurred
        #expect(edge[1] > edge[2] && edge[2] > edge[3], "\(edge)")
        #expect(frames[4][10, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255) && frames[4][9, 20] == RGBA8(r: 255, g: 255, b: 255, a: 255))
        #expect(abs(Int(frames[2][10, 20].g) - Int(try s.render(at: 1.6)[10, 20].g)) == 0)
    }

    @Test func theDialogBackdropComesBackIntoFocus() throws {
        // Seed 004: the content behind a dialog comes back into focus as the dialog fades.
        let s = Scene(width: 80, height: 60)
        let content = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 60), content: .bitmap(Self.checker(80, 60), mode: .stretch))
        s.addLayer(content)
        let backdrop = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 60))
        backdrop.backdropFilter = .material(Material(style: .systemMaterial))
        backdrop.blurEffectRadius = 6
        backdrop.dimmingAlpha = 0.5
        s.addLayer(backdrop)
        let dialog = Layer(frame: Rect(x: 20, y: 20, width: 40, height: 20), content: .color(.white))
        dialog.cornerRadius = 6
        s.addLayer(dialog)
        s.animate(at: 1, duration: 0.5) {
            dialog.opacity = 0
            backdrop.blurEffectRadius = 0
            backdrop.dimmingAlpha = 0
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
