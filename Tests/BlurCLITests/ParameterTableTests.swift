import BlurCommandLine
import BlurCore
import BlurIO
import BlurScene
import Foundation
import Testing

/// Every parameter is declared once: the command line and the scene reader accept exactly the
/// bounds of its table and refuse the nearest numbers outside them. (Before, the dimming insets had
/// three ranges in three places: 0…1 in the library, 0…16 in scene files, 0…100 on the command line.)
@Suite struct ParameterTableTests {
    /// A number as the command line would type it, exactly (shortest round-trip form).
    static func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }

    /// The nearest values outside a spec: one less and one more, by a whole step for integers.
    static func outside(_ spec: ParameterSpec) -> [Double] {
        spec.isInteger ? [spec.range.lowerBound - 1, spec.range.upperBound + 1] : [spec.range.lowerBound.nextDown, spec.range.upperBound.nextUp]
    }

    struct Option: CustomTestStringConvertible, Sendable {
        let command: [String], option: String, spec: ParameterSpec
        /// How the value is written (a percentage for a fraction of the view).
        var percent = false
        var testDescription: String { "\(command[0]) --\(option)" }
    }

    static let options: [Option] = [
        Option(command: ["blur"], option: "sigma", spec: GaussianBlur.sigmaSpec),
        Option(command: ["blur", "--sigma", "1"], option: "quality", spec: ImageFile.qualitySpec),
        Option(command: ["blur", "--sigma", "1"], option: "threads", spec: StandardOptions.threads),
        Option(command: ["progressive"], option: "max-radius", spec: VariableBlurEffect.maximumRadiusSpec),
        Option(command: ["progressive"], option: "min-radius", spec: VariableBlurEffect.minimumRadiusSpec),
        Option(command: ["progressive"], option: "dimming", spec: VariableBlurEffect.dimmingAlphaSpec),
        Option(command: ["progressive"], option: "blur-inset", spec: VariableBlurEffect.lengthSpec),
        Option(command: ["progressive"], option: "blur-inset", spec: VariableBlurEffect.insetFractionSpec, percent: true),
        Option(command: ["progressive"], option: "dimming-inset", spec: VariableBlurEffect.insetFractionSpec, percent: true),
        Option(command: ["progressive"], option: "dimming-extension", spec: VariableBlurEffect.extensionFractionSpec, percent: true),
        Option(command: ["progressive"], option: "scale", spec: StandardOptions.scale),
        Option(command: ["material"], option: "radius", spec: Material.radiusSpec),
        Option(command: ["material"], option: "dimming", spec: Material.dimmingSpec),
        Option(command: ["material"], option: "corner-radius", spec: Material.cornerRadiusSpec),
    ]

    @Test(arguments: options)
    func theCommandLineAcceptsExactlyTheTable(_ option: Option) throws {
        let workspace = try Workspace(crop: PixelRect(x: 0, y: 0, width: 12, height: 8))
        func run(_ value: Double) throws -> CLI.Result {
            let word = option.percent ? Self.text(value * 100) + "%" : Self.text(value)
            return try CLI.run(
                [option.command[0], workspace.input, workspace.folder + "/o.png"] + option.command.dropFirst() + ["--\(option.option)", word])
        }
        for value in [option.spec.range.lowerBound, option.spec.range.upperBound] {
            let r = try run(value)
            #expect(r.status == 0, "\(value): \(r.stderr)")
        }
        // A fraction just outside may round back inside when written as a percentage: step further.
        let outside = option.percent ? [option.spec.range.lowerBound - 0.001, option.spec.range.upperBound + 0.001] : Self.outside(option.spec)
        for value in outside {
            let r = try run(value)
            #expect(r.status == 2 && r.stderr.contains("--\(option.option)"), "\(value): \(r.stderr)")
        }
    }
}
