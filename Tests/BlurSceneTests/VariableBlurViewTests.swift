import BlurCore
import BlurScene
import Testing

@Suite struct VariableBlurViewTests {
    let cache = GradientMaskCache()

    func view(_ direction: GradientDirection = .up, width: Double = 200, height: Double = 200) -> VariableBlurView {
        VariableBlurView(frame: Rect(x: 0, y: 0, width: width, height: height), direction: direction, cache: cache)
    }

    @Test func generationWaitsForASize() {
        let v = view(.down, width: 300, height: 0)
        v.dimmingTintColor = nil
        v.layoutIfNeeded()
        #expect(v.blurMask == nil)
        v.frame = Rect(x: 0, y: 0, width: 300, height: 160)
        v.layoutIfNeeded()
        #expect(v.blurMask?.values.count == 160)
        let zeroWidth = view(.down, width: 0, height: 160)
        zeroWidth.layoutIfNeeded()
        #expect(zeroWidth.blurMask == nil)
    }

    @Test func resizingRegeneratesTheMask() {
        let v = view(.down, width: 300, height: 160)
        v.layoutIfNeeded()
        let before = v.blurMask, updates = v.maskUpdateCount
        v.frame = Rect(x: 0, y: 0, width: 300, height: 240)
        v.layoutIfNeeded()
        #expect(v.blurMask?.values.count == 240 && v.blurMask !== before && v.maskUpdateCount == updates + 1)
        let h = view(.right, width: 160, height: 100)
        h.layoutIfNeeded()
        h.frame = Rect(x: 0, y: 0, width: 240, height: 100)
        h.layoutIfNeeded()
        #expect(h.blurMask?.values.count == 240)
    }

    @Test func reassigningCurrentValuesRebuildsNothing() {
        let v = view()
        v.maximumBlurRadius = 20
        v.dimmingFullColorInset = .relative(fraction: 0.3)
        v.layoutIfNeeded()
        let (blur, dimming, updates, builds) = (v.blurMask, v.dimmingMask, v.maskUpdateCount, cache.buildCount)
        v.direction = v.direction
        v.maximumBlurRadius = v.maximumBlurRadius
        v.minimumBlurRadius = v.minimumBlurRadius
        v.blurMaximumRadiusInset = v.blurMaximumRadiusInset
        v.dimmingAlpha = v.dimmingAlpha
        v.dimmingFullColorInset = v.dimmingFullColorInset
        v.dimmingClearExtension = v.dimmingClearExtension
        v.layoutIfNeeded()
        #expect(v.blurMask === blur && v.dimmingMask === dimming)
        #expect(v.maskUpdateCount == updates && cache.buildCount == builds)
    }

    @Test func changingTheTintOrAlphaBuildsNoMask() {
        let v = view()
        v.layoutIfNeeded()
        let (blur, dimming, builds) = (v.blurMask, v.dimmingMask, cache.buildCount)
        v.dimmingTintColor = DynamicColor(Color(red: 1, green: 0, blue: 0))
        v.dimmingAlpha = .constant(alpha: 0.8)
        v.layoutIfNeeded()
        #expect(v.blurMask === blur && v.dimmingMask === dimming && cache.buildCount == builds)
        // A property that does affect a mask builds exactly the one it affects.
        v.dimmingFullColorInset = .relative(fraction: 0.5)
        v.layoutIfNeeded()
        #expect(v.blurMask === blur && v.dimmingMask !== dimming && cache.buildCount == builds + 1)
    }

    @Test func equalViewsShareMasks() {
        let a = view(), b = view()
        a.maximumBlurRadius = 12
        b.maximumBlurRadius = 12
        a.layoutIfNeeded()
        b.layoutIfNeeded()
        #expect(a.blurMask === b.blurMask && a.dimmingMask === b.dimmingMask)
    }

    @Test func swiftUIModifiersConfigureTheView() throws {
        let half = VariableBlur(direction: .up).dimmingFullColorInset(.relative(fraction: 0.5)).dimmingClearExtension(nil)
        let v = half.makeView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        v.layoutIfNeeded()
        #expect(try #require(v.dimmingMask).values.firstIndex(of: 255) == 100)
        half.dimmingFullColorInset(.relative(fraction: 0.25)).update(v)
        v.layoutIfNeeded()
        #expect(try #require(v.dimmingMask).values.firstIndex(of: 255) == 150)
        // An unchanged configuration re-applied keeps everything.
        let (mask, updates) = (v.dimmingMask, v.maskUpdateCount)
        half.dimmingFullColorInset(.relative(fraction: 0.25)).update(v)
        v.layoutIfNeeded()
        #expect(v.dimmingMask === mask && v.maskUpdateCount == updates)
        let chained = VariableBlur().maximumBlurRadius(9).minimumBlurRadius(2).blurMaximumRadiusInset(.absolute(position: 10))
            .dimmingTintColor(nil).dimmingAlpha(.constant(alpha: 0.3))
        #expect(chained.effect.maximumBlurRadius == 9 && chained.effect.minimumBlurRadius == 2)
        #expect(chained.effect.dimmingTintColor == nil && chained.effect.blurMaximumRadiusInset == .absolute(position: 10))
    }
}
