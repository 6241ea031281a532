import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit NAME SCENE.json OUT` for an operation of the scene form (`render`): a scene file as a
/// still image or an animation.
enum SceneForm {
    static let form = CommandForm(
        operands: "SCENE.json OUT", operandCount: 2...2, readsFirstWritesSecond: true, options: StandardOptions.work + [StandardOptions.quiet],
        details: "", run: run)

    static func run(_ arguments: ParsedArguments, _ operation: BlurOperation) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let given = try arguments.arguments(for: operation)
        let still = RenderOperation.isStill(given)
        let threads = try arguments.integer(StandardOptions.threads)
        // A scene has no input image to take the format from: OUT or --format must say it.
        let stillFormat =
            still
            ? try arguments.stillFormat(for: output, asked: given.given(RenderOperation.format).flatMap { try? ImageFormat.spec.parse($0) }) : nil
        if still, stillFormat == nil { throw CLIError.usage(FileError.unknownOutputFormat(path: output).description) }
        let animationFormat =
            still
            ? nil
            : try arguments.animationFormat(for: output, asked: try given.given(RenderOperation.format).map { try AnimationFormat.spec.parse($0) })
        // The images are counted together against the memory budget as they are read; none of
        // them, nor the scene, may be written over.
        let file: SceneFile
        do {
            let folder = (input as NSString).deletingLastPathComponent
            file = try SceneFile.parse(
                try SceneFile.bytes(at: input), baseDirectory: folder,
                imageLoader: Renderer.sceneImages { name in
                    let path = name.hasPrefix("/") ? name : (folder as NSString).appendingPathComponent(name)
                    try AtomicFile.checkKeeps([path], writing: output)  // before it is decoded
                    return .file(path)
                })
        } catch let error as SceneFileError { throw CLIError.failure("\(input): \(error)") }
        try Recording.run(into: output, format: animationFormat ?? .webp, threads: threads, quiet: arguments.has(StandardOptions.quiet.name)) {
            options in
            do {
                try Renderer.scene(given, file, to: output, still: stillFormat, animation: animationFormat, options: options)
            } catch RenderError.output(let text) {
                throw RenderError.output("\(input): " + text.replacingOccurrences(of: "the scene has", with: "has"))
            }
        }
        return nil
    }
}
