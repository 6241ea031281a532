import BlurCommandLine
import BlurKit

/// `blurkit material IN OUT`: a frosted-glass material over a region, as UIVisualEffectView draws it.
enum MaterialCommand: Command {
    static let name = "material"
    static let summary = "frosted-glass material (UIBlurEffect style) over a region"
    static let usage = "blurkit material IN OUT [options]"
    static let details = """
        Draws one of UIKit's blur materials over IN: the backdrop in the region blurred (24 pt by default),
        saturated and tinted with the style's layers, clipped to a rounded rectangle. --radius and
        --dimming are seed 004's blurEffectRadius and dimmingAlpha: below the default radius the
        saturation and tint scale back in proportion; --radius 0 leaves the image unchanged.
        """
    static let operandCount = 2...2

    static let operation = BlurOperation.named("material")!
    static let options = OptionSpec.options(for: operation) + StandardOptions.work

    static func run(_ arguments: ParsedArguments) throws -> String? {
        try ImageFiles.still(arguments, operation)
        return nil
    }
}
