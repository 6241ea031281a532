/// `blur-areas`: several rectangles or ellipses blurred, each with its σ and a feather — privacy
/// blur of faces, plates and names (imgproxy's `blur_areas`).
public enum BlurAreasOperation: StreamingImageOperation {
    /// `blurAreas` (`blur-areas` on the command line and HTTP).
    public static let name = "blurAreas"
    /// One line about it.
    public static let summary = "blur rectangles and ellipses of an image (privacy blur), each with its σ and a feather"
    /// The paragraph of `blurkit blur-areas --help`.
    public static let details = """
        Blurs each area of IN with a Gaussian: fully inside it, σ falling linearly to 0 across the feather
        outside it. Where areas overlap, the larger σ wins. Positions and sizes are points (pixels at
        --scale 1) or percentages of the image; an area outside the image changes nothing. For example
        --areas "ellipse:40%,10%,20%,30%:24:8;rect:0,900,400,80" blurs a face and a name strip.
        """

    /// The areas (``BlurArea``).
    public static let areas = OperationParameter<[BlurArea]>(
        Parameter(
            "areas", kind: .areas(most: BlurArea.most), default: .absent(nil), summary: "the areas to blur", placeholder: "AREAS")
    ) { if case let .areas(a) = $0 { a } else { nil } }
    .suggesting(.areas([BlurArea(shape: .ellipse, x: .fraction(0.3), y: .fraction(0.2), width: .fraction(0.4), height: .fraction(0.5))]))
    /// σ of the areas that give none.
    public static let sigma = OperationParameter.number("sigma", BlurArea.sigmaSpec, placeholder: "S")
    /// The feather of the areas that give none.
    public static let feather = OperationParameter.number("feather", BlurArea.featherSpec, placeholder: "F")

    /// In the order help texts list them.
    public static var parameters: [Parameter] { [areas.parameter, sigma.parameter, feather.parameter, BlurOperation.scale.parameter] }

    /// The effect the arguments describe.
    /// - Throws: when no areas are given.
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> BlurAreasEffect {
        var effect = BlurAreasEffect(areas: try arguments.required(areas))
        effect.sigma = arguments[sigma]
        effect.feather = arguments[feather]
        return effect
    }

    /// The areas blurred, placed in the context's frame (the whole image on the command line and
    /// HTTP, a scene layer's frame and corners in a scene).
    public static func draw(_ effect: BlurAreasEffect, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        try effect.render(image, frame: context.frame, cornerRadius: context.cornerRadius, threads: context.threads, checkpoint: context.checkpoint)
    }

    /// The field's stage.
    package static func stages(_ effect: BlurAreasEffect, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        let field = effect.field(width: width, height: height, scale: scale, frame: context.frame, cornerRadius: context.cornerRadius)
        return [FieldBlurStage(field: field, width: width, height: height)]
    }
}
