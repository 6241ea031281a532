import BlurCore
import Foundation
import Testing

/// BlurUIKit's own mask cases (FIDELITY §1.9), on the value that computes them.
@Suite struct GradientMaskTests {
    let cache = GradientMaskCache()

    func masks(
        _ effect: VariableBlurEffect, width: Double = 200, height: Double = 200
    ) throws -> (blur: GradientMask, dimming: GradientMask, frame: Rect) {
        let layout = try #require(effect.layout(width: width, height: height))
        return (cache.mask(for: layout.blurMask), cache.mask(for: layout.dimmingMask), layout.dimmingFrame)
    }

    @Test func defaultsAreBlurUIKits() {
        let effect = VariableBlurEffect()
        #expect(effect.direction == .down)
        #expect(effect.maximumBlurRadius == 3.5 && effect.minimumBlurRadius == 0)
        #expect(effect.blurMaximumRadiusInset == nil && effect.dimmingFullColorInset == nil)
        #expect(effect.dimmingClearExtension == .relative(fraction: 0.25))
        #expect(effect.dimmingTintColor == .systemBackground)
        #expect(effect.dimmingAlpha?.alpha(for: .light) == 0.5 && effect.dimmingAlpha?.alpha(for: .dark) == 0.25)
    }

    @Test func maskLengthIsTheSizeInPoints() throws {
        let m = try masks(VariableBlurEffect(), width: 300, height: 160)
        #expect(m.blur.values.count == 160)
        var right = VariableBlurEffect(direction: .right)
        right.dimmingClearExtension = nil
        #expect(try masks(right, width: 240, height: 160).blur.values.count == 240)
        #expect(VariableBlurEffect().layout(width: 0, height: 160) == nil)
        #expect(VariableBlurEffect(direction: .right).layout(width: 300, height: 0) == nil)
    }

    @Test func minimumRadiusAndInsetShapeTheBlurMask() throws {
        var effect = VariableBlurEffect(direction: .up)
        effect.minimumBlurRadius = 6
        effect.maximumBlurRadius = 30
        effect.blurMaximumRadiusInset = .relative(fraction: 0.5)
        let mask = try masks(effect).blur.values
        #expect(mask.first == 51 && mask[100] == 255 && mask.last == 255)
        #expect(mask[99] < 255 && mask[50] > 51)
    }

    @Test func clearExtensionGrowsOnlyTheDimmingFrame() throws {
        var effect = VariableBlurEffect(direction: .up)
        #expect(try masks(effect).frame == Rect(x: 0, y: -50, width: 200, height: 250))
        effect.dimmingClearExtension = .relative(fraction: 0.5)
        #expect(try masks(effect).frame == Rect(x: 0, y: -100, width: 200, height: 300))
        effect.dimmingClearExtension = .absolute(position: 40)
        #expect(try masks(effect).frame == Rect(x: 0, y: -40, width: 200, height: 240))
        effect.dimmingClearExtension = nil
        #expect(try masks(effect).frame == Rect(x: 0, y: 0, width: 200, height: 200))
        #expect(try masks(effect).blur.values.count == 200)
    }

    /// Where the dimming reaches full colour, in the view's points.
    func fullColourPosition(_ effect: VariableBlurEffect, height: Double = 200) throws -> Double {
        let m = try masks(effect, height: height)
        let index = try #require(m.dimming.values.firstIndex(of: 255))
        return m.frame.y + Double(index)
    }

    @Test func fullColourInsetIsMeasuredOnTheOriginalView() throws {
        var effect = VariableBlurEffect(direction: .up)
        effect.dimmingFullColorInset = .relative(fraction: 0.5)
        effect.dimmingClearExtension = .relative(fraction: 0.5)
        #expect(try fullColourPosition(effect) == 100)
        effect.dimmingClearExtension = .relative(fraction: 1.0)
        #expect(try fullColourPosition(effect) == 100)
        // Resized to 300 tall: the image grows to 450, full colour at 150.
        effect.dimmingClearExtension = .relative(fraction: 0.5)
        #expect(try masks(effect, height: 300).dimming.values.count == 450)
        #expect(try fullColourPosition(effect, height: 300) == 150)
    }

    @Test func equalInsetsShareOneCachedMask() throws {
        var a = VariableBlurEffect(direction: .up), b = a
        a.dimmingFullColorInset = .relative(fraction: 0.2)
        b.dimmingFullColorInset = .absolute(position: 40)
        let first = try masks(a).dimming, builds = cache.buildCount
        #expect(try masks(b).dimming === first)
        #expect(cache.buildCount == builds)
        #expect(try fullColourPosition(a) == 160)
    }

    @Test(arguments: GradientDirection.allCases)
    func extensionUsesTheClearEdgeInEveryDirection(_ direction: GradientDirection) throws {
        var effect = VariableBlurEffect(direction: direction)
        effect.dimmingClearExtension = .absolute(position: 40)
        let m = try masks(effect)
        #expect(m.dimming.values.count == 240)
        let origin = direction.isVertical ? m.frame.y : m.frame.x
        #expect(origin == (direction.isReversed ? -40 : 0))
        let ends = (m.dimming.values.first!, m.dimming.values.last!)
        #expect(direction.isReversed ? ends == (0, 255) : ends == (255, 0))
        let blurEnds = (m.blur.values.first!, m.blur.values.last!)
        #expect(direction.isReversed ? blurEnds == (0, 255) : blurEnds == (255, 0))
    }

    @Test func invalidExtensionsAddNothing() throws {
        for bad in [Double.infinity, .nan, -1, .greatestFiniteMagnitude] {
            for sizing in [GradientSizing.relative(fraction: bad), .absolute(position: bad)] {
                var effect = VariableBlurEffect(direction: .up)
                effect.dimmingClearExtension = sizing
                #expect(try masks(effect).dimming.values.count == 200, "\(sizing)")
            }
        }
    }

    @Test func invalidInsetsCountAsZeroAndOversizedOnesFill() throws {
        for bad in [Double.infinity, .nan, -1, -.infinity] {
            var effect = VariableBlurEffect(direction: .up)
            effect.blurMaximumRadiusInset = .relative(fraction: bad)
            effect.dimmingFullColorInset = .absolute(position: bad)
            let m = try masks(effect)
            #expect(m.blur.values.first == 0 && m.dimming.values.first == 0, "\(bad)")
        }
        var effect = VariableBlurEffect(direction: .up)
        effect.blurMaximumRadiusInset = .relative(fraction: 2)
        effect.dimmingFullColorInset = .absolute(position: .greatestFiniteMagnitude)
        effect.dimmingClearExtension = nil
        let m = try masks(effect)
        #expect(m.blur.values.allSatisfy { $0 == 255 } && m.dimming.values.allSatisfy { $0 == 255 })
    }

    @Test(arguments: GradientDirection.allCases)
    func minimumRadiusIsAFloorThatLeavesDimmingAlone(_ direction: GradientDirection) throws {
        var effect = VariableBlurEffect(direction: direction)
        effect.minimumBlurRadius = 3
        effect.maximumBlurRadius = 60
        effect.dimmingAlpha = .constant(alpha: 0.9)
        let m = try masks(effect)
        let blur = (m.blur.values.first!, m.blur.values.last!), dim = (m.dimming.values.first!, m.dimming.values.last!)
        #expect(direction.isReversed ? blur == (12, 255) : blur == (255, 12))
        #expect(direction.isReversed ? dim == (0, 255) : dim == (255, 0))
        #expect(effect.dimmingAlpha?.alpha(for: .dark) == 0.9)
    }

    @Test func invalidRadiiAreSanitised() {
        for bad in [Double.nan, .infinity, -5] {
            var effect = VariableBlurEffect()
            effect.maximumBlurRadius = bad
            effect.minimumBlurRadius = 2
            #expect(effect.effectiveMaximumRadius == 0 && effect.minimumAlpha == 0)
        }
        var effect = VariableBlurEffect()
        effect.minimumBlurRadius = .nan
        #expect(effect.minimumAlpha == 0)
        effect.minimumBlurRadius = 99
        #expect(effect.minimumAlpha == 1)
    }

    @Test func dimmingIsSineEasedAndBlurLinear() throws {
        var effect = VariableBlurEffect(direction: .down)
        effect.dimmingClearExtension = nil
        let m = try masks(effect, height: 101)
        // Linear: the middle of the blur mask is half. Sine-eased: a quarter of the way is
        // ½(1 − cos(¾π)) ≈ 0.854, more than linear's 0.75.
        #expect(m.blur.values[50] == 127)
        #expect(m.dimming.values[25] == 217)
    }

    // BlurUIKit stores UInt8(value × 255), which truncates: every entry, computed here from the
    // definitions, exactly (rounding would differ at about half of them).
    @Test func everyEntryIsTruncatedAsBlurUIKitStoresIt() throws {
        for minimum in [0.0, 1] {
            var effect = VariableBlurEffect(direction: .down)
            effect.dimmingClearExtension = nil
            effect.minimumBlurRadius = minimum
            let m = try masks(effect, height: 101)
            let floor = minimum / effect.maximumBlurRadius
            var rounding = 0
            for i in 0..<101 {
                let t = Double(i) / 100
                let linear = floor + (1 - t) * (1 - floor)
                let sine = 1 - (1 - cos(Double.pi * t)) / 2
                #expect(m.blur.values[i] == UInt8(linear * 255), "blur entry \(i)")
                #expect(m.dimming.values[i] == UInt8(sine * 255), "dimming entry \(i)")
                if UInt8(linear * 255) != UInt8((linear * 255).rounded()) { rounding += 1 }
            }
            #expect(rounding > 30, "the check tells truncation from rounding at \(rounding) entries")
        }
    }

    @Test func enumsAreHashableSendableAndDistinguishPayloads() {
        func sendable<T: Sendable & Hashable>(_ value: T) -> T { value }
        #expect(sendable(GradientSizing.relative(fraction: 0.5)) != .absolute(position: 0.5))
        #expect(sendable(GradientSizing.relative(fraction: 0.5)) != .relative(fraction: 0.25))
        #expect(sendable(DimmingAlpha.constant(alpha: 0.5)) != .interfaceStyle(lightModeAlpha: 0.5, darkModeAlpha: 0.5))
        #expect(Set(GradientDirection.allCases.map(sendable)).count == 4)
    }
}
