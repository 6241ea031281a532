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

    static let radius = ParameterSpec(
        name: "radius", unit: "pt", range: 0...200, defaultValue: BlurUpImage.defaultBlurRadius,
        summary: "blur radius of the preview")
    static let previewSize = ParameterSpec(
        name: "preview-size", unit: "px", range: 1...512, defaultValue: 32, integer: true,
        summary: "longest side of the tiny preview the sequence starts from")
    static let wait = ParameterSpec(
        name: "wait", unit: "s", range: 0...60, defaultValue: 1.3,
        summary: "how long the preview shows before the image arrives (the seed's demo: 1.3)")
    static let hold = ParameterSpec(
        name: "hold", unit: "s", range: 0...60, defaultValue: 1,
        summary: "how long the sharp image shows at the end")
    static let viewSize = ParameterSpec(
        name: "size", unit: "pt", range: 1...10_000, defaultValue: nil,
        summary: "the view's size")
    static let options: [OptionSpec] =
        [
            .size(
                viewSize,
                help:
                    "\(viewSize.summary) in points, each side \(formatNumber(viewSize.range.lowerBound))…\(formatNumber(viewSize.range.upperBound)) (default: 300 wide, IN's aspect)"
            ),
            OptionSpec(previewSize, value: "N"),
            OptionSpec(radius, value: "R"),
            OptionSpec(name: "reduce-motion", value: nil, help: "Reduce Motion: a 0.2 s fade instead of the focus pull"),
            OptionSpec(wait, value: "S"),
            OptionSpec(hold, value: "S"),
            OptionSpec(SceneRecording.frameRateSpec, value: "F"),
            OptionSpec(Scene.scaleSpec, value: "K"),
            OptionSpec(AnimationFormat.spec, value: "FMT", extra: " (default: from OUT)"),
            StandardOptions.quality,
            OptionSpec(StandardOptions.threads, value: "N", defaultText: "all cores"),
        ] + StandardOptions.limits + [StandardOptions.quiet]

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let (input, output) = arguments.inputAndOutput
        let format = try arguments.animationFormat(for: output)
        let size = try arguments.size(viewSize.name, viewSize)
        let reduceMotion = arguments.has("reduce-motion")
        let arrival = try arguments.number(wait)!, ending = try arguments.number(hold)!
        let duration = arrival + (reduceMotion ? BlurUpImage.reducedMotionDuration : BlurUpImage.transitionDuration) + ending
        let scale = try arguments.number(Scene.scaleSpec)!
        let recording = try SceneRecording(
            duration: max(0.001, duration), frameRate: try arguments.number(SceneRecording.frameRateSpec)!, scale: scale)
        let longest = try arguments.integer(previewSize)!, blur = try arguments.number(radius)!
        let quality = try arguments.integer(ImageFile.qualitySpec)!, threads = try arguments.integer(StandardOptions.threads)

        let image = try ImageFiles.read(input)
        let placeholder = Placeholder.placeholder(of: image, longestSide: longest, thumbHash: false)
        let (w, h) = size ?? (300.0, max(1, (300 * Double(image.height) / Double(image.width)).rounded()))
        let view = BlurUpImage(
            preview: placeholder.preview, label: (input as NSString).lastPathComponent, blurRadius: blur,
            reduceMotion: reduceMotion, frame: Rect(x: 0, y: 0, width: w, height: h))
        view.setImage(image, at: arrival)
        let scene = Scene(width: w, height: h, backgroundColor: .black)
        scene.addLayer(view.layer)
        let (pw, ph) = (Int((w * scale).rounded()), Int((h * scale).rounded()))
        try ImageLimits.checkBudget(
            pw * ph * 4 * (6 * ProcessInfo.processInfo.activeProcessorCount + 2) + image.width * image.height * 4,
            for: "rendering \(recording.frameCount) frames of \(pw)×\(ph)")
        let writer = try AnimationWriter(
            path: output, format: format, width: pw, height: ph, frameRate: recording.frameRate,
            quality: quality, opaque: true)
        try recording.recordFromCommandLine(scene, to: writer, parallelFrames: threads, quiet: arguments.has("quiet"))
        return nil
    }
}
