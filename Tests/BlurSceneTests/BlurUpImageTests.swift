import BlurCore
import BlurScene
import Testing

@Suite struct BlurUpImageTests {
    /// A preview with detail (so blur is measurable) and a different full image.
    static func stripes(_ w: Int, _ h: Int, dark: Bool = false) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<h {
            for x in 0..<w {
                let v: UInt8 = (x / 3 + y / 3) % 2 == 0 ? (dark ? 60 : 230) : (dark ? 20 : 30); bytes += [v, dark ? v : 120, v / 2, 255]
            }
        }
        return try! Bitmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    static let frame = Rect(x: 0, y: 0, width: 60, height: 80)

    @Test func theImageComesIntoFocusOnTheEaseOutCurve() {
        let view = BlurUpImage(preview: Self.stripes(6, 8), label: "Mountains at dusk", frame: Self.frame)
        #expect(view.imagePresentation(at: 0) == (0, 24))
        view.setImage(Self.stripes(60, 80), at: 1)
        for fraction in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            let p = TimingCurve.easeOut.progress(at: fraction, duration: 0.8)
            let shown = view.imagePresentation(at: 1 + 0.8 * fraction)
            #expect(abs(shown.opacity - p) < 1e-9 && abs(shown.blurRadius - 24 * (1 - p)) < 1e-9, "at \(fraction): \(shown)")
        }
        #expect(view.imagePresentation(at: 5) == (1, 0))
        // Leaving: the same way back, from what is showing.
        view.setImage(nil, at: 6)
        let halfway = view.imagePresentation(at: 6.4)
        let p = TimingCurve.easeOut.progress(at: 0.5, duration: 0.8)
        #expect(abs(halfway.opacity - (1 - p)) < 1e-9 && abs(halfway.blurRadius - 24 * p) < 1e-9)
        #expect(view.imagePresentation(at: 7) == (0, 24))
        // Interrupted on the way in: starts from the presentation value.
        view.setImage(Self.stripes(60, 80), at: 10)
        view.setImage(nil, at: 10.2)
        #expect(abs(view.imagePresentation(at: 10.2).opacity - TimingCurve.easeOut.progress(at: 0.25, duration: 0.8)) < 1e-9)
    }

    @Test func reduceMotionIsAPlainFifthOfASecondFade() {
        let view = BlurUpImage(preview: Self.stripes(6, 8), label: "x", reduceMotion: true, frame: Self.frame)
        view.setImage(Self.stripes(60, 80), at: 0)
        for t in [0.0, 0.05, 0.1, 0.15, 0.2, 0.5] {
            let shown = view.imagePresentation(at: t)
            #expect(shown.blurRadius == 0)
            #expect(abs(shown.opacity - TimingCurve.easeOut.progress(at: min(1, t / 0.2), duration: 0.2)) < 1e-9)
        }
    }

    @Test func noFrameIsBlankOrFlashes() throws {
        let preview = Self.stripes(6, 8), full = Self.stripes(60, 80, dark: true)
        let view = BlurUpImage(preview: preview, label: "x", frame: Self.frame)
        view.setImage(full, at: 0.1)
        var previousMean: Double?
        for n in 0..<36 {
            let image = try view.render(at: Double(n) / 30, scale: 1)
            let pixels = image.premultipliedRGBA
            #expect(stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }, "frame \(n) has holes")
            let mean = Double(stride(from: 1, to: pixels.count, by: 4).reduce(0) { $0 + Int(pixels[$1]) }) / Double(pixels.count / 4)
            // The brightness moves steadily from the preview's to the image's: no jump (a flash).
            if let previousMean { #expect(abs(mean - previousMean) < 12, "frame \(n) jumps from \(previousMean) to \(mean)") }
            previousMean = mean
        }
        #expect(
            try view.render(at: 2).premultipliedRGBA == Bitmap(width: 60, height: 80, premultipliedRGBA: full.premultipliedRGBA).premultipliedRGBA)
    }

    @Test func theIndicatorTurnsExactlyWhileLoadingWithoutAnImage() throws {
        let dark = try Bitmap(
            width: 6, height: 8, premultipliedRGBA: [UInt8](repeating: 0, count: 6 * 8 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : 10 })
        func whitePixels(_ view: BlurUpImage, _ t: Double) throws -> Int {
            let p = try view.render(at: t, scale: 2).premultipliedRGBA
            return stride(from: 0, to: p.count, by: 4).filter { p[$0] > 128 }.count
        }
        let view = BlurUpImage(preview: dark, label: "x", frame: Self.frame)
        let shownPixels = try whitePixels(view, 0)
        #expect(view.showsActivityIndicator(at: 0) && shownPixels > 20)
        let first = try view.render(at: 0, scale: 2), later = try view.render(at: 0.125, scale: 2)
        #expect(first != later)  // it turns
        view.setImage(dark, at: 1)
        let afterImage = try whitePixels(view, 2)
        #expect(!view.showsActivityIndicator(at: 2) && afterImage == 0)
        view.setImage(nil, at: 3)
        #expect(view.showsActivityIndicator(at: 4))
        view.setLoading(false, at: 5)
        let notLoading = try whitePixels(view, 6)
        #expect(!view.showsActivityIndicator(at: 5) && notLoading == 0)
        let idle = BlurUpImage(preview: dark, label: "x", isLoading: false, frame: Self.frame)
        #expect(!idle.showsActivityIndicator(at: 0))
    }

    @Test func accessibilityIsOneImageElementWithTheLabel() {
        let view = BlurUpImage(preview: Self.stripes(6, 8), label: "Mountains at dusk", frame: Self.frame)
        #expect(view.accessibility == AccessibilityElement(label: "Mountains at dusk", value: "Loading", traits: [.image]))
        view.setImage(Self.stripes(60, 80), at: 0)
        #expect(view.accessibility.value == "")
        view.setImage(nil, at: 1)
        #expect(view.accessibility.value == "Loading")
        view.setLoading(false, at: 2)
        #expect(view.accessibility.value == "")
    }

    @Test func theRadiusIsNeverNegativeAndThePreviewFillsTheFrame() throws {
        let preview = Self.stripes(60, 80)
        let sharp = BlurUpImage(preview: preview, label: "x", blurRadius: -5, isLoading: false, frame: Self.frame)
        #expect(sharp.blurRadius == 0)
        let blurred = BlurUpImage(preview: preview, label: "x", isLoading: false, frame: Self.frame)
        let a = try sharp.render(at: 0), b = try blurred.render(at: 0)
        // Sharp: strong contrast between neighbours; blurred with opaque edges: little, and opaque everywhere.
        func contrast(_ image: Bitmap) -> Int { (0..<59).map { abs(Int(image[$0, 40].r) - Int(image[$0 + 1, 40].r)) }.max()! }
        #expect(contrast(a) > 100 && contrast(b) < 20)
        #expect(b.premultipliedRGBA.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        // A square frame: the 3:4 preview is scaled to fill it, cropped top and bottom.
        let square = BlurUpImage(preview: preview, label: "x", blurRadius: 0, isLoading: false, frame: Rect(x: 0, y: 0, width: 80, height: 80))
        #expect(try square.render(at: 0).premultipliedRGBA.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }
}
