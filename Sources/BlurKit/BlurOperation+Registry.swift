/// The registry: every operation of BlurKit, with the parameters of the front ends that write
/// files (the output format and its settings). The command line's commands, the HTTP routes and
/// `/openapi.json` are made from `BlurOperation/all`; the WebAssembly module and the scene reader
/// take the effects' own parameters, which these include unchanged.
extension BlurOperation {
    /// Every operation, in the order help texts, routes and documents list them.
    public static let all: [BlurOperation] = [
        blur.adding(stillOutput), progressive.adding(stillOutput), material.adding(stillOutput), blurUp, placeholder, render,
    ]

    /// The operation called `name` in ``all``.
    public static func named(_ name: String) -> BlurOperation? { all.first { $0.name == name } }

    /// What every operation that writes one image takes: format, quality, compression, keep-profile.
    public static let stillOutput: [Parameter] = [
        Parameter(
            "format", kind: .choice(ImageFormat.spec.choices.map(\.words)),
            default: .absent("OUT's suffix (HTTP: Accept), else the input's format if PNG, JPEG, WebP or AVIF, else PNG"),
            summary: ImageFormat.spec.summary, placeholder: "FMT", in: [.commandLine, .http]),
        Parameter("quality", number: ImageFile.qualitySpec, placeholder: "Q", in: [.commandLine, .http]),
        Parameter("compression", number: ImageFile.compressionSpec, placeholder: "L", in: [.commandLine, .http]),
        Parameter(
            "keepProfile", flag: "keep-profile", kind: .flag, default: .value(.flag(false)),
            summary:
                "keep the input's colour profile: work in its colours and embed it in OUT (PNG, JPEG, WebP, AVIF, HEIC) instead of converting to sRGB",
            placeholder: "", in: [.commandLine, .http]),
    ]

    /// `blurup`: BlurUpImage's whole sequence, from its blurred preview into focus, as an animation.
    public static let blurUp = BlurOperation(
        name: "blurup", summary: "an image coming into focus from its blurred preview, as an animation",
        parameters: [
            Parameter(
                "size", kind: .size(ParameterSpec(name: "size", unit: "pt", range: 1...10_000, defaultValue: nil, summary: "the view's size")),
                default: .absent("300 wide, the image's aspect"), summary: "the view's size in points", placeholder: "WxH",
                in: [.commandLine, .http]),
            Parameter(
                "previewSize",
                number: ParameterSpec(
                    name: "preview-size", unit: "px", range: 1...512, defaultValue: 32, integer: true,
                    summary: "longest side of the tiny preview the sequence starts from"),
                placeholder: "N", in: [.commandLine, .http]),
            Parameter(
                "blurRadius", flag: "radius",
                number: ParameterSpec(
                    name: "radius", unit: "pt", range: 0...200, defaultValue: BlurUpImage.defaultBlurRadius, summary: "blur radius of the preview"),
                placeholder: "R", in: [.commandLine, .http]),
            Parameter(
                "reduceMotion", kind: .flag, default: .value(.flag(false)), summary: "Reduce Motion: a 0.2 s fade instead of the focus pull",
                placeholder: "", in: [.commandLine, .http]),
            Parameter(
                "wait",
                number: ParameterSpec(
                    name: "wait", unit: "s", range: 0...60, defaultValue: 1.3,
                    summary: "how long the preview shows before the image arrives (the seed's demo: 1.3)"),
                placeholder: "S", in: [.commandLine, .http]),
            Parameter(
                "hold",
                number: ParameterSpec(name: "hold", unit: "s", range: 0...60, defaultValue: 1, summary: "how long the sharp image shows at the end"),
                placeholder: "S", in: [.commandLine, .http]),
            Parameter("fps", number: SceneRecording.frameRateSpec, placeholder: "F", in: [.commandLine, .http]),
            Parameter("scale", number: Scene.scaleSpec, placeholder: "K", in: [.commandLine, .http]),
            Parameter(
                "format", kind: .choice(AnimationFormat.spec.choices.map(\.words)), default: .absent("from OUT's suffix; webp over HTTP"),
                summary: AnimationFormat.spec.summary, placeholder: "FMT", in: [.commandLine, .http]),
            Parameter("quality", number: ImageFile.qualitySpec, placeholder: "Q", in: [.commandLine, .http]),
        ])

    /// `placeholder`: the blur-up placeholder of an image (size, ThumbHash, preview, average colour).
    public static let placeholder = BlurOperation(
        name: "placeholder", summary: "tiny blur-up previews, ThumbHashes and a manifest for many images",
        parameters: [
            Parameter("size", number: Placeholder.sizeSpec, placeholder: "N", in: [.commandLine, .http]),
            Parameter(
                "noThumbHash", flag: "no-thumbhash", kind: .flag, default: .value(.flag(false)), summary: "leave the ThumbHash out",
                placeholder: "", in: [.commandLine, .http]),
            Parameter(
                "format", kind: .choice(ImageFormat.spec.choices.map(\.words)), default: .absent("the placeholder as JSON"),
                summary: "the preview itself in this format, instead of the JSON", placeholder: "FMT", in: [.http]),
        ])

    /// `render`: a scene file as a still (at `time` alone) or an animation.
    public static let render = BlurOperation(
        name: "render", summary: "render a scene file (JSON) to a still or an animation",
        parameters: [
            Parameter(
                "time", number: SceneRecording.startSpec, default: .value(.number(0)), placeholder: "T", in: [.commandLine, .http]),
            Parameter(
                "duration", number: SceneRecording.durationSpec, default: .absent("the file's \"duration\", else until its last animation ends"),
                placeholder: "D", in: [.commandLine, .http]),
            Parameter(
                "fps", number: SceneRecording.frameRateSpec, default: .absent("the file's \"fps\", else 30"), placeholder: "F",
                in: [.commandLine, .http]),
            Parameter(
                "scale", number: Scene.scaleSpec, default: .absent("the file's \"scale\", else 1"), placeholder: "K", in: [.commandLine, .http]),
            Parameter(
                "format",
                kind: .choice(ImageFormat.spec.choices.map(\.words) + [["frames"]]),
                default: .absent("from OUT"), summary: "output format: a still's, or an animation's (webp, gif, apng; frames: a folder of PNGs)",
                placeholder: "FMT",
                in: [.commandLine, .http]),
            Parameter("quality", number: ImageFile.qualitySpec, placeholder: "Q", in: [.commandLine, .http]),
            Parameter("loop", number: AnimationFormat.loopSpec, placeholder: "N", in: [.commandLine, .http]),
        ])
}
