import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit render SCENE.json OUT`: a scene file as a still image or an animation.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "render a scene file (JSON) to a still or an animation"
    static let usage = "blurkit render SCENE.json OUT [--time T | [--time T] --duration D --fps F] [--scale K] [options]"
    static let details = """
        Renders a scene file (docs/scene-format.md). With --time alone, OUT is the still frame at that
        time (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))). Otherwise OUT is an animation from --time
        (default 0): .webp (animated WebP), .gif, .png/.apng (APNG), or a folder (a path ending in / or
        without a suffix) of numbered PNGs. Frames render in parallel and are written in order.
        """
    static let operandCount = 2...2

    static let operation = BlurOperation.named("render")!
    static let options = OptionSpec.options(for: operation) + StandardOptions.work + [StandardOptions.quiet]

    /// Where the scene's images come from when not from the file system as written: `blurkit serve`
    /// reads them under its root only (the name as the scene file writes it).
    static let imageLoader = ThreadScoped<@Sendable (String) throws -> Bitmap>(key: "blurkit.imageLoader")

    static func listing(_ words: [String]) -> String { words.joined(separator: ", ") }

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let still = arguments.has("time") && !arguments.has("duration") && !arguments.has("fps")
        let start = try arguments.number(SceneRecording.startSpec)!
        let threads = try arguments.integer(StandardOptions.threads)
        let quality = try arguments.integer(ImageFile.qualitySpec)!
        let loops = try arguments.integer(AnimationFormat.loopSpec)!
        let givenScale = arguments.has("scale") ? try arguments.number(Scene.scaleSpec) : nil
        let givenDuration = try arguments.number(SceneRecording.durationSpec)
        let givenRate = arguments.has("fps") ? try arguments.number(SceneRecording.frameRateSpec) : nil
        let stillFormat = still ? try arguments.stillFormat(for: output) : nil
        let animationFormat = still ? nil : try arguments.animationFormat(for: output)

        let file: SceneFile
        do {
            if let loader = RenderCommand.imageLoader.value {
                file = try SceneFile.parse(
                    try AtomicFile.read(input), baseDirectory: (input as NSString).deletingLastPathComponent, imageLoader: { try loader($0) })
            } else {
                file = try SceneFile.read(input)
            }
        } catch let error as SceneFileError {
            throw CLIError.failure("\(input): \(error)")
        }
        let scale = givenScale ?? file.scale ?? 1
        let (w, h) = (Int((file.scene.width * scale).rounded()), Int((file.scene.height * scale).rounded()))
        let frameBytes = w * h * 4
        if let stillFormat {
            try ImageLimits.checkBudget(frameBytes * 4, for: "rendering a \(w)×\(h) frame")
            let image = try file.scene.render(at: start, scale: scale, threads: threads)
            try ImageFiles.write(image, to: output, as: stillFormat, arguments)
            return nil
        }
        // By default: from the start until the last animation ends, then half a second of its end state.
        guard file.lastAnimationEnd > start || givenDuration != nil || file.duration != nil else {
            throw CLIError.usage("\(input) has nothing animating after \(shortNumber(start)) s: give --duration D, or --time T for a still")
        }
        let duration = givenDuration ?? file.duration ?? (file.lastAnimationEnd - start + 0.5)
        let recording = try SceneRecording(start: start, duration: duration, frameRate: givenRate ?? file.frameRate ?? 30, scale: scale)
        let parallel = threads ?? ProcessInfo.processInfo.activeProcessorCount
        // Frames in flight, each with its offscreen surfaces and blur buffers, plus the encoder's copy.
        try ImageLimits.checkBudget(frameBytes * (6 * min(16, parallel) + 2), for: "rendering \(recording.frameCount) frames of \(w)×\(h)")
        let writer = try AnimationWriter(
            path: output, format: animationFormat, width: w, height: h, frameRate: recording.frameRate,
            quality: quality, opaque: file.scene.backgroundColor.alpha >= 1, loopCount: loops)
        try recording.recordFromCommandLine(file.scene, to: writer, parallelFrames: parallel, quiet: arguments.has("quiet"))
        return nil
    }
}
