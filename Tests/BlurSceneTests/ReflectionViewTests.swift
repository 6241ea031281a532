import BlurCore
import BlurScene
import Testing

@Suite struct ReflectionViewTests {
    /// Top red, bottom blue, with a fine vertical stripe pattern for blur to show.
    static let content: Bitmap = {
        var bytes = [UInt8]()
        for y in 0..<50 {
            for x in 0..<100 {
                let stripe: UInt8 = x % 4 < 2 ? 0 : 60
                bytes += y < 25 ? [255, stripe, 0, 255] : [0, stripe, 255, 255]
            }
        }
        return try! Bitmap(width: 100, height: 50, premultipliedRGBA: bytes)
    }()
    static let backdrop = try! Bitmap(width: 100, height: 100, straightRGBA: [UInt8](repeating: 255, count: 100 * 100 * 4))

    static func stripes(_ image: Bitmap, row: Int) -> Int {
        (1..<100).map { abs(Int(image[$0, row].g) - Int(image[$0 - 1, row].g)) }.max()!
    }

    @Test func defaultsAreUpstreams() {
        let view = ReflectionView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(view.reflectionAlpha == 0.5 && !view.isReflectionHidden)
        #expect(view.blur.direction == .up && view.blur.maximumBlurRadius == 4.5)
        #expect(view.reflectionFrame == Rect(x: 0, y: 50, width: 100, height: 50))
    }

    @Test func theReflectionMirrorsBelowTheSplitAndBlursTowardsTheFarEdge() {
        let view = ReflectionView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let out = view.render(content: Self.content, over: Self.backdrop)
        // Top half: the content itself.
        #expect(out[10, 5] == Self.content[10, 5] && out[10, 45] == Self.content[10, 45])
        // Just below the split the mirror shows the content's bottom (blue) at half strength over white.
        let near = out[10, 52]
        #expect(near.b == 255 && abs(Int(near.r) - 128) <= 3)
        // At the far edge it shows the content's top (red), and the stripes are blurred away.
        let far = out[10, 98]
        #expect(far.r == 255 && far.b < 200)
        #expect(Self.stripes(out, row: 52) > 20 && Self.stripes(out, row: 98) < 5)
    }

    @Test func alphaAndHidingControlTheReflection() {
        let view = ReflectionView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        view.reflectionAlpha = 0
        let none = view.render(content: Self.content, over: Self.backdrop)
        #expect(none[10, 70] == Self.backdrop[10, 70])
        view.reflectionAlpha = 1
        let full = view.render(content: Self.content, over: Self.backdrop)
        #expect(full[10, 52].r < 10 && full[10, 52].b > 245)
        view.isReflectionHidden = true
        #expect(view.render(content: Self.content, over: Self.backdrop)[10, 70] == Self.backdrop[10, 70])
    }
}
