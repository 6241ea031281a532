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
        let size = given.size("size")
        let reduceMotion = given.flag("reduceMotion")
        let arrival = given.number("wait")!, ending = given.number("hold")!
        let duration = arrival + (reduceMotion ? BlurUpImage.reducedMotionDuration : BlurUpImage.transitionDuration) + ending
        let scale = given.number("scale")!
        let recording = try SceneRecording(duration: max(0.001, duration), frameRate: given.number("fps")!, scale: scale)
        let longest = given.integer("previewSize")!, blur = given.number("blurRadius")!
        let quality = given.integer("quality")!, threads = try arguments.integer(StandardOptions.threads)

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
