import BlurCommandLine
import BlurKit

/// `blurkit blur IN OUT`: a Gaussian blur of a whole image.
enum BlurCommand {
    static let radius = ParameterSpec(
        name: "radius", unit: "pt", range: 0...2000, defaultValue: nil,
        summary: "blur radius in points, as the components take it (σ in points); σ = radius × scale")

    static let options: [OptionSpec] = [
        OptionSpec(GaussianBlur.sigmaSpec, value: "S"),
        OptionSpec(radius, value: "R"),
        OptionSpec(CommonOptions.scale, value: "K", extra: "; with --radius"),
        OptionSpec(name: "edges", value: "MODE", help: "clamp (edge pixels extend: no fringe, opaque stays opaque) or transparent (outside is transparent) (default clamp)"),
    ] + CommonOptions.specs

    static let help = helpText(
        usage: "blurkit blur IN OUT (--sigma S | --radius R [--scale K]) [options]",
        summary: """
            Blurs IN with a Gaussian and writes OUT. IN and OUT may be - for standard input and output.
            Reads PNG, JPEG, WebP, GIF (first frame), PAM and PPM/PGM; writes the format of OUT's suffix
            (.png .jpg .webp .gif .pam .ppm).
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        let (input, output) = try arguments.inputAndOutput(of: "blur")
        let sigma: Double
        switch (arguments.has("sigma"), arguments.has("radius")) {
        case (true, true): throw CLIError.usage("give --sigma or --radius, not both")
        case (false, false): throw CLIError.usage("blur needs --sigma S (pixels) or --radius R (points)")
        case (true, false):
            if arguments.has("scale") { throw CLIError.usage("--scale goes with --radius, not --sigma") }
            sigma = try arguments.number(GaussianBlur.sigmaSpec)!
        case (false, true):
            let r = try arguments.number(radius)!, k = try arguments.number(CommonOptions.scale)!
            guard r * k <= GaussianBlur.sigmaSpec.range.upperBound else {
                throw ParameterError.outOfRange(name: "radius × scale", value: r * k, range: GaussianBlur.sigmaSpec.range, unit: "px")
            }
            sigma = r * k
        }
        let edges = try EdgeMode(parsing: arguments.values["edges"] ?? EdgeMode.clamp.rawValue)
        let blur = try GaussianBlur(sigma: sigma, edges: edges)
        let threads = try arguments.integer(CommonOptions.threads)

        let image = try CommonOptions.readInput(input, arguments, job: "blur", estimate: GaussianBlur.estimatedBytes)
        try CommonOptions.writeOutput(blur.apply(to: image, threads: threads), to: output, input: input, arguments)
        return nil
    }
}
