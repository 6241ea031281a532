/// The effects the engine draws over an image of its own (and so the WebAssembly module and scene
/// backdrops too), and the parameters several of them share.
extension BlurOperation {
    #if BLURKIT_WASM_CORE
    /// The image operations of the smaller WebAssembly module: its effects, without the resize.
    public static let images: [BlurOperation] = effects
    #else
    /// The image operations of BlurCore, in the order help texts, routes and documents list them:
    /// ``ResizeOperation`` (which changes the image's size, so it is no scene backdrop), then the
    /// ``effects``.
    /// Each effect here takes the resize's parameters too (``resizingFirst(_:)``).
    public static let images: [BlurOperation] = [BlurOperation(ResizeOperation.self)] + effects.map(resizingFirst)
    #endif

    #if BLURKIT_WASM_CORE
    /// The effects of the smaller WebAssembly module (blurkit-core.wasm, Scripts/wasm.sh): the blurs
    /// alone, and those a build adds from sources of its own (``added``).
    public static let effects: [BlurOperation] =
        [
            BlurOperation(GaussianBlurOperation.self), BlurOperation(ProgressiveBlurOperation.self), BlurOperation(BlurAreasOperation.self),
            BlurOperation(ScrollEdgeOperation.self),
        ] + added
    #else
    /// The effects drawn over an image at its size: the scene's backdrops too.
    public static let effects: [BlurOperation] =
        [
            BlurOperation(GaussianBlurOperation.self), BlurOperation(ProgressiveBlurOperation.self), BlurOperation(BlurAreasOperation.self),
            BlurOperation(MaterialOperation.self), BlurOperation(ScrollEdgeOperation.self), BlurOperation(GlassOperation.self),
        ] + added
    #endif

    #if !BLURKIT_WASM_ADDED
    /// The operations a WebAssembly build adds from sources of its own (`ADD=… Scripts/wasm.sh`,
    /// which compiles them with `BLURKIT_WASM_ADDED` and a file declaring this list): none here.
    static var added: [BlurOperation] { [] }
    #endif

    /// Pixels per point of the image: radii and regions are in points (0.01…16, default 1).
    public static let pointScaleSpec = Bitmap.scaleSpec.named("scale", summary: "pixels per point of the image: radii and regions are in points")

    /// `scale`, as the effects that draw over an image take it (not a scene key: a scene has its own).
    public static let scale = OperationParameter.number("scale", pointScaleSpec, placeholder: "K", in: [.commandLine, .http, .javascript])
        .with(role: .pointScale)

    /// The `appearance` an effect's front ends read for ``EffectContext/appearance`` (a scene has its own).
    public static let appearanceParameter = appearance(summary: "the interface style")

    /// The `region` an effect's front ends read for ``EffectContext/frame`` (a scene layer's frame is its region).
    public static let regionParameter = region(summary: "the effect's frame")

    /// `appearance` with `summary` (not a scene key: a scene has its own).
    @inline(never)
    public static func appearance(summary: String) -> DefaultedParameter<Appearance> {
        OperationParameter.choice("appearance", Appearance.spec.with(summary: summary), placeholder: "MODE", in: [.commandLine, .http, .javascript])
            .with(role: .appearance)
    }

    /// `region` in points with `summary`, the whole image when absent (a scene layer's frame is its region).
    @inline(never)
    public static func region(summary: String) -> OperationParameter<Rect> {
        OperationParameter.region("region", absent: "the whole image", summary: summary, in: [.commandLine, .http, .javascript])
    }

    /// The context a front end other than a scene gives `arguments`' effect over a `width × height`
    /// image at `scale`: the `region` (the whole image when absent) and the `appearance` (light when absent).
    /// - Throws: when the region lies outside the image.
    public static func context(
        _ arguments: OperationArguments, width: Int, height: Int, scale: Double, threads: Int? = nil, checkpoint: @escaping () throws -> Void = {}
    ) throws(ParameterError) -> EffectContext {
        EffectContext(
            frame: try arguments.frame(width: width, height: height, scale: scale), appearance: arguments.appearance, threads: threads,
            checkpoint: checkpoint)
    }
}
