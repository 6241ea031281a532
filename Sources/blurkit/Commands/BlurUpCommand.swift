import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit blurup IN OUT`: the whole blur-up sequence of one image as an animation.
enum BlurUpCommand: Command {
    static let name = "blurup"
    static let summary = BlurUpOperation.summary
    static let usage = "blurkit blurup IN OUT [--size WxH] [--preview-size N] [--radius R] [--reduce-motion] [options]"
    static let details = """
        Renders BlurUpImage's sequence for IN: its tiny preview (--preview-size) blurred by --radius with
        the activity indicator while "loading", then IN arriving and coming into focus (blur → 0 and
        opacity 0 → 1, ease-out over \(formatNumber(BlurUpImage.transitionDuration)) s; with --reduce-motion a \(formatNumber(BlurUpImage.reducedMotionDuration)) s fade), then the sharp image.
        OUT: .webp, .gif, .png/.apng (APNG), or a folder for numbered PNG frames (or --format).
        """
    static let operandCount = 2...2

    static let operation = BlurOperation(BlurUpOperation.self)
    static let options = OptionSpec.options(for: operation) + StandardOptions.work + [StandardOptions.quiet]

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let given = try arguments.arguments(for: operation)
        let format = try arguments.animationFormat(for: output, asked: given.given(BlurUpOperation.format))
        let threads = try arguments.integer(StandardOptions.threads)
        try Recording.run(into: output, format: format, threads: threads, quiet: arguments.has(StandardOptions.quiet.name)) { options in
            try Renderer.blurUp(given, from: .file(input), to: output, format: format, options: options)
        }
        return nil
    }
}
