import BlurCommandLine
import BlurKit
import Foundation

/// Reading IN and writing OUT for the commands that make one image.
enum ImageFiles {
    /// Reads and decodes IN (a path, or - for standard input) and checks the job's estimate
    /// (`estimate(width, height)` bytes) against the memory budget.
    static func read(_ path: String, job: String, estimate: (Int, Int) -> Int) throws -> Bitmap {
        let image = try read(path)
        try ImageLimits.checkBudget(estimate(image.width, image.height), for: job)
        return image
    }

    /// Reads and decodes IN (a path, or - for standard input).
    static func read(_ path: String) throws -> Bitmap {
        let bytes = path == "-" ? try AtomicFile.readStandardInput() : try AtomicFile.read(path)
        do {
            return try ImageFile.decode(bytes)
        } catch {
            throw CLIError.failure("\(path == "-" ? "standard input" : path): \(error)")
        }
    }

    /// Encodes `image` as `format` and writes OUT atomically (- for standard output).
    static func write(_ image: Bitmap, to path: String, as format: ImageFormat, _ arguments: ParsedArguments) throws {
        let quality = try arguments.integer(ImageFile.qualitySpec) ?? JPEGCodec.defaultQuality
        let bytes = try ImageFile.encode(image, as: format, quality: quality)
        if path == "-" { return try AtomicFile.writeStandardOutput(bytes) }
        try AtomicFile.write(bytes, to: path)
    }

    /// What `progressive` and `material` share: `--appearance`, `--threads`, `--scale` and `--region`
    /// read, OUT's format checked, IN read at that scale, `draw(image, frame, appearance, threads)`
    /// over the region (points; the whole image by default), and OUT written.
    static func drawOverRegion(
        _ arguments: ParsedArguments, job: String, estimate: (Int, Int) -> Int,
        _ draw: (Bitmap, Rect, Appearance, Int?) -> Bitmap
    ) throws {
        let (input, output) = arguments.inputAndOutput
        let appearance = try arguments.choice(Appearance.spec)!
        let threads = try arguments.integer(StandardOptions.threads)
        let scale = try arguments.number(StandardOptions.scale)!
        let region = try arguments.region("region")
        let format = try arguments.stillFormat(for: output)

        var image = try read(input, job: job, estimate: estimate)
        image.scale = scale
        let whole = Rect(x: 0, y: 0, width: image.pointSize.width, height: image.pointSize.height)
        if let region, region.pixelRect(scale: scale, clippedTo: image.width, image.height) == nil {
            let r = [region.x, region.y, region.width, region.height].map(shortNumber).joined(separator: ",")
            throw CLIError.usage("--region \(r) lies outside the \(shortNumber(whole.width))×\(shortNumber(whole.height))-pt image")
        }
        try write(draw(image, region ?? whole, appearance, threads), to: output, as: format, arguments)
    }
}
