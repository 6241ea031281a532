/// `blur`: a Gaussian of σ pixels, or of a radius in points at a scale, over the whole image.
public enum GaussianBlurOperation: StreamingImageOperation {
    /// `blur`.
    public static let name = "blur"
    /// One line about it.
    public static let summary = "Gaussian blur of a whole image"
    /// The paragraph of `blurkit blur --help`.
    public static let details = "Blurs the whole image with a Gaussian of σ pixels, or of --radius points at --scale pixels per point."

    /// σ in pixels (``GaussianBlur/sigmaSpec``); a control starts at 8.
    public static let sigma = OperationParameter.optionalNumber("sigma", GaussianBlur.sigmaSpec, absent: nil, placeholder: "S", in: sceneless)
        .suggesting(.number(8))
    /// The radius in points, as the components take it (σ in points): σ = radius × scale.
    public static let radius = OperationParameter.optionalNumber(
        "radius",
        ParameterSpec(
            name: "radius", unit: "pt", range: GaussianBlur.sigmaSpec.range, defaultValue: nil,
            summary: "blur radius in points, as the components take it (σ in points); σ = radius × scale, itself at most "
                + "\(formatNumber(GaussianBlur.sigmaSpec.range.upperBound)) px"),
        absent: nil, placeholder: "R", in: sceneless)
    /// Pixels per point, with ``radius``.
    public static let scale = OperationParameter.number(
        "scale", BlurOperation.pointScaleSpec.named("scale", summary: "pixels per point of the image; with radius"), placeholder: "K", in: sceneless
    ).going(with: radius.parameter).with(role: .pointScale)
    /// What lies beyond the image's edges (``EdgeMode/spec``).
    public static let edges = OperationParameter.choice("edges", EdgeMode.spec, placeholder: "MODE", in: sceneless)

    /// Not a scene key: a scene's blur backdrop is `{"blur": R}`, a radius in points over the layer's frame.
    private static let sceneless: Parameter.FrontEnds = [.commandLine, .http, .javascript]

    /// σ or radius (with scale), and the edges.
    public static var parameters: [Parameter] { [sigma.parameter, radius.parameter, scale.parameter, edges.parameter] }
    /// σ or radius, not both.
    public static var exclusive: [[Parameter]] { [[sigma.parameter, radius.parameter]] }

    /// The blur as the arguments give it: σ in pixels, or a radius in points.
    public struct Blur: Sendable, Hashable {
        /// σ in pixels and the edges (for a radius without a scale: the radius at scale 1).
        public var blur: GaussianBlur
        /// A radius in points given without a scale: σ is the radius at the scale of the image it
        /// is drawn over (a scene's backdrop); nil: ``blur``'s σ.
        public var pointRadius: Double?

        /// A blur of `radius` points at the scale of the image it is drawn over, edges clamped.
        public init(radius: Double) {
            blur = GaussianBlur(clampingSigma: radius)
            pointRadius = radius
        }

        init(blur: GaussianBlur, pointRadius: Double?) {
            self.blur = blur
            self.pointRadius = pointRadius
        }

        /// The blur over an image at `scale` pixels per point (σ past its range drawn at its largest).
        func at(scale: Double) -> GaussianBlur {
            guard let pointRadius else { return blur }
            return GaussianBlur(clampingSigma: pointRadius * scale, edges: blur.edges)
        }
    }

    /// The blur the arguments describe: σ, or radius × scale.
    /// - Throws: when neither σ nor a radius is given, when `scale` comes with σ, or when
    ///   radius × scale is outside σ's range; each names the parameters as the front end does.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Blur {
        let s: Double
        if let given = arguments.given(sigma) {
            if arguments.has(scale) {
                throw .requires(name: arguments.spelled(scale), other: arguments.spelled(radius), instead: arguments.spelled(sigma))
            }
            s = given
        } else if let r = arguments.given(radius) {
            let k = arguments[scale]
            s = try GaussianBlur.sigmaSpec.named("\(arguments.spelled(radius)) × \(arguments.spelled(scale))").validate(r * k)
        } else {
            throw .missing(names: [arguments.spelled(sigma), arguments.spelled(radius)], operation: name)
        }
        let points = arguments.has(radius) && !arguments.has(scale) ? arguments.given(radius) : nil
        return Blur(blur: try GaussianBlur(sigma: s, edges: arguments[edges]), pointRadius: points)
    }

    /// The image blurred: the whole of it when the context's frame is (the command line, HTTP and
    /// the module have no region), else the frame alone, edges clamped at it and corners rounded
    /// by the context's radius (a scene layer's backdrop).
    public static func draw(_ effect: Blur, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        let blur = effect.at(scale: image.scale)
        #if hasFeature(Embedded)  // the module has no scene: the frame is the image's
        return try blur.apply(to: image, threads: context.threads, checkpoint: context.checkpoint)
        #else
        let whole = Rect(x: 0, y: 0, width: Double(image.width) / image.scale, height: Double(image.height) / image.scale)
        if context.frame == whole, context.cornerRadius == 0 {
            return try blur.apply(to: image, threads: context.threads, checkpoint: context.checkpoint)
        }
        return try image.blurring(
            context.frame, radius: effect.pointRadius ?? blur.sigma / image.scale, cornerRadius: context.cornerRadius, threads: context.threads,
            checkpoint: context.checkpoint)
        #endif
    }

    /// ``GaussianBlur/estimatedBytes(width:height:)``.
    public static func estimatedBytes(width: Int, height: Int) -> Int { GaussianBlur.estimatedBytes(width: width, height: height) }

    /// Opaque stays opaque when the edges are clamped.
    public static func keepsOpaque(_ effect: Blur) -> Bool { effect.blur.edges == .clamp }

    /// One stage over the whole image (the context's frame is the image's: no front end that
    /// streams gives a region), or none when σ is too small to change a byte.
    package static func stages(_ effect: Blur, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        let blur = effect.at(scale: scale)
        return blur.sigma > GaussianBlur.identityThreshold ? [blur.stage(width: width, height: height)] : []
    }
}
