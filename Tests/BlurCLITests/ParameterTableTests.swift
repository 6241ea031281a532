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
        Option(command: ["progressive"], option: "scale", spec: BlurOperation.pointScaleSpec),
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

/// Every numeric option of every command, read from its own `--help` line (which the parameter
/// table writes): the nearest numbers outside its range are refused with a usage error that names
/// the option, before any file is read.
@Suite struct EveryNumericOptionTests {
    struct Numeric: CustomStringConvertible {
        let command: String, option: String, low: Double, high: Double, whole: Bool, percent: Bool
        var description: String { "\(command) --\(option) \(low)…\(high)" }
    }

    /// The options whose help line states a range `(lo…hi` — all of them come from a ParameterSpec.
    static func numericOptions() throws -> [Numeric] {
        var found: [Numeric] = []
        for command in ["blur", "progressive", "material", "blurup", "placeholder", "render", "demo"] {
            let help = String(decoding: try CLI.run([command, "--help"]).stdout, as: UTF8.self)
            for line in help.split(separator: "\n") where line.hasPrefix("  --") {
                let words = line.split(separator: " ")
                guard let range = line.range(of: #"\((-?[0-9.e+]+)…(-?[0-9.e+]+)( ?[^ ,)]*)"#, options: .regularExpression) else { continue }
                let text = line[range].dropFirst()
                let percent = text.hasSuffix("%")
                let bounds = text.split(separator: "…").map { String($0.prefix { "-0123456789.e+".contains($0) }) }.compactMap { Double($0) }
                guard bounds.count == 2, let value = words.dropFirst().first, !value.hasPrefix("-") else { continue }
                let whole = ["N", "Q", "MB"].contains(String(value))
                found.append(
                    Numeric(command: command, option: String(words[0].dropFirst(2)), low: bounds[0], high: bounds[1], whole: whole, percent: percent))
            }
        }
        return found
    }

    @Test func everyNumericOptionRefusesWhatIsOutsideItsRange() throws {
        let options = try Self.numericOptions()
        // Each command has its numbers listed (a help line without its range would drop out here).
        #expect(Set(options.map(\.command)) == ["blur", "progressive", "material", "blurup", "placeholder", "render", "demo"])
        #expect(options.count >= 40, "\(options.count) numeric options")
        for option in options {
            // Operands that exist nowhere: the option must be refused before they are looked at.
            let operands: [String]
            switch option.command {
            case "placeholder": operands = ["/nonexistent/in.png", "--out", "/nonexistent/out"]
            case "demo": operands = ["/nonexistent/out"]
            default: operands = ["/nonexistent/in.png", "/nonexistent/o.png"]
            }
            let step = option.whole ? 1 : max(1e-9, (option.high - option.low) * 1e-6)
            for value in [option.low - step, option.high + step] {
                let text = (option.whole ? String(Int64(value)) : "\(value)") + (option.percent ? "%" : "")
                let r = try CLI.run([option.command] + operands + ["--\(option.option)", text])
                #expect(r.status == 2 && r.stderr.contains("--\(option.option)"), "\(option) at \(text): \(r.stderr)")
            }
        }
    }
}
