import BlurCore
import BlurTestSupport
import Testing

/// Issue 53: resize. The geometry of every fit (sharp's words), the gravity, the device pixel ratio
/// and enlargement; the Lanczos-3 stage held to its float64 reference; the same bytes for any
/// thread count and band size; the attention crop.
@Suite struct ResizeTests {
    func plan(_ resize: Resize, _ w: Int, _ h: Int) -> ResizePlan { resize.plan(sourceWidth: w, sourceHeight: h) }

    @Test func theFitsMeetTheBoxAsSharpDoes() {
        // 4000 × 3000 into 800 × 800.
        let box = { (fit: ResizeFit) in Resize(width: 800, height: 800, fit: fit) }
        var p = plan(box(.cover), 4000, 3000)
        #expect((p.scaledWidth, p.scaledHeight, p.width, p.height, p.x, p.y) == (1067, 800, 800, 800, 133, 0))
        p = plan(box(.contain), 4000, 3000)
        #expect((p.scaledWidth, p.scaledHeight, p.width, p.height, p.x, p.y) == (800, 600, 800, 800, 0, -100))
        p = plan(box(.fill), 4000, 3000)
        #expect((p.scaledWidth, p.scaledHeight, p.width, p.height) == (800, 800, 800, 800))
        p = plan(box(.inside), 4000, 3000)
        #expect((p.width, p.height) == (800, 600))
        p = plan(box(.outside), 4000, 3000)
        #expect((p.width, p.height) == (1067, 800))
        // One side: the other from the aspect, whatever the fit.
        p = plan(Resize(width: 1200, height: nil), 6000, 4000)
        #expect((p.width, p.height) == (1200, 800))
        p = plan(Resize(width: nil, height: 100), 6000, 4000)
        #expect((p.width, p.height) == (150, 100))
    }

    @Test func gravityPlacesTheCropAndTheMargin() {
        let corner = { (g: ResizeGravity, fit: ResizeFit) in
            let p = Resize(width: 800, height: 800, fit: fit, gravity: g).plan(sourceWidth: 4000, sourceHeight: 3000)
            return [p.x, p.y]
        }
        let west = ResizeGravity.spec.choices.first { $0.words.contains("west") }!.value
        let east = ResizeGravity.spec.choices.first { $0.words.contains("east") }!.value
        let south = ResizeGravity.spec.choices.first { $0.words.contains("south") }!.value
        #expect(corner(west, .cover) == [0, 0])
        #expect(corner(east, .cover) == [267, 0])
        #expect(corner(south, .contain) == [0, -200])
        // An odd margin: 600 × 300 into 150 × 150 is 150 × 75, 37 pixels above and 38 below (libvips).
        let p = Resize(width: 150, height: 150, fit: .contain).plan(sourceWidth: 600, sourceHeight: 300)
        #expect((p.scaledHeight, p.y) == (75, -37))
    }

    @Test func dprMultipliesAndNothingGrowsUnlessAsked() {
        var p = plan(Resize(width: 300, height: nil, dpr: 2), 4000, 3000)
        #expect((p.width, p.height) == (600, 450))
        // A 500 × 400 image asked at 1000 wide: kept at 500 without enlarge, 1000 with it.
        p = plan(Resize(width: 1000, height: nil), 500, 400)
        #expect((p.width, p.height, p.scaledWidth) == (500, 400, 500))
        #expect(p.isIdentity(sourceWidth: 500, sourceHeight: 400))
        p = plan(Resize(width: 1000, height: nil, enlarge: true), 500, 400)
        #expect((p.width, p.height) == (1000, 800))
        // Cover of a small image: cropped to the box's aspect, not grown.
        p = plan(Resize(width: 1000, height: 1000), 500, 400)
        #expect((p.width, p.height, p.scaledWidth, p.scaledHeight) == (400, 400, 500, 400))
    }

    @Test func shrinkOnLoadLeavesTheReduceAFactorOfTwo() {
        // 6000 → 1200: a factor of 5, so a DCT reduction of 2 (3000 wide, then 2.5 by Lanczos).
        #expect(plan(Resize(width: 1200, height: nil), 6000, 4000).reduction(width: 6000, height: 4000) == 2)
        #expect(plan(Resize(width: 300, height: nil), 6000, 4000).reduction(width: 6000, height: 4000) == 8)
        #expect(plan(Resize(width: 4000, height: nil), 6000, 4000).reduction(width: 6000, height: 4000) == 1)
    }

    static let cases: [(Resize, String)] = [
        (Resize(width: 120, height: nil), "down 4×"), (Resize(width: 333, height: 101, fit: .fill), "fill, odd sizes"),
        (Resize(width: 200, height: 200, fit: .cover), "cover"), (Resize(width: 200, height: 120, fit: .contain), "contain, margins"),
        (Resize(width: 900, height: nil, enlarge: true), "up 1.7×"), (Resize(width: 479, height: nil), "down a pixel"),
    ]

    @Test func theStageMeetsItsReference() throws {
        for image in [TestImages.photo, TestImages.translucentPhoto] {
            for (resize, label) in Self.cases {
                let p = resize.plan(sourceWidth: image.width, sourceHeight: image.height)
                let fast = try LanczosStage(sourceWidth: image.width, sourceHeight: image.height, plan: p).run(image, parts: nil, checkpoint: {})
                let d = ImageDifference(LanczosReference.resize(image, plan: p), fast)
                #expect(d.psnr >= 50 && d.maximum <= 1, "\(label): \(d)")
            }
        }
    }

    @Test func theBytesDoNotDependOnThreadsOrBands() throws {
        let image = TestImages.translucentPhoto
        for (resize, label) in Self.cases {
            let p = resize.plan(sourceWidth: image.width, sourceHeight: image.height)
            let one = try LanczosStage(sourceWidth: image.width, sourceHeight: image.height, plan: p).run(image, parts: 1, checkpoint: {})
            for (parts, band) in [(2, 1), (7, 3), (64, 17), (3, nil)] as [(Int, Int?)] {
                let other = try LanczosStage(sourceWidth: image.width, sourceHeight: image.height, plan: p).run(
                    image, parts: parts, bandRows: band, checkpoint: {})
                #expect(other == one, "\(label), \(parts) parts, bands of \(band.map(String.init) ?? "default")")
            }
        }
    }

    @Test func colourNeverPassesAlphaAndMarginsAreClear() throws {
        let image = TestImages.translucentPhoto
        let p = Resize(width: 150, height: 150, fit: .contain).plan(sourceWidth: image.width, sourceHeight: image.height)
        let out = try LanczosStage(sourceWidth: image.width, sourceHeight: image.height, plan: p).run(image, parts: nil, checkpoint: {})
        out.withPixels { view in
            for y in 0..<out.height {
                let row = view.row(y)
                for x in 0..<out.width {
                    #expect(row[x * 4] <= row[x * 4 + 3] && row[x * 4 + 1] <= row[x * 4 + 3] && row[x * 4 + 2] <= row[x * 4 + 3])
                }
            }
            // The top margin (the image is wider than tall).
            #expect((0..<(out.width * 4)).allSatisfy { view.row(0)[$0] == 0 })
        }
    }

    @Test func attentionFindsTheDetailAndCentresAFlatImage() throws {
        // A flat grey image with one busy square near the right edge.
        var image = try Bitmap(width: 400, height: 200, filledWith: Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        let noise = TestImages.noise(width: 60, height: 60, seed: 7, opaque: true)
        image.withMutablePixels { target in
            noise.withPixels { source in
                for y in 0..<60 { (target.row(70 + y) + 320 * 4).update(from: source.row(y), count: 240) }
            }
        }
        let corner = Attention.crop(of: image, width: 200, height: 200)
        #expect(corner.x >= 180 && corner.y == 0, "\(corner)")
        let flat = try Bitmap(width: 400, height: 200, filledWith: Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 1))
        #expect(Attention.crop(of: flat, width: 200, height: 200) == (100, 0))
    }
}
