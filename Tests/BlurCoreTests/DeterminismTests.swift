import BlurCore
import BlurTestSupport
import Testing

/// Same input, same bytes, whatever the thread count: the progressive blur and the materials, on
/// both of their paths (the kernels' own thread tests are in GaussianBlurTests).
@Suite struct DeterminismTests {
    static let image: Bitmap = {
        var crop = try! TestImages.translucentPhoto.cropped(x: 150, y: 30, width: 240, height: 200)
        crop.scale = 2
        return crop
    }()
    static let frame = Rect(x: 10, y: 5, width: 100, height: 90)

    @Test(arguments: GradientDirection.allCases)
    func theProgressiveBlurIsTheSameForAnyThreadCount(_ direction: GradientDirection) {
        var effect = VariableBlurEffect(direction: direction)
        effect.maximumBlurRadius = 12  // pyramid levels and direct rows both
        let serial = effect.render(over: Self.image, frame: Self.frame, threads: 1)
        for threads in [2, 3, 7, 64] {
            #expect(effect.render(over: Self.image, frame: Self.frame, threads: threads) == serial, "\(direction), \(threads) threads")
        }
        #expect(effect.render(over: Self.image, frame: Self.frame) == serial)
    }

    @Test(arguments: [nil, 4.0])
    func materialsAreTheSameForAnyThreadCount(_ radius: Double?) {
        var material = Material(style: .systemThinMaterial)
        material.blurEffectRadius = radius  // the reduced-resolution path, and the full one
        material.cornerRadius = 12
        for appearance in Appearance.allCases {
            let serial = material.render(over: Self.image, frame: Self.frame, appearance: appearance, threads: 1)
            for threads in [2, 5, 64] {
                #expect(material.render(over: Self.image, frame: Self.frame, appearance: appearance, threads: threads) == serial)
            }
        }
    }
}
