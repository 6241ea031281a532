import BlurCommandLine
import BlurKit

/// `blurkit progressive IN OUT`: BlurUIKit's progressive blur with its dimming gradient.
enum ProgressiveCommand: Command {
    static let name = "progressive"
    static let summary = "progressive (variable) blur with a dimming gradient"
    static let usage = "blurkit progressive IN OUT [options]"
    static let details = """
        Draws a progressive (variable) blur over IN, as BlurUIKit's VariableBlurView does: the blur grows
        linearly from the clear edge to the full edge, and a sine-eased dimming gradient lies on top.
        Radii are σ in points; with --scale 3 a 10-pt radius is σ 30 px. Lengths are points (40 or
        40pt) or a percentage of the region along the gradient (25%).
        """
    static let operandCount = 2...2

    static let operation = BlurOperation.named("progressive")!
    static let options = OptionSpec.options(for: operation) + StandardOptions.work

    static func run(_ arguments: ParsedArguments) throws -> String? {
        try ImageFiles.still(arguments, operation)
        return nil
    }
}
