/// A parameter of an operation together with the type of its value, absent unless given: how an
/// operation declares a parameter without a default (a region, σ where a radius may stand in) and
/// how its run reads it back (`arguments.given(Self.region)` is a `Rect?`), so that no code outside
/// the generic front ends names a parameter by a string. A parameter with a default is a
/// ``DefaultedParameter``, whose value is never optional.
///
/// The ``parameter`` is the untyped description every front end reads (flag, query name, scene key,
/// kind, range, default, help); ``read(_:)`` turns a checked ``ParameterValue`` of its kind into
/// the value.
public struct OperationParameter<Value>: Sendable {
    /// The description the front ends read.
    public let parameter: Parameter
    private let convert: @Sendable (ParameterValue) -> Value?

    // The constructors here, Parameter's and the specs' are not inlined: every parameter is a
    // `static let`, and inlined they were copied into each one-time initialiser (Notes/wasm-size.md).

    /// A parameter and how a checked value of its kind becomes `Value`.
    @inline(never)
    public init(_ parameter: Parameter, read convert: @escaping @Sendable (ParameterValue) -> Value?) {
        self.parameter = parameter
        self.convert = convert
    }

    /// The canonical name (the JavaScript option and scene key).
    public var name: String { parameter.name }

    /// `value` as this parameter's type; nil when it is of another kind.
    public func read(_ value: ParameterValue) -> Value? { convert(value) }

    /// This parameter with `role` (``Parameter/role``).
    @inline(never)
    public func with(role: Parameter.Role) -> OperationParameter { OperationParameter(parameter.with(role: role), read: convert) }

    /// This parameter with a control's starting value (``Parameter/suggested``).
    @inline(never)
    public func suggesting(_ value: ParameterValue) -> OperationParameter {
        OperationParameter(parameter.suggesting(value), read: convert)
    }

    /// This parameter, which has a default in its table, typed as having one.
    /// - Precondition: the table's default reads as `Value` in both appearances (a declaration
    ///   that breaks this traps when the registry is first read: every test that lists it does).
    @inline(never)
    public func defaulted() -> DefaultedParameter<Value> { DefaultedParameter(parameter, read: convert) }
}

/// A parameter whose table gives it a default, together with the type of its value:
/// `arguments[Self.maximumBlurRadius]` is a `Double`, the value given or the default, so that an
/// effect's body never repeats a default (``OperationArguments/subscript(_:appearance:)``).
public struct DefaultedParameter<Value>: Sendable {
    /// The description the front ends read.
    public let parameter: Parameter
    private let convert: @Sendable (ParameterValue) -> Value?
    /// The default in light and in dark appearance (the same unless the table has one per
    /// appearance), each checked to read as `Value`.
    private let light: ParameterValue, dark: ParameterValue

    /// A parameter and how a checked value of its kind becomes `Value`.
    /// - Precondition: `parameter`'s default reads as `Value` in both appearances.
    @inline(never)
    public init(_ parameter: Parameter, read convert: @escaping @Sendable (ParameterValue) -> Value?) {
        self.parameter = parameter
        self.convert = convert
        (light, dark) = DefaultedParameter<Never>.defaults(of: parameter) { convert($0) != nil }
    }

    /// `parameter`'s default in light and in dark appearance, each of which `reads`.
    /// - Precondition: it has them (one function for every `Value`: the WebAssembly module holds it once).
    @inline(never)
    static func defaults(of parameter: Parameter, reads: (ParameterValue) -> Bool) -> (ParameterValue, ParameterValue) {
        let values: (ParameterValue, ParameterValue)?
        switch parameter.defaultValue {
        case let .value(v): values = (v, v)
        case let .perAppearance(light, dark): values = (light, dark)
        case .absent: values = nil
        }
        guard let values, reads(values.0), reads(values.1) else {
            preconditionFailure("a parameter is declared with a default its table does not give")
        }
        return values
    }

    /// The canonical name (the JavaScript option and scene key).
    public var name: String { parameter.name }

    /// `value` as this parameter's type; nil when it is of another kind.
    public func read(_ value: ParameterValue) -> Value? { convert(value) }

    /// The default in `appearance`.
    public func defaultValue(for appearance: Appearance = .light) -> Value {
        // Both read when the parameter was declared.
        convert(appearance == .dark ? dark : light)!
    }

    /// This parameter with `role` (``Parameter/role``).
    @inline(never)
    public func with(role: Parameter.Role) -> DefaultedParameter { DefaultedParameter(parameter.with(role: role), read: convert) }

    /// This parameter, meaningful beside `other` only (``Parameter/goesWith``).
    @inline(never)
    public func going(with other: Parameter) -> DefaultedParameter {
        DefaultedParameter(parameter.going(with: other), read: convert)
    }
}

extension OperationParameter where Value == Double {
    /// A number parameter with a default, from its spec: range, unit, summary and default come
    /// from it (or from `default`, e.g. one value per appearance).
    @inline(never)
    public static func number(
        _ name: String, flag: String? = nil, _ spec: ParameterSpec, default defaultValue: Parameter.Default? = nil, placeholder: String,
        in frontEnds: Parameter.FrontEnds = .all
    ) -> DefaultedParameter<Double> {
        DefaultedParameter(Parameter(name, flag: flag, number: spec, default: defaultValue, placeholder: placeholder, in: frontEnds)) {
            if case let .number(v) = $0 { v } else { nil }
        }
    }

    /// A number parameter absent unless given, from its spec (range, unit and summary); `absent`
    /// says in words what leaving it out means (nil: it is required, or another stands in).
    @inline(never)
    public static func optionalNumber(
        _ name: String, flag: String? = nil, _ spec: ParameterSpec, absent: String?, placeholder: String, in frontEnds: Parameter.FrontEnds = .all
    ) -> OperationParameter<Double> {
        OperationParameter(Parameter(name, flag: flag, number: spec, default: .absent(absent), placeholder: placeholder, in: frontEnds)) {
            if case let .number(v) = $0 { v } else { nil }
        }
    }
}

extension OperationParameter where Value == Int {
    /// A whole-number parameter from its spec (an integer spec with a default).
    @inline(never)
    public static func integer(
        _ name: String, flag: String? = nil, _ spec: ParameterSpec, placeholder: String, in frontEnds: Parameter.FrontEnds = .all
    ) -> DefaultedParameter<Int> {
        DefaultedParameter(Parameter(name, flag: flag, number: spec, placeholder: placeholder, in: frontEnds)) {
            if case let .number(v) = $0 { Int(v) } else { nil }
        }
    }
}

extension OperationParameter where Value: Sendable & Equatable {
    /// A choice parameter from its spec: the words, aliases, summary and default come from it, and
    /// the value read is the spec's.
    @inline(never)
    public static func choice(
        _ name: String, flag: String? = nil, _ spec: ChoiceSpec<Value>, placeholder: String, in frontEnds: Parameter.FrontEnds = .all
    ) -> DefaultedParameter<Value> {
        DefaultedParameter(Parameter(name, flag: flag, choice: spec, placeholder: placeholder, in: frontEnds)) {
            if case let .word(w) = $0 { try? spec.parse(w) } else { nil }
        }
    }
}

extension OperationParameter where Value == ParameterValue.Tint {
    /// A colour parameter (``Parameter/Kind/color``) with its default (`.none` for none).
    @inline(never)
    public static func color(
        _ name: String, flag: String? = nil, default defaultValue: ParameterValue.Tint, summary: String, placeholder: String,
        in frontEnds: Parameter.FrontEnds = .all
    ) -> DefaultedParameter<ParameterValue.Tint> {
        DefaultedParameter(
            Parameter(
                name, flag: flag, kind: .color, default: .value(.color(defaultValue)), summary: summary, placeholder: placeholder, in: frontEnds)
        ) { if case let .color(t) = $0 { t } else { nil } }
    }
}

extension OperationParameter where Value == Rect {
    /// A region in points (`X,Y,W,H`), absent meaning `absent` in words.
    @inline(never)
    public static func region(
        _ name: String, absent: String, summary: String, placeholder: String = "X,Y,W,H", in frontEnds: Parameter.FrontEnds = .all
    ) -> OperationParameter {
        OperationParameter(
            Parameter(name, kind: .region, default: .absent(absent), summary: summary, placeholder: placeholder, in: frontEnds)
        ) { if case let .region(r) = $0 { r } else { nil } }
    }
}

extension OperationParameter where Value == GradientSizing? {
    /// A length: points or a percentage of the view (`none` too when `allowsNone`).
    @inline(never)
    public static func length(
        _ name: String, flag: String? = nil, fractions: ParameterSpec, allowsNone: Bool, default defaultValue: GradientSizing?, summary: String,
        placeholder: String, in frontEnds: Parameter.FrontEnds = .all
    ) -> DefaultedParameter<GradientSizing?> {
        DefaultedParameter(
            Parameter(
                name, flag: flag, kind: .length(fractions: fractions, allowsNone: allowsNone), default: .value(.length(defaultValue)),
                summary: summary, placeholder: placeholder, in: frontEnds)
        ) { if case let .length(l) = $0 { .some(l) } else { nil } }
    }
}

extension OperationParameter where Value == ParameterValue.Dimensions {
    /// A `WxH` size, each side inside `spec`, absent meaning `absent` in words.
    @inline(never)
    public static func size(
        _ name: String, flag: String? = nil, _ spec: ParameterSpec, absent: String, summary: String, placeholder: String = "WxH",
        in frontEnds: Parameter.FrontEnds = .all
    ) -> OperationParameter {
        OperationParameter(
            Parameter(name, flag: flag, kind: .size(spec), default: .absent(absent), summary: summary, placeholder: placeholder, in: frontEnds)
        ) { if case let .size(w, h) = $0 { ParameterValue.Dimensions(width: w, height: h) } else { nil } }
    }
}

extension OperationParameter where Value == Bool {
    /// A flag: off unless given.
    @inline(never)
    public static func flag(
        _ name: String, flag: String? = nil, summary: String, in frontEnds: Parameter.FrontEnds = .all
    )
        -> DefaultedParameter<Bool>
    {
        DefaultedParameter(
            Parameter(name, flag: flag, kind: .flag, default: .value(.flag(false)), summary: summary, placeholder: "", in: frontEnds)
        ) { if case let .flag(on) = $0 { on } else { nil } }
    }
}

extension OperationParameter where Value == [Double] {
    /// Numbers separated by commas, each inside `spec`, one to `most` of them; absent meaning `absent` in words.
    @inline(never)
    public static func list(
        _ name: String, flag: String? = nil, _ spec: ParameterSpec, most: Int, absent: String, summary: String, placeholder: String,
        in frontEnds: Parameter.FrontEnds = .all
    ) -> OperationParameter {
        OperationParameter(
            Parameter(
                name, flag: flag, kind: .list(spec, most: most), default: .absent(absent), summary: summary, placeholder: placeholder, in: frontEnds)
        ) { if case let .list(values) = $0 { values } else { nil } }
    }
}
