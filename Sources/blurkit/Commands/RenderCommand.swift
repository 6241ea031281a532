import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit render SCENE.json OUT`: a scene file as a still image or an animation.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = RenderOperation.summary
    static let usage = "blurkit render SCENE.json OUT [--time T | [--time T] --duration D --fps F] [--scale K] [options]"
    static let details = """
        Renders a scene file (docs/scene-format.md). With --time alone, OUT is the still frame at that
        time (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))). Otherwise OUT is an animation from --time
        (default 0): .webp (animated WebP), .gif, .png/.apng (APNG), or a folder (a path ending in / or
        without a suffix) of numbered PNGs. Frames render in parallel and are written in order.
        """
    static let operandCount = 2...2

    static let operation = BlurOperation(RenderOperation.self)
    static let options = OptionSpec.options(for: operation) + StandardOptions.work + [StandardOptions.quiet]

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let given = try arguments.arguments(for: operation)
        let still = RenderOperation.isStill(given)
        let threads = try arguments.integer(StandardOptions.threads)
        // A scene has no input image to take the format from: OUT or --format must say it.
        let stillFormat =
            still ? try arguments.stillFormat(for: output, asked: given.given(RenderOperation.format).flatMap { try? ImageFormat.spec.parse($0) }) : nil
        if still, stillFormat == nil { throw CLIError.usage(FileError.unknownOutputFormat(path: output).description) }
        let animationFormat =
            still
            ? nil : try arguments.animationFormat(for: output, asked: try given.given(RenderOperation.format).map { try AnimationFormat.spec.parse($0) })
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
