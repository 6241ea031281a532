import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit NAME IN OUT` for an operation of the animation form (`blurup`): IN's animation into OUT.
enum AnimationForm {
    static let form = CommandForm(
        operands: "IN OUT", operandCount: 2...2, readsFirstWritesSecond: true, options: StandardOptions.work + [StandardOptions.quiet],
        details: "OUT: .webp, .gif, .png/.apng (APNG), or a folder for numbered PNG frames (or --format).", run: run)

    static func run(_ arguments: ParsedArguments, _ operation: BlurOperation) throws -> String? {
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
