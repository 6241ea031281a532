/// `resize`: the image at the width and height a page asks for — fitted as sharp fits it, cropped
/// at a gravity (or where the detail is), at a device pixel ratio — by Lanczos-3 on premultiplied
/// pixels, its support scaled by the reduction (`LanczosStage`). From a JPEG file the decoder
/// shrinks first (DCT scaling, leaving the reduce a factor of two at least, as libvips does).
public enum ResizeOperation: StreamingImageOperation {
    /// `resize`.
    public static let name = "resize"
    /// One line about it.
    public static let summary = "the image at the width and height a page asks for (Lanczos-3)"
    /// The paragraph of `blurkit resize --help`.
    public static let details =
        "Resizes to --width and/or --height (times --dpr), fitted as sharp's --fit words say and cropped at --gravity; "
        + "an image smaller than the box is not enlarged unless --enlarge. Lanczos-3 on premultiplied pixels; a JPEG is shrunk while it is decoded."

    private static let frontEnds: Parameter.FrontEnds = [.commandLine, .http, .javascript]

    /// The width asked for, in CSS pixels (times ``dpr``); a control starts at 640.
    public static let width = OperationParameter.optionalNumber(
        "width", Resize.sideSpec.named("width", summary: "the output's width before dpr"), absent: "from height and the image's aspect",
        placeholder: "W", in: frontEnds
    ).suggesting(.number(640))
    /// The height asked for, in CSS pixels (times ``dpr``).
    public static let height = OperationParameter.optionalNumber(
        "height", Resize.sideSpec.named("height", summary: "the output's height before dpr"), absent: "from width and the image's aspect",
        placeholder: "H", in: frontEnds)
    /// How the image meets the box (``ResizeFit/spec``).
    public static let fit = OperationParameter.choice("fit", ResizeFit.spec, placeholder: "FIT", in: frontEnds)
    /// Which part a crop keeps (``ResizeGravity/spec``).
    public static let gravity = OperationParameter.choice("gravity", ResizeGravity.spec, placeholder: "G", in: frontEnds)
    /// The device pixel ratio (``Resize/dprSpec``).
    public static let dpr = OperationParameter.number("dpr", Resize.dprSpec, placeholder: "R", in: frontEnds)
    /// Whether a smaller image grows to the box.
    public static let enlarge = OperationParameter.flag(
        "enlarge", summary: "enlarge an image smaller than the box (by default it keeps its size)", in: frontEnds)

    /// Width, height, fit, gravity, dpr and enlarge.
    public static var parameters: [Parameter] {
        [width.parameter, height.parameter, fit.parameter, gravity.parameter, dpr.parameter, enlarge.parameter].map { p in
            var resizing = p
            resizing.resizes = true
            return resizing
        }
    }

    /// The resize the arguments describe.
    /// - Throws: when neither a width nor a height is given.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Resize {
        let w = arguments.given(width), h = arguments.given(height)
        guard w != nil || h != nil else { throw .missing(names: [arguments.spelled(width), arguments.spelled(height)], operation: name) }
        return Resize(
            width: w.map { Int($0) }, height: h.map { Int($0) }, fit: arguments[fit], gravity: arguments[gravity],
            dpr: arguments[dpr], enlarge: arguments[enlarge])
    }

    /// The image resized (the context's frame is not used: a resize covers the whole image).
    public static func draw(_ effect: Resize, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        #if !hasFeature(Embedded)  // WebAssembly links no reference
        if KernelSwitch.useReference {
            let own = context.sourceSize ?? (image.width, image.height)
            var plan = effect.plan(sourceWidth: own.width, sourceHeight: own.height)
            guard plan.attention else { return LanczosReference.resize(image, plan: plan) }
            let (width, height) = (plan.width, plan.height)
            (plan.width, plan.height, plan.x, plan.y) = (plan.scaledWidth, plan.scaledHeight, 0, 0)
            let scaled = LanczosReference.resize(image, plan: plan)
            let corner = Attention.crop(of: scaled, width: width, height: height)
            return try scaled.cropped(x: corner.x, y: corner.y, width: width, height: height)
        }
        #endif
        let steps = stages(effect, width: image.width, height: image.height, scale: image.scale, in: context)
        var result = image
        for step in steps { result = try step.run(result, parts: context.threads, checkpoint: context.checkpoint) }
        return result
    }

    /// The output and the input rows it holds: a band of rows of each, in floats.
    public static func estimatedBytes(width: Int, height: Int) -> Int { width * 64 * 4 * 2 }

    /// Margins (`contain`) are transparent.
    public static func keepsOpaque(_ effect: Resize) -> Bool { effect.fit != .contain }

    /// The resample (none when the plan keeps the image as it is), then the attention crop when the
    /// gravity is `attention` and something is cropped. The plan is made for the image's own size
    /// (`context.sourceSize` when it was decoded smaller) and sampled from `width × height`.
    package static func stages(_ effect: Resize, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        let own = context.sourceSize ?? (width, height)
        let plan = effect.plan(sourceWidth: own.width, sourceHeight: own.height)
        if plan.attention {
            var whole = plan
            (whole.width, whole.height, whole.x, whole.y) = (plan.scaledWidth, plan.scaledHeight, 0, 0)
            let scaled: [any RowStage] =
                whole.isIdentity(sourceWidth: width, sourceHeight: height)
                ? [] : [LanczosStage(sourceWidth: width, sourceHeight: height, plan: whole)]
            return scaled + [
                AttentionCropStage(sourceWidth: plan.scaledWidth, sourceHeight: plan.scaledHeight, width: plan.width, height: plan.height)
            ]
        }
        if plan.isIdentity(sourceWidth: width, sourceHeight: height) { return [] }
        return [LanczosStage(sourceWidth: width, sourceHeight: height, plan: plan)]
    }

    /// A JPEG is decoded smaller when the resize allows it.
    package static let shrinksOnLoad = true

    /// The JPEG DCT reduction for a source of `width × height` (``ResizePlan/reduction(width:height:)``).
    package static func reduction(_ effect: Resize, width: Int, height: Int) -> Int {
        effect.plan(sourceWidth: width, sourceHeight: height).reduction(width: width, height: height)
    }
}
