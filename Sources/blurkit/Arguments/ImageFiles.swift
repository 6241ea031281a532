import BlurCommandLine
import BlurKit
import Foundation

/// Options every image-producing command shares, and the reading and writing they steer.
enum CommonOptions {
    static let quality = ParameterSpec(
        name: "quality", unit: "", range: 1...100, defaultValue: Double(JPEGCodec.defaultQuality),
        summary: "JPEG and WebP quality (WebP at 100 is lossless)")
    static let threads = ParameterSpec(
        name: "threads", unit: "", range: 1...1024, defaultValue: nil,
        summary: "split the work into this many parts; the output is the same for any value (default: all cores)")
    static let scale = ParameterSpec(
        name: "scale", unit: "px/pt", range: 0.01...16, defaultValue: 1,
        summary: "pixels per point of the image: radii and regions are in points")
    static let maxPixels = ParameterSpec(
        name: "max-pixels", unit: "px", range: 1...Double(1 << 40), defaultValue: Double(ImageLimits.defaultMaximumPixelCount),
        summary: "refuse images with more pixels than this, checked before decoding")

    static let memoryBudget = ParameterSpec(
        name: "memory-budget", unit: "MB", range: 1...Double(1 << 30), defaultValue: Double(ImageLimits.defaultMemoryBudget >> 20),
        summary: "refuse a job whose estimated memory exceeds this")

    static let specs: [OptionSpec] = [
        OptionSpec(name: "format", value: "FMT", help: "output format: png, jpeg, webp, gif, pam or ppm (default: from OUT's suffix; needed when OUT is -)"),
        OptionSpec(quality, value: "Q"),
        OptionSpec(threads, value: "N"),
        OptionSpec(maxPixels, value: "N"),
        OptionSpec(memoryBudget, value: "MB"),
    ]

    /// Applies `--max-pixels` and `--memory-budget`, reads IN (a path, or - for standard input), and
    /// checks the job's estimate (`estimate(width, height)` bytes) against the budget.
    static func readInput(_ path: String, _ arguments: ParsedArguments, job: String, estimate: (Int, Int) -> Int) throws -> Bitmap {
        let image = try readInput(path, arguments)
        try ImageLimits.checkBudget(estimate(image.width, image.height), for: job)
        return image
    }

    /// Applies `--max-pixels` and `--memory-budget` and reads IN (a path, or - for standard input).
    static func readInput(_ path: String, _ arguments: ParsedArguments) throws -> Bitmap {
        if let limit = try arguments.integer(maxPixels) { ImageLimits.maximumPixelCount = limit }
        if let megabytes = try arguments.integer(memoryBudget) { ImageLimits.memoryBudget = megabytes << 20 }
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            bytes = try AtomicFile.read(path)
        }
        do {
            return try ImageFile.decode(bytes)
        } catch {
            throw CLIError.failure("\(path == "-" ? "standard input" : path): \(error)")
        }
    }

    /// Encodes and writes OUT (atomically; - for standard output), never over IN.
    static func writeOutput(_ image: Bitmap, to path: String, input: String, _ arguments: ParsedArguments) throws {
        let format: ImageFormat
        if let name = arguments.values["format"] {
            guard let named = ImageFormat(name: name) else {
                throw CLIError.usage("--format must be one of png, jpeg, webp, gif, pam, ppm, got \"\(name)\"")
            }
            format = named
        } else if path == "-" {
            throw CLIError.usage("writing to standard output needs --format")
        } else if let bySuffix = ImageFormat(pathExtension: URL(fileURLWithPath: path).pathExtension) {
            format = bySuffix
        } else {
            throw FileError.unknownOutputFormat(path: path)
        }
        let quality = try arguments.integer(quality) ?? JPEGCodec.defaultQuality
        let bytes = try ImageFile.encode(image, as: format, quality: quality)
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        if input != "-" && (input == path || AtomicFile.sameFile(input, path)) {
            throw FileError.wouldOverwriteInput(path: path)
        }
        try AtomicFile.write(bytes, to: path)
    }
}
