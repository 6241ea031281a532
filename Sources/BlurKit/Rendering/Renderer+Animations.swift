import Foundation

extension Renderer {
    /// `blurup` of `BlurOperation/all`: BlurUpImage's sequence for the image at `source`, as
    /// `format`, into the file or folder `path` (nil: memory, returned). `label` is the view's
    /// accessibility label (the file's name by default).
    @discardableResult
    public static func blurUp(
        _ arguments: OperationArguments, from source: ImageSource, to path: String?, format: AnimationFormat, label: String? = nil,
        options: RenderOptions = RenderOptions()
    ) throws -> [UInt8] {
        try options.heapGuarded {
            let size = arguments.given(BlurUpOperation.size)
            let reduceMotion = arguments[BlurUpOperation.reduceMotion]
            let arrival = arguments[BlurUpOperation.wait], ending = arguments[BlurUpOperation.hold]
            let duration = arrival + (reduceMotion ? BlurUpImage.reducedMotionDuration : BlurUpImage.transitionDuration) + ending
            let scale = arguments[BlurUpOperation.scale]
            let recording = try SceneRecording(duration: max(0.001, duration), frameRate: arguments[BlurUpOperation.fps], scale: scale)
            let longest = arguments[BlurUpOperation.previewSize], blur = arguments[BlurUpOperation.blurRadius]
            let quality = arguments[BlurUpOperation.quality]

            let image = try decode(source, options: options)
            try options.checkpoint()
            let placeholder = Placeholder.placeholder(of: image, longestSide: longest, thumbHash: false)
            try options.checkpoint()
            let width = BlurUpOperation.defaultViewWidth
            let (w, h) = size.map { ($0.width, $0.height) } ?? (width, max(1, (width * Double(image.height) / Double(image.width)).rounded()))
            let view = BlurUpImage(
                preview: placeholder.preview, label: label ?? (source.name as NSString).lastPathComponent, blurRadius: blur,
                reduceMotion: reduceMotion, frame: Rect(x: 0, y: 0, width: w, height: h))
            view.setImage(image, at: arrival)
            let scene = Scene(width: w, height: h, backgroundColor: .black)
            scene.addLayer(view.layer)
            let (pw, ph) = try pixelSize(w, h, scale: scale, spelled: arguments.spelled(BlurUpOperation.scale))
            let writer = try animationWriter(
                to: path, format: format, width: pw, height: ph, frameRate: recording.frameRate, quality: quality, opaque: true, loopCount: 0,
                working: pw * ph * 4 * (6 * ProcessInfo.processInfo.activeProcessorCount + 2) + image.width * image.height * 4,
                frames: recording.frameCount)
            try record(scene, recording, to: writer, options)
            return writer.bytes
        }
    }

    /// `render` of `BlurOperation/all`: the scene `file` as a still at `time` (when `still` is
    /// given) or as the animation `animation`, into `path` (nil: memory, returned). Without a
    /// `duration`, the animation runs from `time` until the file's last animation ends, then half a
    /// second more.
    @discardableResult
    public static func scene(
        _ arguments: OperationArguments, _ file: SceneFile, to path: String?, still: ImageFormat?, animation: AnimationFormat?,
        options: RenderOptions = RenderOptions()
    ) throws -> [UInt8] {
        try options.heapGuarded {
            let start = arguments[RenderOperation.time]
            let quality = arguments[RenderOperation.quality]
            let scale = arguments.given(RenderOperation.scale) ?? file.scale ?? 1
            let (w, h) = try pixelSize(file.scene.width, file.scene.height, scale: scale, spelled: arguments.spelled(RenderOperation.scale))
            let frameBytes = w * h * 4
            if let still {
                let encoder = ImageFile.encodingBytes(still, quality: quality, width: w, height: h)
                try ImageLimits.checkBudget(frameBytes * 4 + file.imageBytes + encoder, for: "rendering a \(w)×\(h) frame")
                let image: Bitmap
                do {
                    image = try file.scene.render(at: start, scale: scale, threads: options.threads, cancelled: options.cancelled)
                } catch RecordingError
                    .cancelled
                { throw RenderError.cancelled(framesWritten: 0) }
                // Under the deadline: AVIF and HEIC at the setting that fits the time left, or refused.
                let bytes = try ImageFile.encode(
                    image, as: still, quality: quality, compression: arguments[StillOutput.compression],
                    profile: nil, cancellation: options.cancellation)
                if let path { path == "-" ? try AtomicFile.writeStandardOutput(bytes) : try AtomicFile.write(bytes, to: path) }
                return path == nil ? bytes : []
            }
            guard let animation else { throw RenderError.output("render needs a still or an animation format") }
            let givenDuration = arguments.given(RenderOperation.duration)
            guard file.lastAnimationEnd > start || givenDuration != nil || file.duration != nil else {
                throw RenderError.output(
                    "the scene has nothing animating after \(formatNumber(start)) s: give \(arguments.spelled(RenderOperation.duration)) D, or \(arguments.spelled(RenderOperation.time)) T alone for a still"
                )
            }
            let duration = givenDuration ?? file.duration ?? (file.lastAnimationEnd - start + 0.5)
            let rate = arguments.given(RenderOperation.fps) ?? file.frameRate ?? SceneRecording.frameRateSpec.defaultValue!
            let recording = try SceneRecording(start: start, duration: duration, frameRate: rate, scale: scale)
            let parallel = options.threads ?? ProcessInfo.processInfo.activeProcessorCount
            let opaque = file.scene.backgroundColor.alpha >= 1, loops = arguments[RenderOperation.loop]
            // Frames in flight, each with its offscreen surfaces and blur buffers, plus the encoder's copy.
            let writer = try animationWriter(
                to: path, format: animation, width: w, height: h, frameRate: recording.frameRate, quality: quality, opaque: opaque, loopCount: loops,
                working: frameBytes * (6 * min(16, parallel) + 2) + file.imageBytes, frames: recording.frameCount)
            try record(file.scene, recording, to: writer, RenderOptions(threads: parallel, cancelled: options.cancelled, progress: options.progress))
            return writer.bytes
        }
    }

    /// `placeholder` of `BlurOperation/all` for the image at `source`; `options`' `cancelled` is
    /// asked before each band of rows read (``RenderError/cancelled(framesWritten:)``).
    public static func placeholder(
        _ arguments: OperationArguments, from source: ImageSource, options: RenderOptions = RenderOptions()
    ) throws -> Placeholder {
        try options.heapGuarded {
            let size = arguments[PlaceholderOperation.size]
            do {
                return try Placeholder.make(
                    from: try source.open(options.cancellation), longestSide: size,
                    thumbHash: !arguments[PlaceholderOperation.noThumbHash],
                    blurHash: PlaceholderOperation.components(arguments), checkpoint: options.checkpoint)
            } catch PipelineError.cancelled {
                throw RenderError.cancelled(framesWritten: 0)
            } catch let error as DecodingError {
                throw RenderError.input(name: source.name, error)
            }
        }
    }

    /// The whole image at `source`, decoded as a stream; `options`' `cancelled` is asked before
    /// each band and inside the decoder's long calls (``RenderError/cancelled(framesWritten:)``).
    public static func decode(_ source: ImageSource, options: RenderOptions = RenderOptions()) throws -> Bitmap {
        try options.heapGuarded {
            do {
                return try ImagePipeline.open(try source.open(options.cancellation)).source.collect(checkpoint: options.checkpoint)
            } catch let PipelineError.input(_, error) {
                throw RenderError.input(name: source.name, error)
            } catch PipelineError.cancelled {
                throw RenderError.cancelled(framesWritten: 0)
            } catch let error as DecodingError {
                throw RenderError.input(name: source.name, error)
            }
        }
    }

    /// `width × height` points at `scale` pixels per point, rounded: a size of at least a pixel each
    /// way, or a ``ParameterError`` naming the scale (`spelled`) and the least that makes one.
    static func pixelSize(_ width: Double, _ height: Double, scale: Double, spelled: String) throws(ParameterError) -> (Int, Int) {
        let size = (Int((width * scale).rounded()), Int((height * scale).rounded()))
        guard size.0 < 1 || size.1 < 1 else { return size }
        throw .outOfRange(name: spelled, value: scale, range: (0.5 / min(width, height))...Bitmap.scaleSpec.range.upperBound, unit: "px/pt")
    }

    /// The writer of an animation into `path` (nil: memory) after `working` bytes (the frames in
    /// flight and what they read) are checked against the memory budget; what is left of the
    /// budget is the writer's ``AnimationWriter/byteLimit``, so the frames it holds count too.
    static func animationWriter(
        to path: String?, format: AnimationFormat, width: Int, height: Int, frameRate: Double, quality: Int, opaque: Bool, loopCount: Int,
        working: Int, frames: Int
    ) throws -> AnimationWriter {
        try ImageLimits.checkBudget(working, for: "rendering \(frames) frames of \(width)×\(height)")
        let writer =
            try path.map {
                try AnimationWriter(
                    path: $0, format: format, width: width, height: height, frameRate: frameRate, quality: quality, opaque: opaque,
                    loopCount: loopCount)
            }
            ?? AnimationWriter.inMemory(
                format: format, width: width, height: height, frameRate: frameRate, quality: quality, opaque: opaque, loopCount: loopCount)
        writer.byteLimit = ImageLimits.memoryBudget - working
        return writer
    }

    /// Records `scene` into `writer`, frames in parallel, stopping between batches when cancelled.
    static func record(_ scene: Scene, _ recording: SceneRecording, to writer: AnimationWriter, _ options: RenderOptions) throws {
        do {
            try recording.record(
                scene, to: writer, parallelFrames: options.threads, progress: { options.progress?($0, $1) }, cancelled: options.cancelled)
        } catch let RecordingError.cancelled(framesWritten) {
            throw RenderError.cancelled(framesWritten: framesWritten)
        }
    }
}
