import BlurCore

/// A layer's backdrop filter: an image operation of the registry drawn over what lies beneath the
/// layer, in its frame, with the scene's appearance and the layer's corner radius
/// (``Layer/backdropFilter``).
///
/// Made from the values a scene file or a program gives (``init(_:)``), whose number and colour
/// parameters animate (`Layer.setBackdropParameter(_:to:appearance:)`); or from an operation's own typed
/// effect (``init(_:_:)``: a `VariableBlurEffect`, a glass container). Every `ImageOperation` is a
/// backdrop this way: none is named here, and a new operation needs nothing new in the scene.
/// ``blur(radius:)``, ``material(_:)``, ``progressive(_:)`` and ``glass(_:)`` are the components'
/// own backdrops, made so.
public struct BackdropEffect: Sendable {
    /// The operation and the values given (none for a typed effect).
    public let arguments: OperationArguments
    /// The effect, ready to draw.
    let prepared: PreparedEffect
    /// True when the effect is made from ``arguments``, so that changing one remakes it; false for a typed effect.
    public let isAnimatable: Bool

    /// The effect `arguments` describe.
    /// - Throws: a parameter error when the arguments do not make one, or when the operation does not draw over an image.
    public init(_ arguments: OperationArguments) throws(ParameterError) {
        guard let run = arguments.operation.image else {
            throw .invalidForm(name: arguments.operation.name, text: "", expected: "an operation that draws over an image")
        }
        self.init(arguments: arguments, prepared: try run.prepare(arguments))
    }

    init(arguments: OperationArguments, prepared: PreparedEffect) {
        self.arguments = arguments
        self.prepared = prepared
        self.isAnimatable = true
    }

    /// `operation`'s own typed `effect`, drawn as the operation draws it (its working memory
    /// counted by its estimate).
    public init<Operation: ImageOperation>(_ operation: Operation.Type, _ effect: Operation.Effect) {
        self.init(
            typed: operation,
            PreparedEffect(
                draw: { image, context in try Operation.draw(effect, over: image, in: context) }, keepsOpaque: Operation.keepsOpaque(effect),
                estimatedBytes: Operation.estimatedBytes, stages: nil))
    }

    /// `operation`'s own typed `effect`, its working memory counted by its stages.
    package init<Operation: StreamingImageOperation>(_ operation: Operation.Type, _ effect: Operation.Effect) {
        self.init(
            typed: operation,
            PreparedEffect(
                draw: { image, context in try Operation.draw(effect, over: image, in: context) }, keepsOpaque: Operation.keepsOpaque(effect),
                estimatedBytes: Operation.estimatedBytes,
                stages: { width, height, scale, context in Operation.stages(effect, width: width, height: height, scale: scale, in: context) }))
    }

    private init<Operation: ImageOperation>(typed operation: Operation.Type, _ prepared: PreparedEffect) {
        self.arguments = OperationArguments(operation: BlurOperation(operation), values: [:], spelling: .key)
        self.prepared = prepared
        self.isAnimatable = false
    }

    /// A Gaussian of `radius` points (σ) over the layer's frame, edges clamped to it: the scene
    /// file's `{"blur": R}`. Its radius animates (`GaussianBlurOperation.radius`).
    public static func blur(radius: Double) -> BackdropEffect {
        let operation = BlurOperation(GaussianBlurOperation.self)
        let arguments = OperationArguments(
            operation: operation, values: [GaussianBlurOperation.radius.name: .number(radius)], spelling: .key)
        return (try? BackdropEffect(arguments)) ?? BackdropEffect(GaussianBlurOperation.self, GaussianBlurOperation.Blur(radius: radius))
    }

    /// `material` over the layer's frame, its corners the layer's where it has none of its own.
    /// Its radius and dimming animate (`MaterialOperation.blurEffectRadius`,
    /// `MaterialOperation.dimmingAlpha`); a material a table refuses is drawn as given, leniently, without.
    public static func material(_ material: Material) -> BackdropEffect {
        var values: [String: ParameterValue] = [
            MaterialOperation.dimmingAlpha.name: .number(material.dimmingAlpha), MaterialOperation.cornerRadius.name: .number(material.cornerRadius),
        ]
        if let word = MaterialStyle.spec.word(for: material.style) { values[MaterialOperation.style.name] = .word(word) }
        if let radius = material.blurEffectRadius { values[MaterialOperation.blurEffectRadius.name] = .number(radius) }
        let arguments = OperationArguments(operation: BlurOperation(MaterialOperation.self), values: values, spelling: .key)
        guard let effect = try? BackdropEffect(arguments), (try? MaterialOperation.effect(arguments)) == material else {
            return BackdropEffect(MaterialOperation.self, material)
        }
        return effect
    }

    /// BlurUIKit's progressive blur with its dimming, over the layer's frame.
    public static func progressive(_ effect: VariableBlurEffect) -> BackdropEffect { BackdropEffect(ProgressiveBlurOperation.self, effect) }

    /// Liquid Glass: the shapes of a glass container, their frames in the layer's coordinates
    /// (``Layer/glassEffect(_:in:)``, ``GlassEffectContainer``); the scene's appearance picks the tone.
    public static func glass(_ container: GlassContainer) -> BackdropEffect {
        BackdropEffect(GlassOperation.self, GlassOperation.Prepared(container))
    }

    /// The value of parameter `name`: given, else its default in `appearance`.
    func value(_ name: String, appearance: Appearance) -> ParameterValue? {
        arguments.values[name] ?? arguments.operation.parameter(name)?.defaultValue(for: appearance)
    }

    /// This effect with `values` in place of its own (numbers clamped to their ranges, as an
    /// animation that overshoots draws); itself when the operation refuses them or the effect is typed.
    func with(_ values: [String: ParameterValue]) -> BackdropEffect {
        guard isAnimatable else { return self }
        return (try? checked(values)) ?? self
    }

    /// This effect with `values` in place of its own (numbers clamped to their ranges).
    /// - Throws: the operation's error when it refuses them (a start past the stop, a ramp beside
    ///   a gradient's inset): what a scene reader says of an animation that would end there.
    func checked(_ values: [String: ParameterValue]) throws(ParameterError) -> BackdropEffect {
        var all = arguments.values
        for (name, value) in values {
            if case let .number(v) = value, case let .number(spec)? = arguments.operation.parameter(name)?.kind {
                all[name] = .number(min(max(v, spec.range.lowerBound), spec.range.upperBound))
            } else {
                all[name] = value
            }
        }
        let changed = OperationArguments(operation: arguments.operation, values: all, spelling: arguments.spelling)
        return try BackdropEffect(changed)
    }
}
