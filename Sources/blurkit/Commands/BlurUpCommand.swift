import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit blurup IN OUT`: the whole blur-up sequence of one image as an animation.
enum BlurUpCommand {
    static let radius = ParameterSpec(name: "radius", unit: "pt", range: 0...200, defaultValue: BlurUpImage.defaultBlurRadius,
                                      summary: "blur radius of the preview")
    static let previewSize = ParameterSpec(name: "preview-size", unit: "px", range: 1...512, defaultValue: 32,
                                           summary: "longest side of the tiny preview the sequence starts from")
    static let wait = ParameterSpec(name: "wait", unit: "s", range: 0...60, defaultValue: 1.3,
                                    summary: "how long the preview shows before the image arrives (the seed's demo: 1.3)")
    static let hold = ParameterSpec(name: "hold", unit: "s", range: 0...60, defaultValue: 1,
                                    summary: "how long the sharp image shows at the end")
    static let options: [OptionSpec] = [
        OptionSpec(name: "size", value: "WxH", help: "the view's size in points (default: 300 wide, IN's aspect)"),
        OptionSpec(previewSize, value: "N"),
        OptionSpec(radius, value: "R"),
        OptionSpec(name: "reduce-motion", value: nil, help: "Reduce Motion: a 0.2 s fade instead of the focus pull"),
        OptionSpec(wait, value: "S"),
        OptionSpec(hold, value: "S"),
        OptionSpec(SceneRecording.frameRateSpec, value: "F"),
        OptionSpec(Scene.scaleSpec, value: "K"),
        OptionSpec(CommonOptions.quality, value: "Q"),
        OptionSpec(CommonOptions.threads, value: "N"),
        OptionSpec(CommonOptions.maxPixels, value: "N"),
        OptionSpec(name: "quiet", value: nil, help: "no progress line"),
    ]

    static let help = helpText(
        usage: "blurkit blurup IN OUT [--size WxH] [--preview-size N] [--radius R] [--reduce-motion] [options]",
        summary: """
            Renders BlurUpImage's sequence for IN: its tiny preview (--preview-size) blurred by --radius with
            the activity indicator while "loading", then IN arriving and coming into focus (blur → 0 and
            opacity 0 → 1, ease-out over 0.8 s; with --reduce-motion a 0.2 s fade), then the sharp image.
            OUT: .webp, .gif, .png/.apng (APNG), or a folder for numbered PNG frames.
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        let (input, output) = try arguments.inputAndOutput(of: "blurup")
        if input == output || AtomicFile.sameFile(input, output) { throw FileError.wouldOverwriteInput(path: output) }
        guard let format = AnimationFormat(path: output) else {
            throw CLIError.usage("OUT must end in .webp, .gif, .png or .apng, or name a folder for PNG frames")
        }
        let image = try CommonOptions.readInput(input, arguments)
        let placeholder = Placeholder.placeholder(of: image, longestSide: try arguments.integer(previewSize)!, thumbHash: false)
        var (w, h) = (300.0, (300 * Double(image.height) / Double(image.width)).rounded())
        if let size = arguments.values["size"] {
            let parts = size.lowercased().split(separator: "x").map { Double($0) }
            guard parts.count == 2, let pw = parts[0], let ph = parts[1], pw.isFinite, ph.isFinite, (1...10_000).contains(pw), (1...10_000).contains(ph) else {
                throw CLIError.usage("--size expects WxH in points, each 1…10000, got \"\(size)\"")
            }
            (w, h) = (pw, ph)
        }
        let reduceMotion = arguments.has("reduce-motion")
        let arrival = try arguments.number(wait)!
        let duration = arrival + (reduceMotion ? BlurUpImage.reducedMotionDuration : BlurUpImage.transitionDuration) + (try arguments.number(hold)!)
        let scale = try arguments.number(Scene.scaleSpec)!
        let recording = try SceneRecording(duration: max(0.001, duration), frameRate: try arguments.number(SceneRecording.frameRateSpec)!, scale: scale)

        let view = BlurUpImage(preview: placeholder.preview, label: (input as NSString).lastPathComponent, blurRadius: try arguments.number(radius)!,
                               reduceMotion: reduceMotion, frame: Rect(x: 0, y: 0, width: w, height: h))
        view.setImage(image, at: arrival)
        let scene = Scene(width: w, height: h, backgroundColor: .black)
        scene.addLayer(view.layer)
        let (pw, ph) = (Int((w * scale).rounded()), Int((h * scale).rounded()))
        try ImageLimits.checkBudget(pw * ph * 4 * (6 * ProcessInfo.processInfo.activeProcessorCount + 2) + image.width * image.height * 4,
                                    for: "rendering \(recording.frameCount) frames of \(pw)×\(ph)")
        let writer = try AnimationWriter(path: output, format: format, width: pw, height: ph, frameRate: recording.frameRate,
                                         quality: try arguments.integer(CommonOptions.quality) ?? 90, opaque: true)
        try recording.recordFromCommandLine(scene, to: writer, parallelFrames: try arguments.integer(CommonOptions.threads), quiet: arguments.has("quiet"))
        return nil
    }
}
