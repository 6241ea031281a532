import BlurCore

/// One option of a command, for scanning and for `--help`.
public struct OptionSpec: Sendable {
    /// Without the dashes: `sigma`.
    public let name: String
    /// The value's placeholder (`S`), or nil for a flag.
    public let value: String?
    /// The help line: unit, range and default included.
    public let help: String
    /// Checks a value against the option's table, when it has one: the runner calls it for every
    /// option given, before the command does any work.
    public let check: (@Sendable (String) throws(ParameterError) -> Void)?
    /// The option of a registry parameter: its flag, placeholder and help line, checked by its
    /// kind's parser with the command line's spelling (`--max-radius must be …`).
    public init(_ parameter: Parameter) {
        name = parameter.flag
        if case .flag = parameter.kind { value = nil } else { value = parameter.placeholder }
        help = parameter.help
        check = { (text: String) throws(ParameterError) in _ = try parameter.parse(text, as: .commandLine) }
    }

    /// The options of `operation` the command line takes, in its order.
    public static func options(for operation: BlurOperation) -> [OptionSpec] {
        operation.parameters(in: .commandLine).map(OptionSpec.init)
    }

    /// An option whose value is checked by a parameter table entry; the help comes from it, with
    /// the default told in words when `defaultText` is given.
    public init(_ spec: ParameterSpec, value: String, extra: String = "", defaultText: String? = nil) {
        self.name = spec.name
        self.value = value
        self.help = (defaultText.map { spec.help(defaultText: $0) } ?? spec.help) + extra
        self.check = { (text: String) throws(ParameterError) in _ = try spec.parse(text) }
    }

    /// An option that takes one of a choice spec's words; the help comes from it.
    public init<T>(_ spec: ChoiceSpec<T>, value: String, extra: String = "") {
        self.name = spec.name
        self.value = value
        self.help = spec.help + extra
        self.check = { (text: String) throws(ParameterError) in _ = try spec.parse(text) }
    }

    /// An option whose value the command reads itself (`check` nil), or a flag (`value` nil).
    public init(name: String, value: String?, help: String, check: (@Sendable (String) throws(ParameterError) -> Void)? = nil) {
        self.name = name
        self.value = value
        self.help = help
        self.check = check
    }
}

/// A short decimal form for messages: see ``formatNumber(_:)``.
public func shortNumber(_ v: Double) -> String { formatNumber(v) }

/// The options and operands of one command line, scanned against a command's option table.
///
/// Accepts `--name value`, `--name=value` and flags; `-` alone is an operand (standard input or
/// output); `--` ends the options. Unknown options and missing values are usage errors.
public struct ParsedArguments: Sendable {
    /// Each option given, by name without dashes: its value, or empty for a flag (an option given
    /// twice is refused, as the HTTP service and scene files refuse it).
    public private(set) var values: [String: String] = [:]
    /// The words that are not options, in order: `-` among them, and everything after `--`.
    public private(set) var operands: [String] = []
    /// True when `-h` or `--help` came before any `--`.
    public var wantsHelp = false

    /// Scans `arguments` (after the command's name) against `options`; values are checked later, by the runner.
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a value given to a flag, or a missing value.
    public init(_ arguments: ArraySlice<String>, options: [OptionSpec]) throws(CLIError) {
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--" {
                operands.append(contentsOf: rest)
                break
            }
            if word == "-h" || word == "--help" {
                wantsHelp = true
                continue
            }
            guard word.hasPrefix("--") else {
                if word.hasPrefix("-") && word != "-" { throw .usage("unknown option \(word)") }
                operands.append(word)
                continue
            }
            var name = String(word.dropFirst(2)), inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option --\(name)")
            }
            if values[name] != nil { throw .usage("--\(name) is given twice; give it once") }
            if spec.value == nil {
                if inline != nil { throw .usage("--\(name) takes no value") }
                values[name] = ""
            } else if let value = inline ?? rest.popFirst() {
                values[name] = value
            } else {
                throw .usage("--\(name) needs a value (\(spec.value!))")
            }
        }
    }

    /// The options given that are `operation`'s parameters, read and checked by the registry.
    public func arguments(for operation: BlurOperation) throws(ParameterError) -> OperationArguments {
        let pairs = operation.parameters(in: .commandLine).compactMap { p in values[p.flag].map { ("--" + p.flag, $0) } }
        return try operation.read(pairs, as: .commandLine, in: .commandLine)
    }

    /// True when option `name` (without dashes) was given.
    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The two operands IN and OUT (the runner has checked their count).
    public var inputAndOutput: (input: String, output: String) { (operands[0], operands[1]) }

    /// A decimal number checked against its parameter table entry; the default when absent.
    public func number(_ spec: ParameterSpec) throws(ParameterError) -> Double? {
        guard let text = values[spec.name] else { return spec.defaultValue }
        return try spec.parse(text)
    }

    /// A whole number checked against its parameter table entry; the default when absent.
    public func integer(_ spec: ParameterSpec) throws(ParameterError) -> Int? {
        guard let value = try number(spec) else { return nil }
        guard value == value.rounded() else { throw .notWhole(name: spec.name, value: value) }
        return Int(value)
    }

    /// One of a choice spec's words, in any case; the default when absent.
    public func choice<T>(_ spec: ChoiceSpec<T>) throws(ParameterError) -> T? {
        guard let text = values[spec.name] else { return spec.defaultValue }
        return try spec.parse(text)
    }

    /// Applies `--max-pixels` and `--memory-budget` when given.
    public func applyLimits() throws(ParameterError) {
        if has(StandardOptions.maxPixels.name), let limit = try integer(StandardOptions.maxPixels) { ImageLimits.maximumPixelCount = limit }
        if has(StandardOptions.memoryBudget.name), let megabytes = try integer(StandardOptions.memoryBudget) {
            ImageLimits.memoryBudget = megabytes << 20
        }
    }
}

/// The help text of a command, from its option table.
public func helpText(usage: String, summary: String, options: [OptionSpec]) -> String {
    var lines = ["usage: \(usage)", "", summary, "", "options:"]
    let width = options.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }.map(\.count).max() ?? 0
    for option in options {
        let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
        lines.append("  " + left + String(repeating: " ", count: width - left.count + 2) + option.help)
    }
    lines.append("  -h, --help" + String(repeating: " ", count: max(0, width - 8)) + "show this help")
    return lines.joined(separator: "\n")
}
