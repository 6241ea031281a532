import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit material IN OUT`: a frosted-glass material over a region, as UIVisualEffectView draws it.
enum MaterialCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "style", value: "STYLE", help: "ultrathin, thin, regular, thick, chrome, or a full name such as systemThinMaterialDark (default regular)"),
        OptionSpec(name: "appearance", value: "MODE", help: "light or dark (default light)"),
        OptionSpec(name: "region", value: "X,Y,W,H", help: "the material's frame in points (default: the whole image)"),
        OptionSpec(Material.cornerRadiusSpec, value: "R"),
        OptionSpec(Material.radiusSpec, value: "R"),
        OptionSpec(Material.dimmingSpec, value: "A"),
        OptionSpec(CommonOptions.scale, value: "K"),
    ] + CommonOptions.specs

    static let help = helpText(
        usage: "blurkit material IN OUT [options]",
        summary: """
            Draws one of UIKit's blur materials over IN: the backdrop in the region blurred (24 pt by default),
            saturated and tinted with the style's layers, clipped to a rounded rectangle. --radius and
            --dimming are seed 004's blurEffectRadius and dimmingAlpha: below the default radius the
            saturation and tint scale back in proportion; --radius 0 leaves the image unchanged.
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        let (input, output) = try arguments.inputAndOutput(of: "material")
        let styleName = arguments.values["style"] ?? "regular"
        guard let style = MaterialStyle(name: styleName) else {
            throw ParameterError.invalidChoice(
                name: "style", value: styleName,
                choices: ["ultrathin", "thin", "regular", "thick", "chrome"] + MaterialStyle.allCases.map(\.rawValue))
        }
        var material = Material(style: style)
        if arguments.has("radius") { material.blurEffectRadius = try arguments.number(Material.radiusSpec) }
        material.dimmingAlpha = try arguments.number(Material.dimmingSpec)!
        material.cornerRadius = try arguments.number(Material.cornerRadiusSpec)!
        let appearance: Appearance = try ProgressiveCommand.choice("appearance", arguments, default: .light)
        let threads = try arguments.integer(CommonOptions.threads)

        var image = try CommonOptions.readInput(input, arguments, job: "material", estimate: Material.estimatedBytes)
        image.scale = try arguments.number(CommonOptions.scale)!
        let frame = try ProgressiveCommand.region(arguments, image: image)
        try CommonOptions.writeOutput(material.render(over: image, frame: frame, appearance: appearance, threads: threads),
                                      to: output, input: input, arguments)
        return nil
    }
}
