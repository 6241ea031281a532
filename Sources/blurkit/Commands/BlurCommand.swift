import BlurCommandLine
import BlurKit

/// `blurkit blur IN OUT`: a Gaussian blur of a whole image.
enum BlurCommand: Command {
    static let name = "blur"
    static let summary = "Gaussian blur of a whole image"
    static let usage = "blurkit blur IN OUT (--sigma S | --radius R [--scale K]) [options]"
    static let details = """
        Blurs IN with a Gaussian and writes OUT. IN and OUT may be - for standard input and output.
        Reads PNG, JPEG, WebP, GIF (first frame), PAM and PPM/PGM; writes the format of OUT's suffix
        (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))) or of --format.
        """
    static let operandCount = 2...2

    static let radius = ParameterSpec(
        name: "radius", unit: "pt", range: 0...2000, defaultValue: nil,
        summary: "blur radius in points, as the components take it (σ in points); σ = radius × scale")

    static let options: [OptionSpec] =
        [
            OptionSpec(GaussianBlur.sigmaSpec, value: "S"),
            OptionSpec(radius, value: "R"),
            OptionSpec(StandardOptions.scale, value: "K", extra: "; with --radius"),
            OptionSpec(EdgeMode.spec, value: "MODE"),
        ] + StandardOptions.stillOutput

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let sigma: Double
        switch (arguments.has("sigma"), arguments.has("radius")) {
        case (true, true): throw CLIError.usage("give --sigma or --radius, not both")
        case (false, false): throw CLIError.usage("blur needs --sigma S (pixels) or --radius R (points)")
        case (true, false):
            if arguments.has("scale") { throw CLIError.usage("--scale goes with --radius, not --sigma") }
            sigma = try arguments.number(GaussianBlur.sigmaSpec)!
        case (false, true):
            let r = try arguments.number(radius)!, k = try arguments.number(StandardOptions.scale)!
            sigma = try GaussianBlur.sigmaSpec.named("radius × scale").validate(r * k)
        }
        let blur = try GaussianBlur(sigma: sigma, edges: try arguments.choice(EdgeMode.spec)!)
        let threads = try arguments.integer(StandardOptions.threads)
        let encoding = try ImageFiles.encoding(for: output, arguments)
        if KernelSwitch.useReference {
            let image = try ImageFiles.read(input, job: "blur", estimate: GaussianBlur.estimatedBytes)
            try ImageFiles.write(blur.apply(to: image, threads: threads), to: output, as: encoding.format, arguments)
            return nil
        }
        try ImageFiles.stream(input, to: output, encoding, job: "blur", threads: threads) { width, height, opaque in
            guard blur.sigma > GaussianBlur.identityThreshold else { return ([], opaque) }
            return ([blur.stage(width: width, height: height)], opaque && blur.edges == .clamp)
        }
        return nil
    }
}
