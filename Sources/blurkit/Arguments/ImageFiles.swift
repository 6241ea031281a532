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
}
