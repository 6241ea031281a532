import BlurCore

/// One option of a command, for scanning and for `--help`.
public struct OptionSpec: Sendable {
    /// Without the dashes: `sigma`.
    public let name: String
    /// The value's placeholder (`S`), or nil for a flag.
    public let value: String?
    /// The help line: unit, range and default included.
    public let help: String

    /// An option whose value is checked by a parameter table entry; the help comes from it.
    public init(_ spec: ParameterSpec, value: String, extra: String = "") {
        self.name = spec.name
        self.value = value
        let unit = spec.unit.isEmpty ? "" : " \(spec.unit)"
        let bounds = "\(shortNumber(spec.range.lowerBound))…\(shortNumber(spec.range.upperBound))\(unit)"
        let fallback = spec.defaultValue.map { ", default \(shortNumber($0))" } ?? ""
        self.help = "\(spec.summary) (\(bounds)\(fallback))\(extra)"
    }

    public init(name: String, value: String?, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }
}

public func shortNumber(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
}

/// The options and operands of one command line, scanned against a command's option table.
///
/// Accepts `--name value`, `--name=value` and flags; `-` alone is an operand (standard input or
/// output); `--` ends the options. Unknown options and missing values are usage errors.
public struct ParsedArguments: Sendable {
    public private(set) var values: [String: String] = [:]
    public private(set) var operands: [String] = []
    public var wantsHelp = false

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

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The two operands IN and OUT of `command`, or a usage error.
    public func inputAndOutput(of command: String) throws(CLIError) -> (input: String, output: String) {
        guard operands.count == 2 else {
            throw .usage("\(command) needs IN and OUT, got \(operands.count) file operand(s)")
        }
        return (operands[0], operands[1])
    }

    /// A number checked against its parameter table entry; the default when absent.
    public func number(_ spec: ParameterSpec) throws -> Double? {
        guard let text = values[spec.name] else { return spec.defaultValue }
        guard let value = Double(text) else {
            throw CLIError.usage("--\(spec.name) expects a number, got \"\(text)\"")
        }
        return try spec.validate(value)
    }

    /// A whole number checked against its parameter table entry.
    public func integer(_ spec: ParameterSpec) throws -> Int? {
        guard let value = try number(spec) else { return nil }
        guard value == value.rounded() else {
            throw CLIError.usage("--\(spec.name) expects a whole number, got \(values[spec.name]!)")
        }
        return Int(value)
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
