import Foundation

/// The operations of the registry run on images: the public streaming API every front end calls
/// (the command line, the HTTP service, any Swift program).
///
/// ``still(_:from:to:format:options:)`` streams: IN is decoded band by band on a thread of its own,
/// the effect's stage runs on `threads` parts, OUT is encoded as the bands arrive and committed
/// whole at the end; the job's memory is checked against `ImageLimits/memoryBudget` before any
/// row is decoded. Errors keep their types: `ParameterError` (naming the parameter as the
/// arguments' front end spells it), ``RenderError``, `FileError`, `BudgetError`.
public enum Renderer {
    /// `blur`, `progressive` or `material` of `BlurOperation/all` (their own parameters and the
    /// output's `quality` and `compression`) from `source` to `destination` as `format`, or, when
    /// nil, as ``defaultFormat(for:)`` of the input's format.
    /// - Returns: the bytes written for ``ImageDestination/memory``, else empty.
    @discardableResult
    public static func still(
        _ arguments: OperationArguments, from source: ImageSource, to destination: ImageDestination, format asked: ImageFormat?,
        options: RenderOptions = RenderOptions()
    ) throws -> [UInt8] {
        try options.heapGuarded {
            let name = source.name
            let (input, opaque, profile): (any RowSource, Bool, ColorProfile?)
            var format: ImageFormat
            // The image's own size when a resize has its JPEG decoded smaller (shrink-on-load).
            var sourceSize: (width: Int, height: Int)?
            do {
                let file = try source.open(options.cancellation)
                format = asked ?? defaultFormat(for: file.format)
                var reduction = 1
                if file.format == .jpeg, !KernelSwitch.useReference, let reduce = try arguments.operation.image?.prepare(arguments).reduction {
                    let header = try JPEGRowSource(input: file)
                    let swaps = header.orientation.swapsAxes
                    let own = swaps ? (width: header.height, height: header.width) : (width: header.width, height: header.height)
                    reduction = reduce(own.width, own.height)
                    try file.rewind()
                    if reduction > 1 { sourceSize = own }
                }
                (input, opaque, profile) = try ImagePipeline.open(
                    file, reduction: reduction, keepProfile: arguments[StillOutput.keepProfile])
            } catch let PipelineError.input(_, error) {
                throw RenderError.input(name: name, error)
            } catch PipelineError.cancelled {
                throw RenderError.cancelled(framesWritten: 0)
            } catch let error as DecodingError {
                throw RenderError.input(name: name, error)
            }
            let (steps, stillOpaque) = try stages(
                arguments, width: input.width, height: input.height, opaque: opaque, threads: options.threads, sourceSize: sourceSize)
            var chain: any RowSource = steps.isEmpty ? input : PrefetchedSource(input)
            // A stage that needs the whole image works through its first band: it asks this between steps.
            let checkpoint = { if options.cancelled() { throw PipelineError.cancelled } }
            for step in steps { chain = StagedSource(step, over: chain, parts: options.threads, checkpoint: checkpoint) }
            // A format the caller negotiated and that cannot hold the output: the next it takes.
            if !format.holds(width: chain.width, height: chain.height),
                let other = options.fallbackFormats.first(where: { $0.holds(width: chain.width, height: chain.height) })
            {
                format = other
            }
            // One no encoder could write: refused before any row is decoded.
            guard format.holds(width: chain.width, height: chain.height) else {
                throw RenderError.output(
                    "\(format.name) cannot hold a \(chain.width)×\(chain.height) image (at most \(format.largestSide) pixels a side); ask for PNG")
            }
            var encoding = ImagePipeline.Encoding(
                format: format, quality: arguments[StillOutput.quality],
                compression: arguments[StillOutput.compression], profile: profile)
            encoding.cancellation = options.cancellation
            let file: OutputFile
            switch destination {
            case let .file(path): file = try OutputFile(path: path)
            case .memory: file = try OutputFile(memoryNamed: "the output")
            }
            options.temporaryFile?(file.temporary)
            defer { options.temporaryFile?(nil) }
            // An output in memory: its limit, and its bytes (the stream's, then their copy) in the budget.
            var limit: Int?, held = 0
            if case .memory = destination {
                limit = options.maximumOutputBytes
                let least = chain.width * chain.height * (format == .pam || format == .ppm ? 3 : 1)
                if let limit, format == .pam || format == .ppm, least > limit { throw RenderError.outputTooLarge(bytes: least, limit: limit) }
                held = 2 * min(limit ?? .max, least)
            }
            let overLimit = { limit.map { file.position > $0 } ?? false }
            do {
                // An encoder that cannot be interrupted (libheif's) is refused before the render when
                // even its fastest setting could not finish in the time left.
                if let deadline = options.deadline, format == .avif || format == .heic {
                    _ = try HEIFCodec.encoderSetting(
                        format, width: chain.width, height: chain.height, secondsLeft: deadline.timeIntervalSinceNow)
                }
                let sink = try ImagePipeline.sink(
                    for: encoding, width: chain.width, height: chain.height, alpha: !stillOpaque, output: file, parts: options.threads)
                try ImageLimits.checkBudget(
                    chain.heldBytes + sink.heldBytes + ImagePipeline.queueBytes(width: chain.width) + held,
                    for: arguments.operation.spelled(arguments.spelling))
                try ImagePipeline.drain(chain, into: sink, cancelled: { options.cancelled() || overLimit() })
                if let limit, overLimit() {
                    let written = file.position
                    file.discard()
                    throw RenderError.outputTooLarge(bytes: written, limit: limit)
                }
                // A stop asked during the last step (an encoder that cannot be interrupted: WebP's,
                // GIF's) still leaves nothing: the file was not yet committed.
                if options.cancelled() { throw PipelineError.cancelled }
                try file.commit()
            } catch let error as DecodingError {
                file.discard()
                throw RenderError.input(name: name, error)
            } catch PipelineError.cancelled {
                let written = file.position
                file.discard()
                if let limit, written > limit { throw RenderError.outputTooLarge(bytes: written, limit: limit) }
                throw RenderError.cancelled(framesWritten: 0)
            } catch {
                file.discard()
                throw error
            }
            return file.bytes
        }
    }

    /// The stages of a still operation for a `width × height` input, and whether the result stays
    /// opaque: the operation's own stages, or (with the reference kernels, or for an operation
    /// without stages) its whole-image draw within the budget.
    static func stages(
        _ arguments: OperationArguments, width: Int, height: Int, opaque: Bool, threads: Int?, sourceSize: (width: Int, height: Int)? = nil
    ) throws -> (stages: [any RowStage], opaque: Bool) {
        guard let run = arguments.operation.image else {
            throw RenderError.output("\(arguments.operation.spelled(arguments.spelling)) does not make a still image from an image")
        }
        let effect = try run.prepare(arguments)
        let (context, scale) = try effect.context(arguments, width: width, height: height, sourceSize: sourceSize, threads: threads)
        let stillOpaque = opaque && effect.keepsOpaque
        if !KernelSwitch.useReference, let stages = effect.stages {
            let made = stages(width, height, scale, context)
            // Every image a stage makes no larger than an input may be (--max-pixels): a resize's
            // output, and the whole scaled image its attention crop looks at.
            for stage in made { try Bitmap.validate(width: stage.width, height: stage.height, scale: 1) }
            return (made, stillOpaque)
        }
        try ImageLimits.checkBudget(effect.estimatedBytes(width, height), for: arguments.operation.spelled(arguments.spelling))
        // The draw asks the chain's checkpoint between its passes: a cancelled or timed-out render stops there.
        // An operation that changes the size says the output's from its stages (a resize).
        let output = effect.stages?(width, height, scale, context).last.map { (width: $0.width, height: $0.height) }
        if let output { try Bitmap.validate(width: output.width, height: output.height, scale: 1) }
        let stage = WholeImageStage(width: width, height: height, scale: scale, output: output) { image, checkpoint in
            var checked = context
            checked.checkpoint = checkpoint
            return try effect.draw(image, checked)
        }
        return ([stage], stillOpaque)
    }
}

extension Renderer {
    /// The output format when none is asked for (no `--format`, no suffix on OUT, no `format=` or
    /// `Accept` over HTTP): the input's, if PNG, JPEG, WebP or AVIF; else PNG.
    public static func defaultFormat(for input: ImageFormat) -> ImageFormat {
        keptFormats.contains(input) ? input : fallbackFormat
    }

    /// The input formats an output without an asked format keeps.
    public static let keptFormats: [ImageFormat] = [.png, .jpeg, .webp, .avif]
    /// The output format of any other input.
    public static let fallbackFormat = ImageFormat.png

    /// The format of the image at `source`, from its first bytes.
    public static func format(of source: ImageSource) throws -> ImageFormat {
        do { return try source.open().format } catch let error as DecodingError { throw RenderError.input(name: source.name, error) }
    }

    /// Checks from its header that the image at `source` is one BlurKit reads, within the pixel
    /// limit and — for WebP and GIF, which are decoded whole — within the memory budget of their
    /// decoding, decoding no pixels. Returns its size in pixels.
    @discardableResult
    public static func probe(_ source: ImageSource) throws -> (width: Int, height: Int) {
        do {
            let file = try source.open()
            switch file.format {
            case .webp:
                let header = try WebPCodec.header(try head(of: source))
                return (header.width, header.height)
            case .gif: return try GIFCodec.header(try head(of: source))
            // The boxes before the image data (ftyp, meta with ispe) are the file's first bytes but
            // may run past 4 KB: the whole file, which libheif parses without decoding.
            case .avif, .heic:
                let header = try HEIFCodec.header(try file.readAll())
                return (header.width, header.height)
            default:
                let source = try ImagePipeline.open(file).source
                return (source.width, source.height)
            }
        } catch let PipelineError.input(_, error) {
            throw RenderError.input(name: source.name, error)
        } catch let error as DecodingError {
            throw RenderError.input(name: source.name, error)
        }
    }

    /// What reads a scene's images for `SceneFile.parse(_:baseDirectory:imageLoader:operations:)`
    /// under `options`: each image named is opened by `open` (the name as the file writes it), its
    /// size read from its header and added to the images before it, the sum checked against the
    /// memory budget (`BudgetError` names the image that passes it), and then decoded under the
    /// deadline (stopped between its rows) — in the order the file names them, one at a time. A
    /// refusal of a limit, the sum's or one image's own (its pixels, its decoding's memory or time),
    /// ends the parse with `SceneFileError.overBudget`; the deadline with `SceneFileError.cancelled`.
    /// One loader serves one parse (it keeps the sum; not for two threads at once).
    public static func sceneImages(
        options: RenderOptions = RenderOptions(), open: @escaping (String) throws -> ImageSource
    ) -> (String) throws -> Bitmap {
        var total = 0
        return { name in
            if options.cancelled() { throw RecordingError.cancelled(framesWritten: 0) }
            let source = try open(name)
            do {
                let (width, height) = try probe(source)
                let pixels = width.multipliedReportingOverflow(by: height)
                let bytes = pixels.partialValue.multipliedReportingOverflow(by: 4)
                let sum = bytes.partialValue.addingReportingOverflow(total)
                guard !pixels.overflow, !bytes.overflow, !sum.overflow else {
                    throw BudgetError(job: "the scene's images up to \(name)", needed: .max, budget: ImageLimits.memoryBudget)
                }
                try ImageLimits.checkBudget(sum.partialValue, for: "the scene's images up to \(name) (\(width)×\(height))")
                total = sum.partialValue
                return try decode(source, options: options)
            } catch RenderError.cancelled {
                throw RecordingError.cancelled(framesWritten: 0)
            } catch let RenderError.input(_, error) {
                // The decoder's own words (a limit it refuses, or an image it cannot read).
                throw error
            }
        }
    }

    /// The first 4 KB of `source`: enough for every header `probe(_:)` reads.
    private static func head(of source: ImageSource) throws -> [UInt8] {
        switch source {
        case let .bytes(bytes, _): return Array(bytes.prefix(4096))
        case let .file(path):
            guard let handle = FileHandle(forReadingAtPath: path) else { throw FileError.cannotRead(path: path, reason: "it cannot be opened") }
            defer { try? handle.close() }
            return Array((try? handle.read(upToCount: 4096)) ?? Data())
        }
    }
}
