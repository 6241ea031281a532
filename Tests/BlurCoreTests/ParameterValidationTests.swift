import BlurCore
import Testing

/// The library's strict checks: every invalid number is refused with a message naming it.
@Suite struct ParameterValidationTests {
    static let bad: [Double] = [.nan, .infinity, -.infinity, -1, 1e300]

    @Test func defaultsAndOrdinaryValuesPass() throws {
        #expect(try Material(style: .systemMaterial).validated() == Material(style: .systemMaterial))
        let material = Material(style: .systemThinMaterial, blurEffectRadius: 12, dimmingAlpha: 0.5, cornerRadius: 20)
        #expect(try material.validated() == material)

        var effect = VariableBlurEffect(direction: .up)
        #expect(try effect.validated() == effect)
        effect.maximumBlurRadius = 20
        effect.minimumBlurRadius = 2
        effect.blurMaximumRadiusInset = .absolute(position: 40)
        effect.dimmingFullColorInset = .relative(fraction: 0.3)
        effect.dimmingAlpha = .constant(alpha: 1)
        #expect(try effect.validated() == effect)
    }

    @Test func aValueJustPastABoundIsNotShownAsTheBound() {
        let spec = ParameterSpec(name: "sigma", unit: "px", range: 0...1000, defaultValue: 1, summary: "")
        #expect(message(of: { _ = try spec.validate(1000.0000001) }) == "sigma must be between 0 and 1000 px, got 1000.0000001")
        #expect(message(of: { _ = try spec.validate(-0.00000001) }) == "sigma must be between 0 and 1000 px, got -1e-08")
        #expect(message(of: { _ = try spec.validate(1000.5) }) == "sigma must be between 0 and 1000 px, got 1000.5")
    }

    @Test(arguments: ParameterValidationTests.bad) func materialRefusesBadNumbersByName(_ value: Double) {
        let cases: [(Material, String)] = [
            (Material(style: .systemMaterial, blurEffectRadius: value), "radius"),
            (Material(style: .systemMaterial, dimmingAlpha: value), "dimming"),
            (Material(style: .systemMaterial, cornerRadius: value), "corner-radius"),
        ]
        for (material, name) in cases {
            #expect(message(of: { _ = try material.validated() })?.hasPrefix("\(name) must be") == true, "\(name) = \(value)")
        }
    }

    @Test(arguments: ParameterValidationTests.bad) func progressiveBlurRefusesBadNumbersByName(_ value: Double) {
        let edits: [(String, (inout VariableBlurEffect) -> Void)] = [
            ("max-radius", { $0.maximumBlurRadius = value }),
            ("min-radius", { $0.minimumBlurRadius = value }),
            ("blur-inset", { $0.blurMaximumRadiusInset = .absolute(position: value) }),
            ("blur-inset", { $0.blurMaximumRadiusInset = .relative(fraction: value) }),
            ("dimming-inset", { $0.dimmingFullColorInset = .relative(fraction: value) }),
            ("dimming-extension", { $0.dimmingClearExtension = .relative(fraction: value) }),
            ("dimming", { $0.dimmingAlpha = .constant(alpha: value) }),
            ("dimming (dark)", { $0.dimmingAlpha = .interfaceStyle(lightModeAlpha: 0.5, darkModeAlpha: value) }),
        ]
        for (name, edit) in edits {
            var effect = VariableBlurEffect()
            edit(&effect)
            #expect(message(of: { _ = try effect.validated() })?.hasPrefix("\(name) must be") == true, "\(name) = \(value)")
        }
    }

    @Test func gaussianBlurRefusesBadSigmaByName() {
        for value in Self.bad {
            #expect(message(of: { _ = try GaussianBlur(sigma: value) })?.hasPrefix("sigma must be") == true, "sigma = \(value)")
        }
    }

    private func message(of body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
