import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit progressive IN OUT`: BlurUIKit's progressive blur with its dimming gradient.
enum ProgressiveCommand {
    static let dimming = ParameterSpec(
        name: "dimming", unit: "", range: 0...1, defaultValue: nil,
        summary: "opacity of the dimming gradient (default 0.5 light, 0.25 dark)")

    static let options: [OptionSpec] = [
        OptionSpec(name: "direction", value: "DIR", help: "down (full blur at the top), up, left or right (default down)"),
        OptionSpec(VariableBlurEffect.maximumRadiusSpec, value: "R"),
        OptionSpec(VariableBlurEffect.minimumRadiusSpec, value: "R"),
        OptionSpec(name: "blur-inset", value: "LEN", help: "where maximum blur is reached, from the full edge: points, or a percentage of the region (default 0)"),
        OptionSpec(name: "tint", value: "COLOR", help: "dimming colour: #RRGGBB, #RRGGBBAA, white, black, none, or background (default: white in light, black in dark)"),
        OptionSpec(dimming, value: "A"),
        OptionSpec(name: "dimming-inset", value: "LEN", help: "where the dimming reaches full colour, from the full edge: points or % of the region (default 0)"),
        OptionSpec(name: "dimming-extension", value: "LEN", help: "how far the dimming's clear end reaches beyond the region: points, % of the region, or none (default 25%)"),
        OptionSpec(name: "appearance", value: "MODE", help: "light or dark: picks the default tint and dimming (default light)"),
        OptionSpec(name: "region", value: "X,Y,W,H", help: "the view's frame in points, e.g. a header band (default: the whole image)"),
        OptionSpec(CommonOptions.scale, value: "K"),
    ] + CommonOptions.specs

    static let help = helpText(
        usage: "blurkit progressive IN OUT [options]",
        summary: """
            Draws a progressive (variable) blur over IN, as BlurUIKit's VariableBlurView does: the blur grows
            linearly from the clear edge to the full edge, and a sine-eased dimming gradient lies on top.
            Radii are σ in points; with --scale 3 a 10-pt radius is σ 30 px.
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        let (input, output) = try arguments.inputAndOutput(of: "progressive")
        var effect = VariableBlurEffect(direction: try choice("direction", arguments, default: .down))
        effect.maximumBlurRadius = try arguments.number(VariableBlurEffect.maximumRadiusSpec)!
        effect.minimumBlurRadius = try arguments.number(VariableBlurEffect.minimumRadiusSpec)!
        effect.blurMaximumRadiusInset = try length("blur-inset", arguments)
        effect.dimmingFullColorInset = try length("dimming-inset", arguments)
        if arguments.values["dimming-extension"] == "none" {
            effect.dimmingClearExtension = nil
        } else if arguments.has("dimming-extension") {
            effect.dimmingClearExtension = try length("dimming-extension", arguments)
        }
        let appearance: Appearance = try choice("appearance", arguments, default: .light)
        if let alpha = try arguments.number(dimming) { effect.dimmingAlpha = .constant(alpha: alpha) }
        switch arguments.values["tint"] {
        case nil, "background": effect.dimmingTintColor = .systemBackground
        case "none": effect.dimmingTintColor = nil
        case "white": effect.dimmingTintColor = DynamicColor(.white)
        case "black": effect.dimmingTintColor = DynamicColor(.black)
        case let text?:
            guard let color = Color(hex: text) else {
                throw CLIError.usage("--tint must be #RRGGBB, #RRGGBBAA, white, black, none or background, got \"\(text)\"")
            }
            effect.dimmingTintColor = DynamicColor(color)
        }
        let threads = try arguments.integer(CommonOptions.threads)

        var image = try CommonOptions.readInput(input, arguments, job: "progressive", estimate: VariableBlurEffect.estimatedBytes)
        image.scale = try arguments.number(CommonOptions.scale)!
        let frame = try region(arguments, image: image)
        let result = effect.render(over: image, frame: frame, appearance: appearance, threads: threads)
        try CommonOptions.writeOutput(result, to: output, input: input, arguments)
        return nil
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ arguments: ParsedArguments, default fallback: T) throws -> T where T.RawValue == String {
        guard let text = arguments.values[name] else { return fallback }
        guard let value = T(rawValue: text) else {
            throw ParameterError.invalidChoice(name: name, value: text, choices: T.allCases.map(\.rawValue))
        }
        return value
    }

    /// `40`, `40pt` (points) or `25%` (of the region's size along the gradient).
    static func length(_ name: String, _ arguments: ParsedArguments) throws -> GradientSizing? {
        guard var text = arguments.values[name] else { return nil }
        let relative = text.hasSuffix("%")
        if relative { text.removeLast() } else if text.hasSuffix("pt") { text.removeLast(2) }
        guard let value = Double(text), value.isFinite, value >= 0, value <= (relative ? 10_000 : 1_000_000) else {
            throw CLIError.usage("--\(name) must be a length in points (0…1000000) or a percentage (0…10000%), got \"\(arguments.values[name]!)\"")
        }
        return relative ? .relative(fraction: value / 100) : .absolute(position: value)
    }

    static func region(_ arguments: ParsedArguments, image: Bitmap) throws -> Rect {
        let whole = Rect(x: 0, y: 0, width: image.pointSize.width, height: image.pointSize.height)
        guard let text = arguments.values["region"] else { return whole }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0 else {
            throw CLIError.usage("--region must be X,Y,W,H in points with a positive width and height, got \"\(text)\"")
        }
        let frame = Rect(x: x, y: y, width: w, height: h)
        guard frame.pixelRect(scale: image.scale, clippedTo: image.width, image.height) != nil else {
            throw CLIError.usage("--region \(text) lies outside the \(shortNumber(whole.width))×\(shortNumber(whole.height))-pt image")
        }
        return frame
    }
}
