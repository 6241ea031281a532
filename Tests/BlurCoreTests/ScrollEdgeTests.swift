import BlurCore
import BlurTestSupport
import Testing

/// The scroll-edge effect: a band along one edge only, soft growing more opaque toward the edge,
/// hard nearly opaque with a dividing line, each edge the mirror of its opposite.
@Suite struct ScrollEdgeTests {
    /// A striped opaque image, `width × height`, at `scale`.
    static func stripes(width: Int = 60, height: Int = 80, scale: Double = 1) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let on = (x / 3 + y / 3) % 2 == 0
                bytes += on ? [200, 40, 90, 255] : [20, 160, 60, 255]
            }
        }
        return try Bitmap(width: width, height: height, premultipliedRGBA: bytes, scale: scale)
    }

    /// Mean distance of row `y` from white, per channel.
    static func distanceFromWhite(_ image: Bitmap, row y: Int) -> Double {
        var sum = 0.0
        for x in 0..<image.width {
            let p = image[x, y]
            sum += Double(765 - Int(p.r) - Int(p.g) - Int(p.b))
        }
        return sum / Double(image.width * 3)
    }

    @Test(arguments: [ScrollEdgeStyle.soft, .hard])
    func onlyTheBandChanges(style: ScrollEdgeStyle) throws {
        let image = try Self.stripes()
        var effect = ScrollEdgeEffect()
        effect.style = style
        effect.height = 20
        let out = effect.render(over: image, frame: Rect(x: 0, y: 0, width: 60, height: 80))
        for y in 0..<80 {
            let changed = (0..<60).contains { out[$0, y] != image[$0, y] }
            if y >= 20 || y < 15 { #expect(changed == (y < 20), "row \(y): changed \(changed)") }
        }
        for y in 0..<80 { for x in 0..<60 { #expect(out[x, y].a == 255) } }
    }

    @Test func softGrowsMoreOpaqueTowardTheEdge() throws {
        var effect = ScrollEdgeEffect()
        effect.height = 40
        let out = effect.render(over: try Self.stripes(), frame: Rect(x: 0, y: 0, width: 60, height: 80))
        let distances = [0, 10, 20, 30].map { Self.distanceFromWhite(out, row: $0) }
        #expect(distances == distances.sorted(), "\(distances)")
        #expect(distances[0] < 0.2 * Self.distanceFromWhite(try Self.stripes(), row: 0), "\(distances)")
    }

    @Test(arguments: [Appearance.light, .dark])
    func hardIsNearlyOpaqueWithADividingLine(appearance: Appearance) throws {
        var effect = ScrollEdgeEffect()
        effect.style = .hard
        effect.height = 20
        let out = effect.render(over: try Self.stripes(), frame: Rect(x: 0, y: 0, width: 60, height: 80), appearance: appearance)
        let background: UInt8 = appearance == .light ? 255 : 0
        let inside = out[30, 5]
        for c in [inside.r, inside.g, inside.b] { #expect(abs(Int(c) - Int(background)) <= 16, "\(inside)") }
        // The line is the separator over the band's colour: it differs from the row above it.
        #expect(out[30, 19] != out[30, 18], "\(out[30, 19]) \(out[30, 18])")
    }

    /// The bottom edge is the top edge of the image turned upside down (within the progressive
    /// blur's rounding: its decimation has a phase).
    @Test func theEdgesAreOneEffectTurned() throws {
        let image = try Self.stripes(width: 48, height: 48)
        let frame = Rect(x: 0, y: 0, width: 48, height: 48)
        var top = ScrollEdgeEffect()
        top.height = 16
        var bottom = top
        bottom.edge = .bottom
        let a = top.render(over: image, frame: frame)
        let b = bottom.render(over: image.oriented(.downMirrored), frame: frame).oriented(.downMirrored)
        var worst = 0
        for y in 0..<48 {
            for x in 0..<48 {
                let p = a[x, y], q = b[x, y]
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        #expect(worst <= 4, "the bottom edge differs from the top edge turned by \(worst)")
    }

    @Test func theOperationsDefaultsAreTheEffects() throws {
        let operation = BlurOperation(ScrollEdgeOperation.self)
        let built = try ScrollEdgeOperation.effect(try operation.read([], as: .key, in: .javascript))
        #expect(built == ScrollEdgeEffect())
        #expect(throws: ParameterError.self) { _ = try operation.read([("height", "0")], as: .key, in: .javascript) }
        #expect(operation.flag == "scroll-edge")
    }
}
