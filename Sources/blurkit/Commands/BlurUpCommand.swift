import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit blurup IN OUT`: the whole blur-up sequence of one image as an animation.
enum BlurUpCommand: Command {
    static let name = "blurup"
    static let summary = "an image coming into focus from its blurred preview, as an animation"
    static let usage = "blurkit blurup IN OUT [--size WxH] [--preview-size N] [--radius R] [--reduce-motion] [options]"
    static let details = """
        Renders BlurUpImage's sequence for IN: its tiny preview (--preview-size) blurred by --radius with
        the activity indicator while "loading", then IN arriving and coming into focus (blur → 0 and
        opacity 0 → 1, ease-out over 0.8 s; with --reduce-motion a 0.2 s fade), then the sharp image.
        OUT: .webp, .gif, .png/.apng (APNG), or a folder for numbered PNG frames (or --format).
        """
    static let operandCount = 2...2

    static let operation = BlurOperation.named("blurup")!
    static let options = OptionSpec.options(for: operation) + StandardOptions.work + [StandardOptions.quiet]

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let format = try arguments.animationFormat(for: output)
        let given = try arguments.arguments(for: operation)
        let threads = try arguments.integer(StandardOptions.threads)
        try Recording.run(into: output, format: format, threads: threads, quiet: arguments.has("quiet")) { options in
            try Renderer.blurUp(given, from: .file(input), to: output, format: format, options: options)
        }
        return nil
    }
}
