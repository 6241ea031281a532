import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit render SCENE.json OUT`: a scene file as a still image or an animation.
enum RenderCommand {
    static let options: [OptionSpec] = [
        OptionSpec(SceneRecording.startSpec, value: "T", extra: "; alone, renders the still frame at T"),
        OptionSpec(SceneRecording.durationSpec, value: "D", extra: " (default: the file's \"duration\", else until its last animation ends)"),
        OptionSpec(SceneRecording.frameRateSpec, value: "F", extra: " (or the file's \"fps\")"),
        OptionSpec(Scene.scaleSpec, value: "K", extra: " (default: the file's \"scale\", else 1)"),
        CommonOptions.specs[0],  // --format, for a still (needed when OUT is -)
        OptionSpec(CommonOptions.quality, value: "Q"),
        OptionSpec(name: "loop", value: "N", help: "times the animation plays, 0 = forever (default 0)"),
        OptionSpec(CommonOptions.threads, value: "N"),
        OptionSpec(CommonOptions.maxPixels, value: "N"),
        OptionSpec(CommonOptions.memoryBudget, value: "MB"),
        OptionSpec(name: "quiet", value: nil, help: "no progress line"),
    ]

    static let help = helpText(
        usage: "blurkit render SCENE.json OUT [--time T | [--time T] --duration D --fps F] [--scale K] [options]",
        summary: """
            Renders a scene file (docs/scene-format.md). With --time alone, OUT is the still frame at that
            time (.png .jpg .webp .gif .pam .ppm). Otherwise OUT is an animation from --time (default 0):
            .webp (animated WebP), .gif, .png/.apng (APNG), or a folder (a path ending in / or without a
            suffix) of numbered PNGs. Frames render in parallel and are written in order.
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        let (input, output) = try arguments.inputAndOutput(of: "render")
        if let limit = try arguments.integer(CommonOptions.maxPixels) { ImageLimits.maximumPixelCount = limit }
        if let megabytes = try arguments.integer(CommonOptions.memoryBudget) { ImageLimits.memoryBudget = megabytes << 20 }
        if input == output || AtomicFile.sameFile(input, output) { throw FileError.wouldOverwriteInput(path: output) }

        let file: SceneFile
        do { file = try SceneFile.read(input) } catch let error as SceneFileError {
            throw CLIError.failure("\(input): \(error)")
        }
        let scale = try arguments.has("scale") ? arguments.number(Scene.scaleSpec)! : (file.scale ?? 1)
        let threads = try arguments.integer(CommonOptions.threads)
        let (w, h) = (Int((file.scene.width * scale).rounded()), Int((file.scene.height * scale).rounded()))
        let frameBytes = w * h * 4

        let still = arguments.has("time") && !arguments.has("duration") && !arguments.has("fps")
        if still {
            try ImageLimits.checkBudget(frameBytes * 4, for: "rendering a \(w)×\(h) frame")
            let image = try file.scene.render(at: try arguments.number(SceneRecording.startSpec)!, scale: scale, threads: threads)
            try CommonOptions.writeOutput(image, to: output, input: input, arguments)
            return nil
        }

        guard let format = AnimationFormat(path: output) else {
            throw CLIError.usage("OUT must end in .webp, .gif, .png or .apng, or name a folder for a PNG sequence (or give --time alone for a still)")
        }
        let start = try arguments.number(SceneRecording.startSpec)!
        // By default: from the start until the last animation ends, then half a second of its end state.
        let duration = try arguments.number(SceneRecording.durationSpec) ?? file.duration ?? (file.lastAnimationEnd - start + 0.5)
        guard file.lastAnimationEnd > start || arguments.has("duration") || file.duration != nil else {
            throw CLIError.usage("\(input) has nothing animating after \(shortNumber(start)) s: give --duration D, or --time T for a still")
        }
        let recording = try SceneRecording(
            start: start, duration: duration,
            frameRate: arguments.has("fps") ? arguments.number(SceneRecording.frameRateSpec)! : (file.frameRate ?? 30), scale: scale)
        let parallel = threads ?? ProcessInfo.processInfo.activeProcessorCount
        // Frames in flight, each with its offscreen surfaces and blur buffers, plus the encoder's copy.
        try ImageLimits.checkBudget(frameBytes * (6 * min(16, parallel) + 2), for: "rendering \(recording.frameCount) frames of \(w)×\(h)")
        let loops = arguments.values["loop"].map { Int($0) } ?? 0
        guard let loops, (0...65535).contains(loops) else { throw CLIError.usage("--loop expects a whole number from 0 to 65535, got \(arguments.values["loop"]!)") }

        let writer = try AnimationWriter(path: output, format: format, width: w, height: h, frameRate: recording.frameRate,
                                         quality: try arguments.integer(CommonOptions.quality) ?? 90,
                                         opaque: file.scene.backgroundColor.alpha >= 1, loopCount: loops)
        try recording.recordFromCommandLine(file.scene, to: writer, parallelFrames: parallel, quiet: arguments.has("quiet"))
        return nil
    }
}
