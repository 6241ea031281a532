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
    /// Its parameters, in the order help texts and controls list them.
    public let parameters: [Parameter]
    /// Sets of parameters of which at most one may be given (`sigma` and `radius`).
    public let exclusive: [[String]]

    /// An operation as given.
    public init(name: String, summary: String, parameters: [Parameter], exclusive: [[String]] = []) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.exclusive = exclusive
    }

    /// This operation with `more` parameters after its own (the output options of a front end that writes files).
    public func adding(_ more: [Parameter]) -> BlurOperation {
        BlurOperation(name: name, summary: summary, parameters: parameters + more, exclusive: exclusive)
    }

    /// The parameter whose canonical name is `name`.
    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name.sameBytes(as: name) } }

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
    public func read(
        _ pairs: [(name: String, value: String)], as spelling: Parameter.Spelling, in frontEnds: Parameter.FrontEnds
    ) throws(ParameterError)
        -> OperationArguments
    {
        var arguments = OperationArguments(operation: self, pairs: [], spelling: spelling)
        for (word, text) in pairs {
            guard let parameter = parameter(spelled: word, as: spelling, in: frontEnds) else {
                throw .unknown(name: word, operation: name, known: parameters(in: frontEnds).map { $0.spelled(spelling) })
            }
            guard !arguments.has(parameter.name) else { throw .repeated(name: word) }
            arguments.pairs.append((parameter.name, try parameter.parse(text, as: spelling)))
        }
        for set in exclusive {
            let given = set.filter { arguments.has($0) }
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

    /// The value given for `name`, nil when it was not given.
    func given(_ name: String) -> ParameterValue? { pairs.first { $0.name.sameBytes(as: name) }?.value }

    /// True when `name` was given.
    public func has(_ name: String) -> Bool { given(name) != nil }

    /// The value given for `name`, else its default (for `appearance` when it has one per appearance).
    public func value(_ name: String, appearance: Appearance = .light) -> ParameterValue? {
        given(name) ?? operation.parameter(name)?.defaultValue(for: appearance)
    }

    /// `name` as the front end spells it.
    public func spelled(_ name: String) -> String { operation.parameter(name)?.spelled(spelling) ?? name }

    /// A number parameter's value or default; nil when absent without a default.
    public func number(_ name: String, appearance: Appearance = .light) -> Double? {
        guard case let .number(v)? = value(name, appearance: appearance) else { return nil }
        return v
    }

    /// A number parameter's value or default, for a caller that needs one: the table's default
    /// where the parameter has one, else an error naming it (arguments of another operation).
    public func requiredNumber(_ name: String) throws(ParameterError) -> Double {
        guard let v = number(name) else { throw .missing(names: [spelled(name)], operation: operation.name) }
        return v
    }

    /// A whole-number parameter's value or default.
    public func integer(_ name: String) -> Int? { number(name).map { Int($0) } }

    /// A choice parameter's value or default, as `spec`'s value.
    public func choice<T>(_ name: String, _ spec: ChoiceSpec<T>) -> T? {
        guard case let .word(w)? = value(name) else { return nil }
        return try? spec.parse(w)
    }

    /// A colour parameter's value or default; nil when absent without one.
    public func tint(_ name: String) -> ParameterValue.Tint? {
        guard case let .color(t)? = value(name) else { return nil }
        return t
    }

    /// A region parameter's value; nil when absent.
    public func region(_ name: String) -> Rect? {
        guard case let .region(r)? = value(name) else { return nil }
        return r
    }

    /// A length parameter's value or default: `.some(nil)` is `none`, nil absent without a default.
    public func length(_ name: String) -> GradientSizing?? {
        guard case let .length(l)? = value(name) else { return nil }
        return .some(l)
    }

    /// A size parameter's value; nil when absent.
    public func size(_ name: String) -> (width: Double, height: Double)? {
        guard case let .size(w, h)? = value(name) else { return nil }
        return (w, h)
    }

    /// A flag's state (false when absent).
    public func flag(_ name: String) -> Bool {
        guard case let .flag(on)? = value(name) else { return false }
        return on
    }

    /// The region `name` as a frame in an image of `width × height` pixels at `scale` pixels per
    /// point, or the whole image when it was not given.
    /// - Throws: ``ParameterError/invalidForm(name:text:expected:)`` naming the parameter when the
    ///   region lies wholly outside the image or covers less than a pixel of it.
    public func frame(_ name: String, width: Int, height: Int, scale: Double) throws(ParameterError) -> Rect {
        let whole = Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        guard let region = region(name) else { return whole }
        guard region.pixelRect(scale: scale, clippedTo: width, height) != nil else {
            throw .invalidForm(
                name: spelled(name), text: ParameterValue.region(region).text,
                expected:
                    "a region that overlaps the \(formatNumber(whole.width))×\(formatNumber(whole.height))-pt image by a pixel at least (this one lies outside it)"
            )
        }
        return region
    }
}
