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

    /// Reads and decodes IN (a path, or - for standard input) as a stream into a bitmap: the file's
    /// bytes are never held whole beside the image (WebP and GIF excepted).
    static func read(_ path: String) throws -> Bitmap {
        do {
            return try ImagePipeline.open(try InputFile(path: path)).source.collect()
        } catch let error as PipelineError {
            throw CLIError.failure(error.description)
        } catch let error as FileError {
            throw CLIError.failure(error.description)
        } catch {
            throw CLIError.failure("\(path == "-" ? "standard input" : path): \(error)")
        }
    }

    /// Encodes `image` as `format` and writes OUT atomically (- for standard output).
    static func write(_ image: Bitmap, to path: String, as format: ImageFormat, _ arguments: ParsedArguments) throws {
        let quality = try arguments.integer(ImageFile.qualitySpec) ?? JPEGCodec.defaultQuality
        let compression = try arguments.integer(ImageFile.compressionSpec) ?? ImageFile.defaultCompression
        let bytes = try ImageFile.encode(image, as: format, quality: quality, compression: compression)
        if path == "-" { return try AtomicFile.writeStandardOutput(bytes) }
        try AtomicFile.write(bytes, to: path)
    }

    /// OUT's encoding from `--format` (or OUT's suffix), `--quality` and `--compression`.
    static func encoding(for output: String, _ arguments: ParsedArguments) throws -> ImagePipeline.Encoding {
        ImagePipeline.Encoding(
            format: try arguments.stillFormat(for: output),
            quality: try arguments.integer(ImageFile.qualitySpec) ?? JPEGCodec.defaultQuality,
            compression: try arguments.integer(ImageFile.compressionSpec) ?? ImageFile.defaultCompression)
    }

    /// IN to OUT through the streaming chain: IN decoded band by band, `stages(width, height,
    /// opaque)` — the stages for IN's size, and whether the result is still opaque — applied on
    /// `threads` parts, OUT encoded as the bands come and committed whole at the end. The job's
    /// memory (what the chain will hold) is checked against the budget before any row is decoded.
    static func stream(
        _ input: String, to output: String, _ encoding: ImagePipeline.Encoding, job: String, threads: Int?,
        stages: (Int, Int, Bool) throws -> (stages: [any RowStage], opaque: Bool)
    ) throws {
        let name = input == "-" ? "standard input" : input
        let (source, opaque): (any RowSource, Bool)
        do {
            (source, opaque) = try ImagePipeline.open(try InputFile(path: input))
        } catch let error as PipelineError {
            throw CLIError.failure(error.description)
        } catch let error as FileError {
            throw CLIError.failure(error.description)
        } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        let (steps, stillOpaque) = try stages(source.width, source.height, opaque)
        var chain: any RowSource = steps.isEmpty ? source : PrefetchedSource(source)
        for step in steps { chain = StagedSource(step, over: chain, parts: threads) }
        Interruption.install()
        let file = try OutputFile(path: output)
        Interruption.removeOnExit(file.temporary)
        defer { Interruption.removeOnExit(nil) }
        do {
            let sink = try ImagePipeline.sink(
                for: encoding, width: chain.width, height: chain.height, alpha: !stillOpaque, output: file, parts: threads)
            try ImageLimits.checkBudget(chain.heldBytes + sink.heldBytes + ImagePipeline.queueBytes(width: chain.width), for: job)
            try ImagePipeline.drain(chain, into: sink, cancelled: Interruption.stopCheck())
            try file.commit()
        } catch let error as DecodingError {
            file.discard()
            throw CLIError.failure("\(name): \(error)")
        } catch PipelineError.cancelled {
            file.discard()
            throw CLIError.interrupted(
                "interrupted; \(output == "-" ? "standard output is incomplete" : "nothing written")", signal: Interruption.signal ?? SIGINT)
        } catch {
            file.discard()
            throw error
        }
    }

    /// What `progressive` and `material` share: `--appearance`, `--threads`, `--scale` and `--region`
    /// read, OUT's format checked, IN streamed at that scale through the effect over the region
    /// (points; the whole image by default), and OUT written as the rows come. The effect is
    /// `stage(width, height, frame, appearance, threads)` where the effect is a stage of the chain
    /// (nil from it: nothing to draw); otherwise `draw(image, frame, appearance, threads)` as a
    /// whole-image stage, checked first against `estimate(width, height)`, its working bytes.
    static func drawOverRegion(
        _ arguments: ParsedArguments, _ operation: BlurOperation, job: String, estimate: @escaping (Int, Int) -> Int,
        stage: ((Int, Int, Rect, Appearance, Int?) -> (any RowStage)?)? = nil,
        draw: @escaping (Bitmap, Rect, Appearance, Int?) -> Bitmap
    ) throws {
        let (input, output) = arguments.inputAndOutput
        let given = try arguments.arguments(for: operation)
        let appearance = given.choice("appearance", Appearance.spec) ?? .light
        let threads = try arguments.integer(StandardOptions.threads)
        let scale = given.number("scale") ?? 1
        let encoding = try encoding(for: output, arguments)

        try stream(input, to: output, encoding, job: job, threads: threads) { width, height, opaque in
            let frame = try given.frame("region", width: width, height: height, scale: scale)
            if let stage, !KernelSwitch.useReference {
                return (stage(width, height, frame, appearance, threads).map { [$0] } ?? [], opaque)
            }
            try ImageLimits.checkBudget(estimate(width, height), for: job)
            let effect = WholeImageStage(width: width, height: height, scale: scale) { image in
                draw(image, frame, appearance, threads)
            }
            return ([effect], opaque)
        }
    }
}
