import BlurCore
import BlurScene
import Testing

/// Shapes, masks, group opacity and culling in the layer tree.
@Suite struct LayerTreeTests {
    static let red = Color(red: 1, green: 0, blue: 0)

    @Test func aShapeIsFilledAntialiasedAndSpillsUnlessClipped() throws {
        for clipped in [false, true] {
            let scene = Scene(width: 40, height: 40)
            let layer = Layer(
                frame: Rect(x: 10, y: 10, width: 20, height: 20),
                content: .shape(Path(ellipseIn: Rect(x: -5, y: 0, width: 30, height: 20)), fill: Self.red))
            layer.masksToBounds = clipped
            scene.addLayer(layer)
            let image = try scene.render(at: 0)
            #expect(image[20, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(image[2, 2] == RGBA8(r: 255, g: 255, b: 255, a: 255))
            // The ellipse reaches 5 pt left of the frame: shown only without clipping.
            #expect((image[7, 20].g < 50) == !clipped)
            // An edge pixel is a blend, not a step.
            let edge = (0..<40).map { image[25, $0].g }.filter { $0 > 10 && $0 < 245 }
            #expect(!edge.isEmpty)
        }
    }

    @Test func aMaskLayersAlphaCutsTheLayerOut() throws {
        let scene = Scene(width: 40, height: 40)
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40), content: .color(Self.red))
        let child = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 20), content: .color(Color(red: 0, green: 0, blue: 1)))
        layer.addSublayer(child)
        let mask = Layer(
            frame: Rect(x: 10, y: 10, width: 20, height: 20), content: .shape(Path(ellipseIn: Rect(x: 0, y: 0, width: 20, height: 20)), fill: .black))
        mask.opacity = 0.5
        layer.mask = mask
        scene.addLayer(layer)
        let image = try scene.render(at: 0)
        #expect(image[2, 2] == RGBA8(r: 255, g: 255, b: 255, a: 255))  // outside the mask
        #expect(image[11, 11] == RGBA8(r: 255, g: 255, b: 255, a: 255))  // in the mask's frame, outside the circle
        // Inside: half of the layer (mask opacity 0.5) over white — blue above the middle, red below.
        let top = image[20, 15], bottom = image[20, 25]
        #expect(abs(Int(top.b) - 255) <= 1 && abs(Int(top.r) - 128) <= 1)
        #expect(abs(Int(bottom.r) - 255) <= 1 && abs(Int(bottom.g) - 128) <= 1)
    }

    @Test func aTranslucentGroupFadesAsOne() throws {
        // Two overlapping children at group opacity 0.5: the overlap is not darker than the rest.
        let scene = Scene(width: 30, height: 10)
        let group = Layer(frame: Rect(x: 0, y: 0, width: 30, height: 10))
        group.addSublayer(Layer(frame: Rect(x: 0, y: 0, width: 20, height: 10), content: .color(.black)))
        group.addSublayer(Layer(frame: Rect(x: 10, y: 0, width: 20, height: 10), content: .color(.black)))
        group.opacity = 0.5
        scene.addLayer(group)
        let image = try scene.render(at: 0)
        #expect(image[5, 5] == image[15, 5])
        #expect(abs(Int(image[15, 5].r) - 128) <= 1)
    }

    @Test func layersOutsideWhatIsDrawnAreCulled() throws {
        let scene = Scene(width: 50, height: 50)
        scene.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 50, height: 50), content: .color(.white)))
        scene.addLayer(Layer(frame: Rect(x: 60, y: 0, width: 10, height: 10), content: .color(Self.red)))  // off the canvas
        let clip = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20), content: .color(.black))
        clip.masksToBounds = true
        clip.addSublayer(Layer(frame: Rect(x: 25, y: 0, width: 10, height: 10), content: .color(Self.red)))  // outside its clip
        clip.addSublayer(Layer(frame: Rect(x: 5, y: 5, width: 10, height: 10), content: .color(Self.red)))  // inside
        scene.addLayer(clip)
        let blurred = Layer(frame: Rect(x: -30, y: 20, width: 25, height: 10), content: .color(Self.red))  // off, but blurs in
        blurred.blurRadius = 4
        scene.addLayer(blurred)
        let report = try scene.renderReporting(at: 0)
        #expect(report.drawn == 4 && report.culled == 2)
        #expect(report.image[1, 25].g < 250)  // the blur reaches in from off the canvas
    }

    @Test func ownBlurMatchesBlurringTheLayerAloneOverTheWholeCanvas() throws {
        // The compositor blurs only the layer's extent; the result is the blur of the full canvas.
        let scene = Scene(width: 80, height: 60, backgroundColor: .clear)
        let layer = Layer(frame: Rect(x: 30, y: 20, width: 16, height: 12), content: .color(Self.red))
        layer.blurRadius = 3
        scene.addLayer(layer)
        let composited = try scene.render(at: 0, scale: 2)
        var alone = try Bitmap(width: 160, height: 120, scale: 2)
        alone.composite(Self.red, mode: .normal, in: PixelRect(x: 60, y: 40, width: 32, height: 24))
        let expected = try GaussianBlur(sigma: 6, edges: .transparent).apply(to: alone)
        let difference = ImageDifference(composited, expected)
        #expect(difference.maximum <= 2)
    }

    @Test func aLeafWithABackgroundAndContentFadesAsOne() throws {
        for shape in [false, true] {
            let scene = Scene(width: 20, height: 20)
            let content: Layer.Content =
                shape
                ? .shape(Path(rect: Rect(x: 0, y: 0, width: 20, height: 20)), fill: Color(red: 0, green: 0, blue: 1))
                : .color(Color(red: 0, green: 0, blue: 1))
            let layer = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20), content: content)
            layer.backgroundColor = Self.red
            layer.opacity = 0.5
            scene.addLayer(layer)
            // Blue over red, then half of that over white: (128, 128, 255), not red showing through.
            let p = try scene.render(at: 0)[10, 10]
            #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 128) <= 1 && p.b == 255, "\(p)")
        }
    }

    @Test func aMaterialRadiusAnimatesFromTheStylesDefaultWhenNeverSet() throws {
        let scene = Scene(width: 10, height: 10)
        let glass = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        glass.backdropFilter = .material(Material(style: .systemMaterial))
        scene.addLayer(glass)
        scene.animate(at: 1, duration: 1, curve: .linear) { glass.setBackdropParameter(MaterialOperation.blurEffectRadius, to: 0) }
        let radius = MaterialOperation.blurEffectRadius
        #expect(glass.backdropValue(radius, at: 0) == Material(style: .systemMaterial).effectiveRadius)
        #expect(glass.backdropValue(radius, at: 1.5) == Material(style: .systemMaterial).effectiveRadius / 2)
        #expect(glass.backdropValue(radius, at: 2) == 0)
    }
}
