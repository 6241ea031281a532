import BlurCore
import BlurScene
import Foundation
import Testing

/// The scene reader accepts exactly each parameter table's bounds, as the command line does
/// (BlurCLITests.ParameterTableTests): one declaration, no second range.
@Suite struct SceneParameterTableTests {
    struct Key: CustomTestStringConvertible, Sendable {
        /// The document with `$` where the value goes.
        let template: String
        let spec: ParameterSpec
        var testDescription: String { "\(spec.name): \(template.prefix(60))" }
    }

    static func layer(_ members: String) -> String {
        #"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0, 0, 10, 10], \#(members)}]}"#
    }
    static func progressive(_ members: String) -> String { layer(#""backdrop": {"progressive": {\#(members)}}"#) }
    static func spring(_ members: String) -> String {
        #"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0, 0, 10, 10]}], "animations": [{"at": 0, "curve": {"spring": {\#(members)}}, "layer": "a", "set": {"opacity": 0}}]}"#
    }

    static let keys: [Key] = [
        Key(template: layer(#""opacity": $"#), spec: Layer.opacitySpec),
        Key(template: layer(#""cornerRadius": $"#), spec: Layer.cornerRadiusSpec),
        Key(template: layer(#""blurRadius": $"#), spec: Layer.blurRadiusSpec),
        Key(template: layer(#""backdrop": {"blur": $}"#), spec: Layer.backdropRadiusSpec),
        Key(template: layer(#""backdrop": {"material": "thin", "blurEffectRadius": $}"#), spec: Material.radiusSpec),
        Key(template: layer(#""backdrop": {"material": "thin", "dimmingAlpha": $}"#), spec: Material.dimmingSpec),
        Key(template: progressive(#""maximumBlurRadius": $"#), spec: VariableBlurEffect.maximumRadiusSpec),
        Key(template: progressive(#""minimumBlurRadius": $"#), spec: VariableBlurEffect.minimumRadiusSpec),
        Key(template: progressive(#""dimmingAlpha": $"#), spec: VariableBlurEffect.dimmingAlphaSpec),
        Key(template: progressive(#""blurMaximumRadiusInset": {"absolute": $}"#), spec: VariableBlurEffect.lengthSpec),
        Key(template: progressive(#""blurMaximumRadiusInset": {"relative": $}"#), spec: VariableBlurEffect.insetFractionSpec),
        Key(template: progressive(#""dimmingFullColorInset": {"relative": $}"#), spec: VariableBlurEffect.insetFractionSpec),
        Key(template: progressive(#""dimmingClearExtension": {"relative": $}"#), spec: VariableBlurEffect.extensionFractionSpec),
        Key(template: #"{"width": 10, "height": 10, "scale": $}"#, spec: Scene.scaleSpec),
        Key(template: #"{"width": 10, "height": 10, "fps": $}"#, spec: SceneRecording.frameRateSpec),
        Key(template: #"{"width": 10, "height": 10, "duration": $}"#, spec: SceneRecording.durationSpec),
        Key(template: #"{"width": $, "height": 10}"#, spec: Scene.sizeSpec),
        Key(template: spring(#""response": $"#), spec: TimingCurve.springResponseSpec),
        Key(template: spring(#""dampingFraction": $"#), spec: TimingCurve.springDampingSpec),
        Key(template: spring(#""initialVelocity": $"#), spec: TimingCurve.springVelocitySpec),
        Key(template: spring(#""mass": $"#), spec: TimingCurve.springMassSpec),
        Key(template: spring(#""stiffness": $"#), spec: TimingCurve.springStiffnessSpec),
        Key(template: spring(#""damping": $"#), spec: TimingCurve.springDampingForceSpec),
    ]

    @Test(arguments: keys)
    func theSceneReaderAcceptsExactlyTheTable(_ key: Key) throws {
        func parse(_ value: Double) -> SceneFileError? {
            let text = key.template.replacingOccurrences(of: "$", with: "\(value)")
            do { _ = try SceneFile.parse(Array(text.utf8)); return nil } catch { return error }
        }
        for value in [key.spec.range.lowerBound, key.spec.range.upperBound] {
            #expect(parse(value) == nil, "\(value): \(String(describing: parse(value)))")
        }
        for value in [key.spec.range.lowerBound.nextDown, key.spec.range.upperBound.nextUp] {
            #expect(parse(value) != nil, "\(value) was accepted")
        }
    }
}
