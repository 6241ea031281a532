/// One effect as every front end sees it: its name, a line about it, and its parameters.
///
/// The command line's options and `--help`, the HTTP routes and `/openapi.json`, the playground's
/// controls, the scene reader's keys, the WebAssembly module's options and `blurkit.d.ts` are all
/// made from these values; none declares a parameter of its own. Reading a request through
/// ``read(_:as:in:)`` refuses unknown names and a parameter given twice (everywhere: the command
/// line, queries, scene objects and JavaScript options alike).
public struct BlurOperation: Sendable {
    /// The command, the route and the module's function (`blur`, `progressive`).
    public let name: String
    /// One line about it.
    public let summary: String
    /// A paragraph for `blurkit NAME --help`, possibly empty.
    public let details: String
    /// Its parameters, in the order help texts and controls list them.
    public let parameters: [Parameter]
    /// Sets of parameters of which at most one may be given (`sigma` and `radius`), by canonical name.
    public let exclusive: [[String]]
    /// How it draws over an image, for an ``ImageOperation``; nil for the others (animations,
    /// placeholders, scenes), which their own front-end code runs.
    public let image: ImageRun?
    /// Its tables as a JSON object (``OperationDefinition/data``), for a front end that draws it itself.
    public var data: String?
    /// What it takes and what it makes (``OperationDefinition/form``).
    public var form = Form.image

    /// What an operation takes and what it makes: the front ends derive its command's operands,
    /// its route's methods and answers, and its help from this, never from its name.
    public enum Form: String, Sendable, Hashable {
        /// An image in, an image out (`blurkit NAME IN OUT`; a still over HTTP).
        case image
        /// An image in, an animation out (`blurkit NAME IN OUT`; an animation over HTTP).
        case animation
        /// A scene file in, a still or an animation out (`blurkit NAME SCENE.json OUT`; over HTTP a
        /// scene under the root, never a body).
        case scene
        /// Images in, their placeholders out (`blurkit NAME INPUT… --out DIR`; over HTTP the JSON,
        /// or with a format the preview).
        case placeholder
    }

    /// An operation as given.
    public init(name: String, summary: String, details: String = "", parameters: [Parameter], exclusive: [[String]] = [], image: ImageRun? = nil) {
        self.name = name
        self.summary = summary
        self.details = details
        self.parameters = parameters
        self.exclusive = exclusive
        self.image = image
        self.data = nil
        self.form = .image
    }

    /// The operation `definition` declares.
    public init<Definition: OperationDefinition>(_ definition: Definition.Type) {
        self.init(definition, image: nil)
    }

    /// The image operation `definition` declares, with its whole-image run.
    public init<Definition: ImageOperation>(_ definition: Definition.Type) {
        self.init(definition, image: BlurOperation.run(definition, stages: nil))
    }

    /// The image operation `definition` declares, with its whole-image run and its stages.
    package init<Definition: StreamingImageOperation>(_ definition: Definition.Type) {
        self.init(
            definition,
            image: BlurOperation.run(
                definition,
                stages: { effect in
                    { width, height, scale, context in Definition.stages(effect, width: width, height: height, scale: scale, in: context) }
                },
                reduction: Definition.shrinksOnLoad ? BlurOperation.reduction(definition) : nil))
    }

    /// The row operation `definition` declares: its whole-image run and its one stage, which
    /// turns each row as it streams by (so a package of its own streams too).
    public init<Definition: RowImageOperation>(_ definition: Definition.Type) {
        self.init(
            definition,
            image: BlurOperation.run(
                definition,
                stages: { effect in
                    { width, height, scale, context in
                        [
                            RowMapStage(width: width, height: height, context: context) { y, row, context in
                                Definition.transform(effect, row: row, y: y, width: width, height: height, scale: scale, in: context)
                            }
                        ]
                    }
                }))
    }

    /// `definition`'s JPEG reduction for an effect.
    private static func reduction<Definition: StreamingImageOperation>(
        _ definition: Definition.Type
    ) -> @Sendable (Definition.Effect) -> @Sendable (Int, Int) -> Int {
        { effect in { width, height in Definition.reduction(effect, width: width, height: height) } }
    }

    private init<Definition: OperationDefinition>(_ definition: Definition.Type, image: ImageRun?) {
        self.init(
            name: Definition.name, summary: Definition.summary, details: Definition.details, parameters: Definition.parameters,
            exclusive: Definition.exclusive.map { $0.map { $0.name } }, image: image)
        self.data = Definition.data
        self.form = Definition.form
    }

    /// `definition`'s run: its effect from the arguments, drawn whole, and staged by `stages` when given.
    private static func run<Definition: ImageOperation>(
        _ definition: Definition.Type,
        stages: (@Sendable (Definition.Effect) -> @Sendable (Int, Int, Double, EffectContext) -> [any RowStage])?,
        reduction: (@Sendable (Definition.Effect) -> @Sendable (Int, Int) -> Int)? = nil
    ) -> ImageRun {
        ImageRun { (arguments: OperationArguments) throws(ParameterError) -> PreparedEffect in
            let effect = try Definition.effect(arguments)
            return PreparedEffect(
                draw: { image, context in try Definition.draw(effect, over: image, in: context) }, keepsOpaque: Definition.keepsOpaque(effect),
                estimatedBytes: Definition.estimatedBytes, stages: stages.map { $0(effect) }, reduction: reduction.map { $0(effect) })
        }
    }

    /// The command's and the route's name: ``name`` in kebab-case (`scrollEdge` → `scroll-edge`).
    public var flag: String { kebabCase(name) }

    /// The operation as `spelling`'s front end names it: ``flag`` on the command line and HTTP, ``name`` in keys.
    public func spelled(_ spelling: Parameter.Spelling) -> String { spelling == .key ? name : flag }

    /// This operation with `more` parameters after its own (the output options of a front end that writes files).
    public func adding(_ more: [Parameter]) -> BlurOperation {
        var added = BlurOperation(name: name, summary: summary, details: details, parameters: parameters + more, exclusive: exclusive, image: image)
        added.data = data
        added.form = form
        return added
    }

    /// The parameter whose canonical name is `name`.
    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name.sameBytes(as: name) } }

    /// The first parameter with `role`, if the operation declares one.
    public func parameter(role: Parameter.Role) -> Parameter? { parameters.first { $0.role == role } }

    /// The parameters `frontEnds` takes.
    public func parameters(in frontEnds: Parameter.FrontEnds) -> [Parameter] {
        parameters.filter { !$0.frontEnds.isDisjoint(with: frontEnds) }
    }

    /// The parameter `spelling` calls `word` (`--max-radius`, `max-radius`, `maximumBlurRadius`),
    /// among those `frontEnds` takes.
    public func parameter(spelled word: String, as spelling: Parameter.Spelling, in frontEnds: Parameter.FrontEnds) -> Parameter? {
        parameters(in: frontEnds).first { $0.spelled(spelling).sameBytes(as: word) }
    }

    /// Name–value pairs as a front end received them, read and checked: every name known to
    /// `frontEnds`, none twice, none of an exclusive set beside another, every value parsed by its
    /// kind. Errors name the parameter as `spelling` writes it.
    @_optimize(size)
    public func read(
        _ pairs: [(name: String, value: String)], as spelling: Parameter.Spelling, in frontEnds: Parameter.FrontEnds
    ) throws(ParameterError)
        -> OperationArguments
    {
        var arguments = OperationArguments(operation: self, pairs: [], spelling: spelling)
        for (word, text) in pairs {
            guard let parameter = parameter(spelled: word, as: spelling, in: frontEnds) else {
                throw .unknown(name: word, operation: spelled(spelling), known: parameters(in: frontEnds).map { $0.spelled(spelling) })
            }
            guard !arguments.has(named: parameter.name) else { throw .repeated(name: word) }
            arguments.pairs.append((parameter.name, try parameter.parse(text, as: spelling)))
        }
        for set in exclusive {
            let given = set.filter { arguments.has(named: $0) }
            if given.count > 1 {
                throw .conflict(names: given.compactMap { self.parameter($0)?.spelled(spelling) })
            }
        }
        return arguments
    }
}

/// An operation's parameters once read and checked: each by its canonical name, with the defaults
/// of the table for those left out.
public struct OperationArguments: Sendable {
    /// The operation they are for.
    public let operation: BlurOperation
    /// The values given, by canonical name, in the order given (a list, not a dictionary: a
    /// dictionary hashes its String keys through Unicode's tables, see `String.sameBytes(as:)`).
    public internal(set) var pairs: [(name: String, value: ParameterValue)]
    /// How the front end that gave them spells names, for the messages of later checks.
    public let spelling: Parameter.Spelling

    /// The values given, by canonical name.
    public var values: [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for (name, value) in pairs { values[name] = value }
        return values
    }

    /// Values already checked.
    public init(operation: BlurOperation, values: [String: ParameterValue], spelling: Parameter.Spelling) {
        self.init(operation: operation, pairs: values.map { ($0.key, $0.value) }, spelling: spelling)
    }

    init(operation: BlurOperation, pairs: [(name: String, value: ParameterValue)], spelling: Parameter.Spelling) {
        self.operation = operation
        self.pairs = pairs
        self.spelling = spelling
    }

    /// The value given for `name`, nil when it was not given (the generic front ends' lookup).
    func given(_ name: String) -> ParameterValue? { pairs.first { $0.name.sameBytes(as: name) }?.value }

    /// True when the parameter called `name` was given (the generic front ends' lookup).
    package func has(named name: String) -> Bool { given(name) != nil }

    /// The value given for `name`, else its default (for `appearance` when it has one per appearance).
    @inline(never)
    func value(_ name: String, appearance: Appearance = .light) -> ParameterValue? {
        given(name) ?? operation.parameter(name)?.defaultValue(for: appearance)
    }

    /// `name` as the front end spells it.
    func spelled(_ name: String) -> String { operation.parameter(name)?.spelled(spelling) ?? name }

    /// The value given for `p`, nil when it was not given.
    @inline(never)
    public func given<V>(_ p: OperationParameter<V>) -> V? { given(p.name).flatMap(p.read) }

    /// The value given for `p`, nil when it was not given (its default left out).
    @inline(never)
    public func given<V>(_ p: DefaultedParameter<V>) -> V? { given(p.name).flatMap(p.read) }

    /// True when `p` was given.
    @inline(never)
    public func has<V>(_ p: OperationParameter<V>) -> Bool { given(p.name) != nil }

    /// True when `p` was given.
    @inline(never)
    public func has<V>(_ p: DefaultedParameter<V>) -> Bool { given(p.name) != nil }

    /// The value given for `p`, else its default (for `appearance` when it has one per appearance).
    @inline(never)
    public subscript<V>(_ p: DefaultedParameter<V>, appearance appearance: Appearance = .light) -> V {
        given(p) ?? p.defaultValue(for: appearance)
    }

    /// `p` as the front end that gave the arguments spells it (`--max-radius`, `max-radius`,
    /// `maximumBlurRadius`), for messages.
    public func spelled<V>(_ p: OperationParameter<V>) -> String { p.parameter.spelled(spelling) }

    /// `p` as the front end that gave the arguments spells it, for messages.
    public func spelled<V>(_ p: DefaultedParameter<V>) -> String { p.parameter.spelled(spelling) }

    /// The value given for `p`, for a caller that needs one: else an error naming it.
    public func required<V>(_ p: OperationParameter<V>) throws(ParameterError) -> V {
        guard let v = given(p) else { throw .missing(names: [spelled(p)], operation: operation.spelled(spelling)) }
        return v
    }

    /// The pixels per point the operation's ``Parameter/Role/pointScale`` parameter gives (or
    /// defaults to); 1 when it declares none.
    public var pointScale: Double {
        guard let p = operation.parameter(role: .pointScale), case let .number(k)? = value(p.name) else { return Bitmap.scaleSpec.defaultValue! }
        return k
    }

    /// The appearance the operation's ``Parameter/Role/appearance`` parameter gives (or defaults
    /// to); the default appearance when it declares none.
    public var appearance: Appearance {
        guard let p = operation.parameter(role: .appearance), case let .word(w)? = value(p.name), let a = try? Appearance.spec.parse(w) else {
            return Appearance.spec.defaultValue!
        }
        return a
    }

    /// The operation's region (its parameter of kind region) as a frame in an image of
    /// `width × height` pixels at `scale` pixels per point, or the whole image when it was not
    /// given or the operation has none (``frame(_:width:height:scale:)``).
    public func frame(width: Int, height: Int, scale: Double) throws(ParameterError) -> Rect {
        guard let p = operation.parameters.first(where: { if case .region = $0.kind { true } else { false } }) else {
            return Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        }
        return try frame(OperationParameter(p) { if case let .region(r) = $0 { r } else { nil } }, width: width, height: height, scale: scale)
    }

    /// The region `p` as a frame in an image of `width × height` pixels at `scale` pixels per
    /// point, or the whole image when it was not given.
    /// - Throws: ``ParameterError/invalidForm(name:text:expected:)`` naming the parameter when the
    ///   region lies wholly outside the image or covers less than a pixel of it.
    public func frame(_ p: OperationParameter<Rect>, width: Int, height: Int, scale: Double) throws(ParameterError) -> Rect {
        let whole = Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        guard let region = given(p) else { return whole }
        guard region.pixelRect(scale: scale, clippedTo: width, height) != nil else {
            let inside = region.x < whole.width && region.y < whole.height && region.x + region.width > 0 && region.y + region.height > 0
            let why = inside ? "this one covers less than a pixel of it" : "this one lies outside it"
            throw .invalidForm(
                name: spelled(p), text: ParameterValue.region(region).text,
                expected:
                    "a region that overlaps the \(formatNumber(whole.width))×\(formatNumber(whole.height))-pt image by a pixel at least (\(why))")
        }
        return region
    }
}

/// How an image operation runs, its type erased: from checked arguments to a prepared effect.
public struct ImageRun: Sendable {
    private let build: @Sendable (OperationArguments) throws(ParameterError) -> PreparedEffect

    /// A run from its preparation.
    public init(_ build: @escaping @Sendable (OperationArguments) throws(ParameterError) -> PreparedEffect) { self.build = build }

    /// The effect `arguments` describe, checked and ready to draw.
    public func prepare(_ arguments: OperationArguments) throws(ParameterError) -> PreparedEffect { try build(arguments) }
}

/// An effect built from checked arguments, ready to draw over images.
public struct PreparedEffect: Sendable {
    /// `image` with the effect drawn over the context's frame.
    public let draw: @Sendable (Bitmap, EffectContext) throws -> Bitmap
    /// Whether an opaque image stays opaque.
    public let keepsOpaque: Bool
    /// Bytes a draw over `width × height` pixels needs besides the image.
    public let estimatedBytes: @Sendable (Int, Int) -> Int
    /// The streaming stages for `width × height` at `scale`, when the operation has them.
    package let stages: (@Sendable (Int, Int, Double, EffectContext) -> [any RowStage])?
    /// The JPEG DCT reduction (1, 2, 4 or 8) a source of `width × height` may be decoded at
    /// (shrink-on-load; `EffectContext/sourceSize` then says the image's own size).
    package let reduction: (@Sendable (Int, Int) -> Int)?
    /// For an effect drawn after a resize: from the image's own size, the size and scale its
    /// region is measured in (the resized image's); nil: the image's own, at the `scale` given.
    package let measure: (@Sendable (Int, Int) -> (width: Int, height: Int, scale: Double))?

    /// The context the effect is drawn in over a `width × height` image decoded from one of
    /// `sourceSize` (nil: the same) — the `region` (measured in the resized image when the effect
    /// resizes first) and the `appearance` of `arguments` — and the scale its image is at.
    /// - Throws: when the region lies outside the image it is drawn over.
    package func context(
        _ arguments: OperationArguments, width: Int, height: Int, sourceSize: (width: Int, height: Int)? = nil, threads: Int? = nil
    ) throws(ParameterError) -> (context: EffectContext, scale: Double) {
        let own = sourceSize ?? (width, height)
        let measured: (width: Int, height: Int, scale: Double) =
            measure?(own.width, own.height) ?? (width, height, arguments.pointScale)
        var context = try BlurOperation.context(arguments, width: measured.width, height: measured.height, scale: measured.scale, threads: threads)
        context.sourceSize = sourceSize
        return (context, measured.scale)
    }

    /// Bytes a draw over `width × height` pixels at `scale` in `context` holds besides the image:
    /// its stages' rows, plans and output (what the streaming chain counts) when it has stages,
    /// else ``estimatedBytes`` — what a caller that draws it over an image in memory (a scene's
    /// backdrop) counts against its share of the budget.
    package func workingBytes(width: Int, height: Int, scale: Double, context: EffectContext) -> Int {
        guard let stages, !KernelSwitch.useReference else { return estimatedBytes(width, height) }
        return StreamingDefaults.workingBytes(of: stages(width, height, scale, context))
    }

    package init(
        draw: @escaping @Sendable (Bitmap, EffectContext) throws -> Bitmap, keepsOpaque: Bool, estimatedBytes: @escaping @Sendable (Int, Int) -> Int,
        stages: (@Sendable (Int, Int, Double, EffectContext) -> [any RowStage])?, reduction: (@Sendable (Int, Int) -> Int)? = nil,
        measure: (@Sendable (Int, Int) -> (width: Int, height: Int, scale: Double))? = nil
    ) {
        self.draw = draw
        self.keepsOpaque = keepsOpaque
        self.estimatedBytes = estimatedBytes
        self.stages = stages
        self.reduction = reduction
        self.measure = measure
    }
}
