/// The registry: every operation of BlurKit, each declared as one type, with the parameters of the
/// front ends that write files (the output format and its settings). The command line's commands,
/// the HTTP routes and `/openapi.json`, `blurkit --describe` and the reference pages are made from
/// ``BlurOperation/all``; the WebAssembly module and the scene reader take BlurCore's
/// `BlurOperation.effects`, which these include unchanged.
extension BlurOperation {
    /// Every operation, in the order help texts, routes and documents list them: the image effects
    /// with ``StillOutput``'s parameters, then the blur-up animation, placeholders and scenes.
    public static let all: [BlurOperation] =
        images.map { $0.adding(StillOutput.parameters) } + [
            BlurOperation(BlurUpOperation.self), BlurOperation(PlaceholderOperation.self), BlurOperation(RenderOperation.self),
        ]

    /// The operation called `name` in ``all``.
    public static func named(_ name: String) -> BlurOperation? { all.first { $0.name == name } }
}

/// What every operation that writes one image takes: format, quality, compression, keep-profile.
public enum StillOutput {
    /// The output format; absent, OUT's suffix (HTTP: `Accept`), else the input's format if the
    /// service and the command line can write it, else PNG (``Renderer/defaultFormat(for:)``).
    public static let format = OperationParameter<ImageFormat>(
        Parameter(
            "format", kind: .choice(ImageFormat.spec.choices.map(\.words)),
            default: .absent(
                "OUT's suffix (HTTP: Accept), else the input's format if "
                    + Renderer.keptFormats.dropLast().map(\.name).joined(separator: ", ") + " or " + Renderer.keptFormats.last!.name + ", else "
                    + Renderer.fallbackFormat.name),
            summary: ImageFormat.spec.summary, placeholder: "FMT", in: [.commandLine, .http])
    ) { if case let .word(w) = $0 { try? ImageFormat.spec.parse(w) } else { nil } }.with(role: .format)
    /// JPEG and WebP quality.
    public static let quality = OperationParameter.integer("quality", ImageFile.qualitySpec, placeholder: "Q", in: [.commandLine, .http])
        .with(role: .encoding)
    /// PNG zlib level.
    public static let compression = OperationParameter.integer(
        "compression", ImageFile.compressionSpec, placeholder: "L", in: [.commandLine, .http]
    ).with(role: .encoding)
    /// Keep the input's colour profile.
    public static let keepProfile = OperationParameter.flag(
        "keepProfile", flag: "keep-profile",
        summary:
            "keep the input's colour profile: work in its colours and embed it in OUT (PNG, JPEG, WebP, AVIF, HEIC) instead of converting to sRGB",
        in: [.commandLine, .http])

    /// The four, in order.
    public static let parameters = [format.parameter, quality.parameter, compression.parameter, keepProfile.parameter]
}

/// `blurup`: BlurUpImage's whole sequence, from its blurred preview into focus, as an animation.
public enum BlurUpOperation: OperationDefinition {
    /// `blurup`.
    public static let name = "blurup"
    /// One line about it.
    public static let summary = "an image coming into focus from its blurred preview, as an animation"
    /// An image in, an animation out.
    public static let form = BlurOperation.Form.animation
    /// The paragraph of `blurkit blurup --help`.
    public static var details: String {
        """
        Renders BlurUpImage's sequence for IN: its tiny preview (--preview-size) blurred by --radius with
        the activity indicator while "loading", then IN arriving and coming into focus (blur → 0 and
        opacity 0 → 1, ease-out over \(formatNumber(BlurUpImage.transitionDuration)) s; with --reduce-motion a \(formatNumber(BlurUpImage.reducedMotionDuration)) s fade), then the sharp image.
        """
    }
    /// The view's width in points when no size is given (the height follows the image's aspect).
    public static let defaultViewWidth = 300.0

    /// The view's size in points.
    public static let size = OperationParameter.size(
        "size", ParameterSpec(name: "size", unit: "pt", range: 1...10_000, defaultValue: nil, summary: "the view's size"),
        absent: "\(formatNumber(defaultViewWidth)) wide, the image's aspect", summary: "the view's size in points", in: [.commandLine, .http])
    /// The preview's longest side.
    public static let previewSize = OperationParameter.integer(
        "previewSize",
        Placeholder.sizeSpec.named(
            "preview-size", summary: "longest side of the tiny preview the sequence starts from", defaultValue: Double(BlurUpImage.defaultPreviewSide)
        ),
        placeholder: "N", in: [.commandLine, .http])
    /// `BlurUpImage.blurRadius`.
    public static let blurRadius = BlurUpTransition.blurRadius
    /// Reduce Motion.
    public static let reduceMotion = OperationParameter.flag(
        "reduceMotion", summary: "Reduce Motion: a \(formatNumber(BlurUpImage.reducedMotionDuration)) s fade instead of the focus pull",
        in: [.commandLine, .http])
    /// Seconds before the image arrives.
    public static let wait = OperationParameter.number(
        "wait",
        ParameterSpec(
            name: "wait", unit: "s", range: 0...60, defaultValue: 1.3,
            summary: "how long the preview shows before the image arrives (the Blur Up Image's demo: 1.3)"),
        placeholder: "S", in: [.commandLine, .http])
    /// Seconds the sharp image shows at the end.
    public static let hold = OperationParameter.number(
        "hold", ParameterSpec(name: "hold", unit: "s", range: 0...60, defaultValue: 1, summary: "how long the sharp image shows at the end"),
        placeholder: "S", in: [.commandLine, .http])
    /// Frames a second.
    public static let fps = OperationParameter.number("fps", SceneRecording.frameRateSpec, placeholder: "F", in: [.commandLine, .http])
    /// Pixels per point.
    public static let scale = OperationParameter.number("scale", Scene.scaleSpec, placeholder: "K", in: [.commandLine, .http])
    /// The animation's format.
    public static let format = OperationParameter<AnimationFormat>(
        Parameter(
            "format", kind: .choice(AnimationFormat.spec.choices.map(\.words)), default: .absent("from OUT's suffix; webp over HTTP"),
            summary: AnimationFormat.spec.summary, placeholder: "FMT", in: [.commandLine, .http])
    ) { if case let .word(w) = $0 { try? AnimationFormat.spec.parse(w) } else { nil } }.with(role: .format)
    /// WebP quality.
    public static let quality = StillOutput.quality

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [
            size.parameter, previewSize.parameter, blurRadius.parameter, reduceMotion.parameter, wait.parameter, hold.parameter, fps.parameter,
            scale.parameter, format.parameter, quality.parameter,
        ]
    }
}

/// `placeholder`: the blur-up placeholder of an image (size, ThumbHash, preview, average colour).
public enum PlaceholderOperation: OperationDefinition {
    /// `placeholder`.
    public static let name = "placeholder"
    /// One line about it.
    public static let summary = "tiny blur-up previews, ThumbHashes and a manifest for many images"
    /// Images in, placeholders out.
    public static let form = BlurOperation.Form.placeholder
    /// The paragraph of `blurkit placeholder --help`.
    public static let details = """
        Makes the blur-up preview of each image: a PNG whose longest side is at most --size pixels (aspect
        kept, area-averaged), its ThumbHash and BlurHash, and its average colour.
        """

    /// The preview's longest side.
    public static let size = OperationParameter.integer("size", Placeholder.sizeSpec, placeholder: "N", in: [.commandLine, .http])
    /// Leave the ThumbHash out.
    public static let noThumbHash = OperationParameter.flag(
        "noThumbHash", flag: "no-thumbhash", summary: "leave the ThumbHash and the BlurHash out", in: [.commandLine, .http])
    /// The BlurHash's components, across and down.
    public static let blurHash = DefaultedParameter<ParameterValue.Dimensions>(
        Parameter(
            "blurHash", flag: "blurhash", kind: .size(BlurHash.componentSpec),
            default: .value(.size(width: Double(BlurHash.defaultComponents.x), height: Double(BlurHash.defaultComponents.y))),
            summary: "BlurHash components across and down", placeholder: "XxY", in: [.commandLine, .http])
    ) { if case let .size(w, h) = $0 { ParameterValue.Dimensions(width: w, height: h) } else { nil } }
    /// The preview itself in a format, instead of the JSON (HTTP only).
    public static let format = OperationParameter<ImageFormat>(
        Parameter(
            "format", kind: .choice(ImageFormat.spec.choices.map(\.words)), default: .absent("the placeholder as JSON"),
            summary: "the preview itself in this format, instead of the JSON", placeholder: "FMT", in: [.http])
    ) { if case let .word(w) = $0 { try? ImageFormat.spec.parse(w) } else { nil } }.with(role: .format)

    /// The widths of the resized variants whose URLs the entries list for `srcset`.
    public static let widths = OperationParameter.list(
        "widths", Resize.sideSpec.named("widths", summary: "a width"), most: 16, absent: "none",
        summary: "list the URLs of the image resized to these widths for srcset (none wider than the image)", placeholder: "W,W,…",
        in: [.commandLine, .http])

    /// In the order help texts list them.
    public static var parameters: [Parameter] { [size.parameter, noThumbHash.parameter, blurHash.parameter, widths.parameter, format.parameter] }

    /// The components `arguments` ask for.
    public static func components(_ arguments: OperationArguments) -> BlurHash.Components {
        let given = arguments[blurHash]
        return BlurHash.Components(x: Int(given.width), y: Int(given.height))
    }
}

/// `render`: a scene file as a still (at `time` alone) or an animation.
public enum RenderOperation: OperationDefinition {
    /// `render`.
    public static let name = "render"
    /// One line about it.
    public static let summary = "render a scene file (JSON) to a still or an animation"
    /// A scene file in, a still or an animation out.
    public static let form = BlurOperation.Form.scene
    /// The paragraph of `blurkit render --help`.
    public static var details: String {
        """
        Renders a scene file (docs/scene-format.md). With --time alone, OUT is the still frame at that
        time (\(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))). Otherwise OUT is an animation from --time
        (default 0): .webp (animated WebP), .gif, .png/.apng (APNG), or a folder (a path ending in / or
        without a suffix) of numbered PNGs. Frames render in parallel and are written in order.
        """
    }

    /// The scene time of the first frame.
    public static let time = OperationParameter.number(
        "time", SceneRecording.startSpec, default: .value(.number(0)), placeholder: "T", in: [.commandLine, .http])
    /// The animation's length.
    public static let duration = OperationParameter.optionalNumber(
        "duration", SceneRecording.durationSpec, absent: "the file's \"duration\", else until its last animation ends",
        placeholder: "D", in: [.commandLine, .http])
    /// Frames a second.
    public static let fps = OperationParameter.optionalNumber(
        "fps", SceneRecording.frameRateSpec,
        absent: "the file's \"fps\", else \(formatNumber(SceneRecording.frameRateSpec.defaultValue ?? 30))", placeholder: "F",
        in: [.commandLine, .http])
    /// Pixels per point.
    public static let scale = OperationParameter.optionalNumber(
        "scale", Scene.scaleSpec, absent: "the file's \"scale\", else \(formatNumber(Scene.scaleSpec.defaultValue ?? 1))",
        placeholder: "K", in: [.commandLine, .http])
    /// A still's format or an animation's (or a folder of PNG frames); the two specs' words are parsed apart by the front ends.
    /// `apng` is a word of its own here (for a still an alias of `png`), so that an animation asked for as `apng` is one.
    public static let format = OperationParameter<String>(
        Parameter(
            "format", kind: .choice(ImageFormat.spec.choices.flatMap { $0.value == .png ? $0.words.map { [$0] } : [$0.words] } + [["frames"]]),
            default: .absent("from OUT"),
            summary: "output format: a still's, or an animation's (webp, gif, apng; frames: a folder of PNGs)", placeholder: "FMT",
            in: [.commandLine, .http])
    ) { if case let .word(w) = $0 { w } else { nil } }.with(role: .format)
    /// Quality of lossy stills and animations.
    public static let quality = StillOutput.quality
    /// Times the animation plays.
    public static let loop = OperationParameter.integer("loop", AnimationFormat.loopSpec, placeholder: "N", in: [.commandLine, .http])
        .with(role: .encoding)

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [time.parameter, duration.parameter, fps.parameter, scale.parameter, format.parameter, quality.parameter, loop.parameter]
    }

    /// Whether a scene is asked for as a still: `time` alone, without `duration` or `fps`.
    public static func isStill(_ given: OperationArguments) -> Bool { given.has(time) && !given.has(duration) && !given.has(fps) }
}
