/// The three effects the engine draws on an image of its own (and so the WebAssembly module too):
/// their parameters, and the typed values built from checked arguments.
extension BlurOperation {
    /// `blur`: a Gaussian of σ pixels, or of a radius in points at a scale.
    public static let blur = BlurOperation(
        name: "blur", summary: "Gaussian blur of a whole image",
        parameters: [
            Parameter("sigma", number: GaussianBlur.sigmaSpec, default: .absent(nil), placeholder: "S").suggesting(.number(8)),
            Parameter(
                "radius",
                number: ParameterSpec(
                    name: "radius", unit: "pt", range: 0...2000, defaultValue: nil,
                    summary: "blur radius in points, as the components take it (σ in points); σ = radius × scale"),
                placeholder: "R"),
            Parameter("scale", number: pointScaleSpec.named("scale", summary: "pixels per point of the image; with radius"), placeholder: "K"),
            Parameter("edges", choice: EdgeMode.spec, placeholder: "MODE"),
        ],
        exclusive: [["sigma", "radius"]])

    /// `progressive`: BlurUIKit's `VariableBlurView` with its dimming gradient.
    public static let progressive = BlurOperation(
        name: "progressive", summary: "progressive (variable) blur with a dimming gradient",
        parameters: [
            Parameter("direction", choice: GradientDirection.spec, placeholder: "DIR"),
            Parameter("maximumBlurRadius", flag: "max-radius", number: VariableBlurEffect.maximumRadiusSpec, placeholder: "R"),
            Parameter("minimumBlurRadius", flag: "min-radius", number: VariableBlurEffect.minimumRadiusSpec, placeholder: "R"),
            Parameter(
                "blurMaximumRadiusInset", flag: "blur-inset", kind: .length(fractions: VariableBlurEffect.insetFractionSpec, allowsNone: false),
                default: .value(.length(.absolute(position: 0))), summary: "where maximum blur is reached, from the full edge", placeholder: "LEN"),
            Parameter(
                "dimmingTintColor", flag: "tint", kind: .color, default: .value(.color(.background)),
                summary: "dimming colour; background is white in light appearance, black in dark", placeholder: "COLOR"),
            Parameter(
                "dimmingAlpha", flag: "dimming", number: VariableBlurEffect.dimmingAlphaSpec,
                default: .perAppearance(
                    light: .number(DimmingAlpha.default.alpha(for: .light)), dark: .number(DimmingAlpha.default.alpha(for: .dark))),
                placeholder: "A"),
            Parameter(
                "dimmingFullColorInset", flag: "dimming-inset", kind: .length(fractions: VariableBlurEffect.insetFractionSpec, allowsNone: false),
                default: .value(.length(.absolute(position: 0))), summary: "where the dimming reaches full colour, from the full edge",
                placeholder: "LEN"),
            Parameter(
                "dimmingClearExtension", flag: "dimming-extension",
                kind: .length(fractions: VariableBlurEffect.extensionFractionSpec, allowsNone: true),
                default: .value(.length(.relative(fraction: VariableBlurEffect.extensionFractionSpec.defaultValue!))),
                summary: "how far the dimming's clear end reaches past the region", placeholder: "LEN"),
            appearance(summary: "the interface style; picks the default tint and dimming"),
            region(summary: "the view's frame, e.g. a header band"),
            scale,
        ])

    /// `material`: a UIKit blur material over a region.
    public static let material = BlurOperation(
        name: "material", summary: "frosted-glass material (UIBlurEffect style) over a region",
        parameters: [
            Parameter("style", choice: MaterialStyle.spec, placeholder: "STYLE", in: [.commandLine, .http, .javascript]),
            appearance(summary: "the interface style"),
            region(summary: "the material's frame"),
            Parameter(
                "cornerRadius", flag: "corner-radius", number: Material.cornerRadiusSpec, placeholder: "R", in: [.commandLine, .http, .javascript]),
            Parameter("blurEffectRadius", flag: "radius", number: Material.radiusSpec, placeholder: "R"),
            Parameter("dimmingAlpha", flag: "dimming", number: Material.dimmingSpec, placeholder: "A"),
            scale,
        ])

    /// Pixels per point of the image: radii and regions are in points (0.01…16, default 1).
    public static let pointScaleSpec = Bitmap.scaleSpec.named("scale", summary: "pixels per point of the image: radii and regions are in points")

    /// `scale`, as the effects that draw over an image take it (not a scene key: a scene has its own).
    static let scale = Parameter("scale", number: pointScaleSpec, placeholder: "K", in: [.commandLine, .http, .javascript])

    /// `appearance` (not a scene key: a scene has its own).
    static func appearance(summary: String) -> Parameter {
        Parameter(
            "appearance", kind: .choice(Appearance.spec.choices.map { $0.words }), default: .value(.word("light")), summary: summary,
            placeholder: "MODE", in: [.commandLine, .http, .javascript])
    }

    /// `region` in points, the whole image when absent (a scene layer's frame is its region).
    static func region(summary: String) -> Parameter {
        Parameter(
            "region", kind: .region, default: .absent("the whole image"), summary: summary, placeholder: "X,Y,W,H",
            in: [.commandLine, .http, .javascript])
    }
}

extension GaussianBlur {
    /// The blur `arguments` of ``BlurOperation/blur`` describe: σ, or radius × scale.
    /// - Throws: when neither σ nor a radius is given, when `scale` comes with σ, or when
    ///   radius × scale is outside σ's range; each names the parameters as the front end does.
    public init(_ arguments: OperationArguments) throws(ParameterError) {
        let sigma: Double
        if let s = arguments.given("sigma").flatMap({ if case let .number(v) = $0 { v } else { nil } }) {
            if arguments.has("scale") {
                throw .requires(name: arguments.spelled("scale"), other: arguments.spelled("radius"), instead: arguments.spelled("sigma"))
            }
            sigma = s
        } else if let r = arguments.given("radius").flatMap({ if case let .number(v) = $0 { v } else { nil } }) {
            let k = arguments.number("scale") ?? 1
            sigma = try GaussianBlur.sigmaSpec.named("\(arguments.spelled("radius")) × \(arguments.spelled("scale"))").validate(r * k)
        } else {
            throw .missing(names: [arguments.spelled("sigma") + " (pixels)", arguments.spelled("radius") + " (points)"], operation: "blur")
        }
        try self.init(sigma: sigma, edges: arguments.choice("edges", EdgeMode.spec) ?? .clamp)
    }
}

extension VariableBlurEffect {
    /// The effect `arguments` of ``BlurOperation/progressive`` describe, checked.
    public init(_ arguments: OperationArguments) throws(ParameterError) {
        self.init(direction: arguments.choice("direction", GradientDirection.spec) ?? .down)
        maximumBlurRadius = arguments.number("maximumBlurRadius") ?? maximumBlurRadius
        minimumBlurRadius = arguments.number("minimumBlurRadius") ?? minimumBlurRadius
        if arguments.has("blurMaximumRadiusInset"), let inset = arguments.length("blurMaximumRadiusInset") { blurMaximumRadiusInset = inset }
        if arguments.has("dimmingFullColorInset"), let inset = arguments.length("dimmingFullColorInset") { dimmingFullColorInset = inset }
        if let clear = arguments.length("dimmingClearExtension") { dimmingClearExtension = clear }
        if arguments.has("dimmingAlpha"), let alpha = arguments.number("dimmingAlpha") { dimmingAlpha = .constant(alpha: alpha) }
        if let tint = arguments.tint("dimmingTintColor") { dimmingTintColor = tint.dynamicColor }
        self = try validated()
    }
}

extension Material {
    /// The material `arguments` of ``BlurOperation/material`` describe, checked.
    public init(_ arguments: OperationArguments) throws(ParameterError) {
        self.init(style: arguments.choice("style", MaterialStyle.spec) ?? .systemMaterial)
        if arguments.has("blurEffectRadius") { blurEffectRadius = arguments.number("blurEffectRadius") }
        dimmingAlpha = arguments.number("dimmingAlpha") ?? dimmingAlpha
        cornerRadius = arguments.number("cornerRadius") ?? cornerRadius
        self = try validated()
    }
}
