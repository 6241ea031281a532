/// One numeric parameter of an effect: its name, unit, allowed range and default.
///
/// The same table serves validation, the command line's `--help` and cache keys, so the three
/// cannot drift apart. `validate` rejects NaN, ±∞ and values outside `range` with an error that
/// names the parameter, the range and the value.
public struct ParameterSpec: Sendable, Hashable {
    /// The parameter's name as the API and the command line spell it (`sigma`, `radius`).
    public let name: String
    /// The unit the value is in (`px`, `pt`, `px/pt`, or empty for a plain number).
    public let unit: String
    /// The allowed closed range.
    public let range: ClosedRange<Double>
    /// The default, or nil when the parameter must be given.
    public let defaultValue: Double?
    /// One line for help texts.
    public let summary: String

    public init(name: String, unit: String, range: ClosedRange<Double>, defaultValue: Double?, summary: String) {
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// The value, if it is finite and inside ``range``.
    public func validate(_ value: Double) throws(ParameterError) -> Double {
        guard value.isFinite else { throw .notFinite(name: name, value: value) }
        guard range.contains(value) else { throw .outOfRange(name: name, value: value, range: range, unit: unit) }
        return value
    }
}

/// A parameter value that cannot be used.
public enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// NaN or ±∞.
    case notFinite(name: String, value: Double)
    /// A finite number outside the allowed range.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>, unit: String)
    /// A word that is not one of the allowed choices.
    case invalidChoice(name: String, value: String, choices: [String])

    public var description: String {
        switch self {
        case let .notFinite(name, value):
            return "\(name) must be a finite number, got \(value)"
        case let .outOfRange(name, value, range, unit):
            let u = unit.isEmpty ? "" : " \(unit)"
            return "\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound))\(u), got \(format(value))"
        case let .invalidChoice(name, value, choices):
            return "\(name) must be one of \(choices.joined(separator: ", ")), got \"\(value)\""
        }
    }
}

/// A short decimal form: 24 rather than 24.0, 0.5 as is.
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
