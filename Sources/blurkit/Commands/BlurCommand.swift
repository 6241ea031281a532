import BlurCommandLine
import BlurKit

/// `blurkit blur IN OUT`: a Gaussian blur of a whole image.
enum BlurCommand: Command {
    static let name = "blur"
    static let summary = "Gaussian blur of a whole image"
    static let usage = "blurkit blur IN OUT (--sigma S | --radius R [--scale K]) [options]"
    static let details = """
        Blurs IN with a Gaussian and writes OUT. IN and OUT may be - for standard input and output.
        Reads PNG, JPEG, WebP, AVIF, HEIC (the primary image), GIF (first frame), PAM and PPM/PGM;
        writes the format of --format, else of OUT's suffix (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))), else
        (standard output, OUT without a suffix) IN's format if PNG, JPEG, WebP or AVIF, else PNG.
        Colours are converted to sRGB from IN's ICC profile and OUT carries none, unless
        --keep-profile keeps IN's values and embeds its profile (PNG, JPEG, WebP, AVIF, HEIC).
        """
    static let operandCount = 2...2

    static let operation = BlurOperation.named("blur")!
    static let options = OptionSpec.options(for: operation) + StandardOptions.work

    static func run(_ arguments: ParsedArguments) throws -> String? {
        try ImageFiles.still(arguments, operation)
        return nil
    }
}
