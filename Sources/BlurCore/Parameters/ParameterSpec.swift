/// One numeric parameter of an effect: its name, unit, allowed range and default.
///
/// Declared once, beside the property it governs, and used everywhere the parameter is read: the
/// library's `validated()` and the registry's parameters (``Parameter``), which every front end
/// reads, so none of them can drift apart. `validate` rejects NaN, ±∞ and values outside
/// `range` with an error that names the parameter, the range and the value.
public struct ParameterSpec: Sendable, Hashable {
    /// The parameter's name as the command line spells it (`sigma`, `max-radius`).
    public let name: String
    /// The unit the value is in (`px`, `pt`, `px/pt`, `s`, or empty for a plain number).
    public let unit: String
    /// The allowed closed range.
    public let range: ClosedRange<Double>
    /// The default, or nil when the parameter has none (must be given, or depends on others).
    public let defaultValue: Double?
    /// True when only whole numbers are allowed.
    public let isInteger: Bool
    /// One line for help texts.
    public let summary: String

    /// A spec as given; `integer: true` allows whole numbers only (default false).
    @inline(never)
    public init(name: String, unit: String, range: ClosedRange<Double>, defaultValue: Double?, integer: Bool = false, summary: String) {
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
        self.isInteger = integer
        self.summary = summary
    }

    /// This spec under another name (a scene key or an option that means the same quantity).
    @inline(never)
    public func named(_ name: String, summary: String? = nil, defaultValue: Double? = nil) -> ParameterSpec {
        ParameterSpec(
            name: name, unit: unit, range: range, defaultValue: defaultValue ?? self.defaultValue, integer: isInteger,
            summary: summary ?? self.summary)
    }

    /// The value, if it is finite, inside ``range`` and (for an integer spec) whole.
    public func validate(_ value: Double) throws(ParameterError) -> Double {
        guard value.isFinite else { throw .notFinite(name: name, value: value) }
        guard range.contains(value) else { throw .outOfRange(name: name, value: value, range: range, unit: unit) }
        guard !isInteger || value == value.rounded() else { throw .notWhole(name: name, value: value) }
        return value
    }

    /// `text` read as a decimal number (`12`, `-0.5`, `1e3`; not hex, `inf` or `nan`) and validated.
    public func parse(_ text: String) throws(ParameterError) -> Double {
        guard let value = parseDecimal(text) else { throw .notANumber(name: name, text: text, integer: isInteger) }
        return try validate(value)
    }

    /// The help line: `summary (lo…hi unit, default d)`.
    public var help: String { help(defaultText: defaultValue.map(formatNumber)) }

    /// The help line with the default told in words (`the file's "fps", else 30`), or none.
    public func help(defaultText: String?) -> String {
        let u = unit.isEmpty ? "" : " \(unit)"
        let fallback = defaultText.map { ", default \($0)" } ?? ""
        return "\(summary) (\(formatNumber(range.lowerBound))…\(formatNumber(range.upperBound))\(u)\(fallback))"
    }
}

/// A parameter that takes one of a few words: an edge mode, a direction, a style, a format.
///
/// Words are matched without regard to ASCII case; the first word of a choice is how help texts and
/// error messages spell it, the others are aliases.
public struct ChoiceSpec<Value: Sendable & Equatable>: Sendable {
    /// One choice: its value and the words that name it.
    public struct Choice: Sendable {
        /// The words that name the value, matched in any case; not empty: the first is how help texts spell it.
        public let words: [String]
        /// The value the words name.
        public let value: Value
        /// A choice of `value`, named by `words` (at least one, the main one first).
        public init(_ words: [String], _ value: Value) {
            self.words = words
            self.value = value
        }
    }

    /// The parameter's name as the command line spells it.
    public let name: String
    /// The choices, in the order help texts list them; a word that several name picks the first.
    public let choices: [Choice]
    /// The default, or nil when there is none.
    public let defaultValue: Value?
    /// One line for help texts.
    public let summary: String

    /// A spec as given; `defaultValue` nil when there is none.
    @inline(never)
    public init(name: String, choices: [Choice], defaultValue: Value?, summary: String) {
        self.name = name
        self.choices = choices
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// The words as help texts list them (each choice's first word).
    public var words: [String] { choices.map { $0.words[0] } }

    /// This spec with another summary (the same choice, said for another parameter).
    @inline(never)
    public func with(summary: String) -> ChoiceSpec {
        ChoiceSpec(name: name, choices: choices, defaultValue: defaultValue, summary: summary)
    }

    /// The value `text` names, whatever its case.
    public func parse(_ text: String) throws(ParameterError) -> Value {
        choices[try ChoiceSpec.index(of: text, among: choices.map { $0.words }, name: name)].value
    }

    /// The index of the entry of `entries` (each a choice's words) with a word that is `text` in
    /// any ASCII case: the one parser of choices (``Parameter/Kind/choice(_:)`` reads its words with it too).
    /// - Throws: ``ParameterError/invalidChoice(name:value:choices:)`` naming `name` and the canonical words.
    public static func index(of text: String, among entries: [[String]], name: String) throws(ParameterError) -> Int {
        guard let at = entries.firstIndex(where: { $0.contains { $0.sameBytes(ignoringASCIICase: text) } }) else {
            throw .invalidChoice(name: name, value: text, choices: entries.map { $0[0] })
        }
        return at
    }

    /// The word that names `value`.
    public func word(for value: Value) -> String? { choices.first { $0.value == value }?.words[0] }

    /// The help line: `summary: a, b or c (default a)`.
    public var help: String {
        let fallback = defaultValue.flatMap(word(for:)).map { " (default \($0))" } ?? ""
        return "\(summary): \(listing(words))\(fallback)"
    }
}

extension ChoiceSpec where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// A choice of every case, each named by its raw value.
    public init(name: String, defaultValue: Value?, summary: String) {
        self.init(name: name, choices: Value.allCases.map { Choice([$0.rawValue], $0) }, defaultValue: defaultValue, summary: summary)
    }
}

/// A parameter value that cannot be used.
public enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// NaN or ±∞.
    case notFinite(name: String, value: Double)
    /// A finite number outside the allowed range.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>, unit: String)
    /// A fraction where a whole number is needed.
    case notWhole(name: String, value: Double)
    /// Text that is not a decimal number.
    case notANumber(name: String, text: String, integer: Bool)
    /// A word that is not one of the allowed choices.
    case invalidChoice(name: String, value: String, choices: [String])
    /// Text that is not in the form the parameter takes (`X,Y,W,H`, a colour, a length).
    case invalidForm(name: String, text: String, expected: String)
    /// A name the operation does not take; `known` lists those it does.
    case unknown(name: String, operation: String, known: [String])
    /// A parameter given twice (refused by every front end, never last-wins).
    case repeated(name: String)
    /// Parameters of which at most one may be given, given together.
    case conflict(names: [String])
    /// None of the parameters of which one is needed.
    case missing(names: [String], operation: String)
    /// A parameter that only goes with `other`, given with `instead`.
    case requires(name: String, other: String, instead: String)

    /// The parameter the error is about, bare, as the front end spells it (`sigma`, `--sigma`):
    /// without what a message adds after a space — a unit (`sigma (pixels)`) or the factor a value
    /// was multiplied by (`radius × scale`).
    public var parameter: String {
        let named: String
        switch self {
        case let .notFinite(name, _), let .outOfRange(name, _, _, _), let .notWhole(name, _), let .notANumber(name, _, _),
            let .invalidChoice(name, _, _), let .invalidForm(name, _, _), let .unknown(name, _, _), let .repeated(name),
            let .requires(name, _, _):
            named = name
        case let .conflict(names), let .missing(names, _):
            named = names.first ?? ""
        }
        return String(named.prefix { $0 != " " })
    }

    /// The error as one line of text: the parameter, what it takes and what it got.
    public var description: String {
        switch self {
        case let .notFinite(name, value):
            return "\(name) must be a finite number, got \(value)"
        case let .outOfRange(name, value, range, unit):
            let u = unit.isEmpty ? "" : " \(unit)"
            let (low, high) = (formatNumber(range.lowerBound), formatNumber(range.upperBound))
            // A value just past a bound is shown in full, not rounded onto the bound it passed.
            var got = formatNumber(value)
            if got.sameBytes(as: low) || got.sameBytes(as: high) { got = String(value) }
            return "\(name) must be between \(low) and \(high)\(u), got \(got)"
        case let .notWhole(name, value):
            return "\(name) must be a whole number, got \(formatNumber(value))"
        case let .notANumber(name, text, integer):
            return "\(name) expects \(integer ? "a whole number" : "a number"), got \"\(text)\""
        case let .invalidChoice(name, value, choices):
            return "\(name) must be one of \(listing(choices)), got \"\(value)\""
        case let .invalidForm(name, text, expected):
            return "\(name) expects \(expected), got \"\(text)\""
        case let .unknown(name, operation, known):
            return "\(operation) takes no parameter \(name); it takes \(listing(known))"
        case let .repeated(name):
            return "\(name) is given twice; give it once"
        case let .conflict(names):
            return "give \(names.joined(separator: " or ")), not both"
        case let .missing(names, operation):
            return "\(operation) needs \(names.joined(separator: " or "))"
        case let .requires(name, other, instead):
            return "\(name) goes with \(other), not \(instead)"
        }
    }
}

/// A short decimal form for messages and help: 24 rather than 24.0, at most six decimals
/// (150.333333, not 150.33333333333334).
public func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    if abs(value) >= 1e15 || abs(value) < 1e-6 { return String(value) }
    let rounded = (value * 1e6).rounded() / 1e6
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    return String(rounded)
}

/// `a, b or c`.
func listing(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + words.last!
}

/// A plain decimal number: optional sign, digits with at most one point, optional exponent.
/// Nil for anything else, including hex (`0x10`), `inf`, `nan` and empty text.
public func parseDecimal(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    var digits = 0, points = 0, exponent = false
    for (i, c) in bytes.enumerated() {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            digits += 1
        case UInt8(ascii: "."):
            points += 1
            if exponent || points > 1 { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i == 0 || bytes[i - 1] == UInt8(ascii: "e") || bytes[i - 1] == UInt8(ascii: "E") else { return nil }
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            guard digits > 0, !exponent else { return nil }
            exponent = true
        default:
            return nil
        }
    }
    #if hasFeature(Embedded)
    guard digits > 0, let value = EmbeddedDecimal.parse(bytes), value.isFinite else { return nil }
    #else
    guard digits > 0, let value = Double(text), value.isFinite else { return nil }
    #endif
    return value
}
