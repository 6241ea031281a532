/// An effect with a resize before it: ``ResizeOperation``'s parameters on every effect, so that one
/// command, one request or one call resizes an image and draws the effect over the result.
///
/// Given none of the resize's parameters, the operation is the effect alone, byte for byte. Given
/// any, the image is resized first (shrink-on-load included) and the effect drawn over the resized
/// image: its `region` is in the resized image's points, and with a `dpr` other than 1 its `scale`,
/// when not given, is the dpr (a radius in CSS pixels keeps its look at any density). A resize
/// parameter whose name the effect already uses (`scroll-edge`'s `height`) is spelled with
/// `resize` before it (`--resize-height`, `resize-height`, `resizeHeight`).
extension BlurOperation {
    /// `effect` taking ``ResizeOperation``'s parameters after its own, resizing first when any is given.
    public static func resizingFirst(_ effect: BlurOperation) -> BlurOperation {
        guard let effectRun = effect.image else { return effect }
        // Compared byte for byte (a Set of Strings would hash through Unicode's tables, which the
        // WebAssembly module does not carry).
        let taken = effect.parameters.flatMap { [$0.name, $0.flag] }
        // Each resize parameter as the composite spells it, beside its own canonical name.
        let resizing: [(own: String, parameter: Parameter)] = ResizeOperation.parameters.map { p in
            let clashes = taken.contains { $0.sameBytes(as: p.name) || $0.sameBytes(as: p.flag) }
            let spelled = clashes ? p.prefixed("resize") : p
            return (p.name, spelled.summarised("resize first: " + p.summary))
        }
        let composite = BlurOperation(
            name: effect.name, summary: effect.summary, details: effect.details, parameters: effect.parameters + resizing.map { $0.parameter },
            exclusive: effect.exclusive, image: nil)
        let run = ImageRun { (arguments: OperationArguments) throws(ParameterError) -> PreparedEffect in
            var effectPairs: [(name: String, value: ParameterValue)] = [], resizePairs: [(name: String, value: ParameterValue)] = []
            for pair in arguments.pairs {
                if let own = resizing.first(where: { $0.parameter.name.sameBytes(as: pair.name) })?.own {
                    resizePairs.append((own, pair.value))
                } else {
                    effectPairs.append(pair)
                }
            }
            let effectArguments = OperationArguments(operation: composite, pairs: effectPairs, spelling: arguments.spelling)
            guard !resizePairs.isEmpty else { return try effectRun.prepare(effectArguments) }
            // A fit, gravity, dpr or enlarge without a size: named as this operation spells them.
            let sides = resizing.filter { $0.own.sameBytes(as: ResizeOperation.width.name) || $0.own.sameBytes(as: ResizeOperation.height.name) }
            if !resizePairs.contains(where: { pair in sides.contains { $0.own.sameBytes(as: pair.name) } }) {
                let given = resizing.first { $0.own.sameBytes(as: resizePairs[0].name) }?.parameter.spelled(arguments.spelling) ?? resizePairs[0].name
                throw .missing(
                    names: sides.map { $0.parameter.spelled(arguments.spelling) }, operation: effect.spelled(arguments.spelling) + " " + given)
            }
            let resizeArguments = OperationArguments(operation: resized, pairs: resizePairs, spelling: arguments.spelling)
            let resize = try ResizeOperation.effect(resizeArguments)
            guard let resizeRun = resized.image else { return try effectRun.prepare(effectArguments) }
            return try resizeFirst(
                resize, try resizeRun.prepare(resizeArguments), then: effectRun, effectArguments, scaleFor: effect.parameter(role: .pointScale)
            )
        }
        var first = BlurOperation(
            name: effect.name, summary: effect.summary, details: effect.details, parameters: composite.parameters, exclusive: effect.exclusive,
            image: run)
        first.data = effect.data
        first.form = effect.form
        return first
    }

    /// `resize` as an operation (its own parameter names).
    private static let resized = BlurOperation(ResizeOperation.self)

    /// The resize's prepared run, then the effect's over its output. `scale`: the effect's `scale`
    /// parameter, which takes the dpr when not given (and when what it goes with is given).
    private static func resizeFirst(
        _ resize: Resize, _ first: PreparedEffect, then effectRun: ImageRun, _ effectArguments: OperationArguments, scaleFor scale: Parameter?
    ) throws(ParameterError) -> PreparedEffect {
        var arguments = effectArguments
        if let scale, resize.dpr != 1, !arguments.has(named: scale.name), scale.goesWith.map({ arguments.has(named: $0) }) ?? true {
            arguments.pairs.append((scale.name, .number(resize.dpr)))
        }
        let second = try effectRun.prepare(arguments)
        let effectScale = arguments.pointScale
        let output = { @Sendable (width: Int, height: Int) -> (width: Int, height: Int) in
            let plan = resize.plan(sourceWidth: width, sourceHeight: height)
            return (plan.width, plan.height)
        }
        // The effect's region is measured in the resized image, at the effect's scale.
        let measure = { @Sendable (width: Int, height: Int) -> (width: Int, height: Int, scale: Double) in
            let (w, h) = output(width, height)
            return (w, h, effectScale)
        }
        return PreparedEffect(
            draw: { image, context in
                var effectContext = context
                effectContext.sourceSize = nil
                var resized = try first.draw(image, context)
                resized.scale = effectScale
                return try second.draw(resized, effectContext)
            },
            keepsOpaque: first.keepsOpaque && second.keepsOpaque,
            estimatedBytes: { width, height in
                let (w, h) = output(width, height)
                return first.estimatedBytes(width, height) + second.estimatedBytes(w, h)
            },
            stages: { width, height, scale, context in
                let resizing = first.stages?(width, height, scale, context) ?? []
                var effectContext = context
                effectContext.sourceSize = nil
                let (w, h) = resizing.last.map { ($0.width, $0.height) } ?? (width, height)
                if let stages = second.stages { return resizing + stages(w, h, effectScale, effectContext) }
                return resizing + [
                    WholeImageStage(width: w, height: h, scale: effectScale, workingBytes: second.estimatedBytes(w, h)) { image, checkpoint in
                        var checked = effectContext
                        checked.checkpoint = checkpoint
                        return try second.draw(image, checked)
                    }
                ]
            },
            reduction: first.reduction, measure: measure)
    }
}

extension Parameter {
    /// This parameter named `prefix` + its name (`resizeHeight`, flag `resize-height`).
    @inline(never)
    func prefixed(_ prefix: String) -> Parameter {
        var first = Array(name.utf8)
        if let c = first.first, c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") { first[0] = c - 32 }
        return renamed(prefix + String(decoding: first, as: UTF8.self), flag: prefix + "-" + flag)
    }

    /// This parameter under another name and flag.
    @inline(never)
    func renamed(_ name: String, flag: String) -> Parameter {
        var copy = Parameter(name, flag: flag, kind: kind, default: defaultValue, summary: summary, placeholder: placeholder, in: frontEnds)
        copy.suggested = suggested
        copy.goesWith = goesWith
        copy.resizes = resizes
        return copy
    }

    /// This parameter with another summary.
    @inline(never)
    func summarised(_ summary: String) -> Parameter {
        var copy = Parameter(name, flag: flag, kind: kind, default: defaultValue, summary: summary, placeholder: placeholder, in: frontEnds)
        copy.suggested = suggested
        copy.goesWith = goesWith
        copy.resizes = resizes
        return copy
    }
}
