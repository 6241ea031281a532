import BlurCore

/// The parameter tables of a layer's numbers, as the scene file and the command line read them.
extension Layer {
    /// The parameter table entry of ``Layer/opacity``: `opacity`, 0…1, default 1.
    public static let opacitySpec = ParameterSpec(
        name: "opacity", unit: "", range: 0...1, defaultValue: 1, summary: "opacity of the layer and its sublayers, as a group")
    /// The same table as a material's corner radius.
    public static let cornerRadiusSpec = Material.cornerRadiusSpec
    /// The parameter table entry of ``Layer/blurRadius``: `blur-radius`, in points over the
    /// Gaussian's range (a σ past its largest in pixels, after the scale, is drawn at the largest), default 0.
    public static let blurRadiusSpec = ParameterSpec(
        name: "blur-radius", unit: "pt", range: GaussianBlur.sigmaSpec.range, defaultValue: 0, summary: "the layer's own blur (σ in points)")
    /// A backdrop blur's radius, and the animatable `blurEffectRadius` of a blur backdrop.
    public static let backdropRadiusSpec = blurRadiusSpec.named("blur", summary: "the backdrop's blur (σ in points)")
    /// A frame's origin, points.
    public static let positionSpec = Rect.coordinateSpec
    /// A frame's size, points.
    public static let lengthSpec = Rect.lengthSpec
}

extension Scene {
    /// The scene's width and height, points.
    public static let sizeSpec = ParameterSpec(
        name: "size", unit: "pt", range: 1...100_000, defaultValue: nil, summary: "the scene's width and height in points")
}

extension Animation {
    /// When a transaction starts, scene seconds.
    public static let timeSpec = ParameterSpec(name: "at", unit: "s", range: -3600...3600, defaultValue: 0, summary: "when the change is made")
    /// A transaction's duration: `duration`, 0…3600 s, default 0.
    public static let durationSpec = ParameterSpec(name: "duration", unit: "s", range: 0...3600, defaultValue: 0, summary: "how long it animates")
    /// A transaction's delay: `delay`, 0…3600 s, default 0.
    public static let delaySpec = ParameterSpec(name: "delay", unit: "s", range: 0...3600, defaultValue: 0, summary: "how long it waits first")
}

extension TimingCurve {
    /// The named curves.
    public static let nameSpec = ChoiceSpec<TimingCurve>(
        name: "curve",
        choices: [
            .init(["linear"], .linear), .init(["easeIn"], .easeIn), .init(["easeOut"], .easeOut),
            .init(["easeInOut"], .easeInOut), .init(["default"], .default),
        ],
        defaultValue: .default, summary: "how a change is paced")
    /// A cubic Bézier's control-point x (the curve must stay a function of time).
    public static let controlXSpec = ParameterSpec(name: "x", unit: "", range: 0...1, defaultValue: nil, summary: "a control point's time")
    /// A cubic Bézier's control-point y (it may overshoot).
    public static let controlYSpec = ParameterSpec(name: "y", unit: "", range: -10...10, defaultValue: nil, summary: "a control point's progress")
    /// A spring's `response`, the period of the undamped oscillation: 0.01…100 s, default 0.5.
    public static let springResponseSpec = ParameterSpec(
        name: "response", unit: "s", range: 0.01...100, defaultValue: 0.5, summary: "the spring's period without damping")
    /// A spring's `damping-fraction`: 0.01…10, default 0.825 (1 = critically damped, < 1 overshoots).
    public static let springDampingSpec = ParameterSpec(
        name: "damping-fraction", unit: "", range: 0.01...10, defaultValue: 0.825, summary: "the spring's damping: 1 settles without bouncing")
    /// A spring's `initial-velocity`: −100…100 changes a second (1 = the whole change in a second), default 0.
    public static let springVelocitySpec = ParameterSpec(
        name: "initial-velocity", unit: "/s", range: -100...100, defaultValue: 0, summary: "the spring's speed at the start, in changes a second")
    /// A spring's `mass` (with stiffness and damping, instead of response and damping fraction): 0.01…1,000, default 1.
    public static let springMassSpec = ParameterSpec(name: "mass", unit: "", range: 0.01...1000, defaultValue: 1, summary: "the spring's mass")
    /// A spring's `stiffness`: 0.01…100,000, default 100 (`CASpringAnimation`'s).
    public static let springStiffnessSpec = ParameterSpec(
        name: "stiffness", unit: "", range: 0.01...100_000, defaultValue: 100, summary: "the spring's stiffness")
    /// A spring's `damping`: 0.01…10,000, default 10 (`CASpringAnimation`'s).
    public static let springDampingForceSpec = ParameterSpec(
        name: "damping", unit: "", range: 0.01...10_000, defaultValue: 10, summary: "the spring's damping force per unit of speed")
}
