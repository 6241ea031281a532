import BlurCore
import BlurIO

/// One subcommand of `blurkit`: its name, help and options, and the work it does.
///
/// What every command shares is written once, in ``CommandLineTool``: `--help` and `blurkit help
/// NAME`, the operand count, `--max-pixels` and `--memory-budget`, the check that no output names
/// an input, and turning an error into one `blurkit: …` line with its exit status.
public protocol Command: Sendable {
    /// The word after `blurkit`.
    static var name: String { get }
    /// One line for `blurkit --help`.
    static var summary: String { get }
    /// The usage line, without `usage: `.
    static var usage: String { get }
    /// The paragraph of `--help` under the usage line.
    static var details: String { get }
    /// The options, in the order `--help` lists them.
    static var options: [OptionSpec] { get }
    /// How many operands (files or folders) it takes.
    static var operandCount: ClosedRange<Int> { get }
    /// True when operand 0 is read and operand 1 written, so the two must not be the same file.
    static var readsFirstWritesSecond: Bool { get }
    /// Does the work; the text to print on success, if any.
    static func run(_ arguments: ParsedArguments) throws -> String?
}

extension Command {
    /// Default: true exactly when the command takes two operands.
    public static var readsFirstWritesSecond: Bool { operandCount == 2...2 }

    /// The `--help` text.
    public static var help: String { helpText(usage: usage, summary: details, options: options) }
}

/// How the command line runs the operations of one form (``BlurOperation/Form``): the operands,
/// the options besides the operation's own, a paragraph for `--help`, and the work, given the
/// arguments scanned and the operation.
public struct CommandForm: Sendable {
    /// The operands in the usage line (`IN OUT`).
    public var operands: String
    /// How many operands it takes.
    public var operandCount: ClosedRange<Int>
    /// True when operand 0 is read and operand 1 written.
    public var readsFirstWritesSecond: Bool
    /// Options listed before the operation's (a folder the form needs).
    public var leadingOptions: [OptionSpec]
    /// Options listed after the operation's.
    public var options: [OptionSpec]
    /// The paragraph of `--help` after the operation's.
    public var details: String
    /// Does the work; the text to print on success, if any.
    public var run: @Sendable (ParsedArguments, BlurOperation) throws -> String?

    /// A form as given.
    public init(
        operands: String, operandCount: ClosedRange<Int>, readsFirstWritesSecond: Bool, leadingOptions: [OptionSpec] = [], options: [OptionSpec],
        details: String, run: @escaping @Sendable (ParsedArguments, BlurOperation) throws -> String?
    ) {
        self.operands = operands
        self.operandCount = operandCount
        self.readsFirstWritesSecond = readsFirstWritesSecond
        self.leadingOptions = leadingOptions
        self.options = options
        self.details = details
        self.run = run
    }

    /// An image in, an image out: `IN OUT`, the work options, and what IN and OUT may be.
    public static func image(run: @escaping @Sendable (ParsedArguments, BlurOperation) throws -> Void) -> CommandForm {
        CommandForm(
            operands: "IN OUT", operandCount: 2...2, readsFirstWritesSecond: true, options: StandardOptions.work,
            details: """
                IN and OUT may be - for standard input and output. Reads PNG, JPEG, WebP, AVIF, HEIC (the
                primary image), GIF (first frame), PAM and PPM/PGM; writes the format --format says (see its
                line below; OUT's suffixes: \(ImageFormat.suffixes.map { "." + $0 }.joined(separator: " "))). Colours are
                converted to sRGB from IN's ICC profile and OUT carries none, unless --keep-profile keeps
                IN's values and embeds its profile.
                """,
            run: { arguments, operation in
                try run(arguments, operation)
                return nil
            })
    }
}

/// One subcommand as a value: what ``CommandLineTool`` dispatches to. A ``Command`` type becomes
/// one with ``init(_:)``; an image operation of the registry with ``effect(_:run:)``, which makes
/// its usage, summary, help and options from the operation alone.
public struct CommandEntry: Sendable {
    /// The word after `blurkit`.
    public let name: String
    /// One line for `blurkit --help`.
    public let summary: String
    /// The usage line, without `usage: `.
    public let usage: String
    /// The paragraph of `--help` under the usage line.
    public let details: String
    /// The options, in the order `--help` lists them.
    public let options: [OptionSpec]
    /// How many operands it takes.
    public let operandCount: ClosedRange<Int>
    /// True when operand 0 is read and operand 1 written.
    public let readsFirstWritesSecond: Bool
    /// Does the work; the text to print on success, if any.
    public let run: @Sendable (ParsedArguments) throws -> String?

    /// The `--help` text.
    public var help: String { helpText(usage: usage, summary: details, options: options) }

    /// The command `command` declares.
    public init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        usage = C.usage
        details = C.details
        options = C.options
        operandCount = C.operandCount
        readsFirstWritesSecond = C.readsFirstWritesSecond
        run = { try C.run($0) }
    }

    /// `blurkit NAME OPERANDS [options]` for an operation of the registry run in `form`: its name,
    /// summary and paragraph, the form's operands and paragraph, the operation's command-line
    /// parameters among the form's options, its exclusive sets in the usage line. Nothing here
    /// names an operation: a new one is a command with its help by being in the registry.
    public static func operation(_ operation: BlurOperation, form: CommandForm) -> CommandEntry {
        // A set one of which must be given in parentheses (blur's σ or radius); one whose members
        // all may be left out (progressive's direction or angle) in brackets.
        let choices = operation.exclusive.map { set -> String in
            let members = set.compactMap { operation.parameter($0) }
            let optional = members.contains { p in
                if case .absent(nil) = p.defaultValue { return false }
                return true
            }
            let listed = members.map { "--\($0.flag) \($0.placeholder)" }.joined(separator: " | ")
            return optional ? "[" + listed + "]" : "(" + listed + ")"
        }
        let usage = (["blurkit \(operation.flag) \(form.operands)"] + choices + ["[options]"]).joined(separator: " ")
        let paragraphs = [operation.details, form.details].filter { !$0.isEmpty }
        return CommandEntry(
            name: operation.flag, summary: operation.summary, usage: usage, details: paragraphs.joined(separator: "\n"),
            options: form.leadingOptions + OptionSpec.options(for: operation) + form.options, operandCount: form.operandCount,
            readsFirstWritesSecond: form.readsFirstWritesSecond, run: { arguments in try form.run(arguments, operation) })
    }

    /// `blurkit NAME IN OUT [options]` for an image operation (``CommandForm/image(run:)``): `run`
    /// draws it from IN to OUT with the arguments scanned.
    public static func effect(_ operation: BlurOperation, run: @escaping @Sendable (ParsedArguments, BlurOperation) throws -> Void) -> CommandEntry {
        self.operation(operation, form: .image(run: run))
    }

    /// A command as given.
    public init(
        name: String, summary: String, usage: String, details: String, options: [OptionSpec], operandCount: ClosedRange<Int>,
        readsFirstWritesSecond: Bool, run: @escaping @Sendable (ParsedArguments) throws -> String?
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.details = details
        self.options = options
        self.operandCount = operandCount
        self.readsFirstWritesSecond = readsFirstWritesSecond
        self.run = run
    }
}

/// The `blurkit` program: dispatches to its commands and maps every outcome to an exit status —
/// 0 success, 1 failure, 2 usage error, 128 + signal when interrupted.
public struct CommandLineTool: Sendable {
    /// The subcommands, in the order the overview lists them.
    public let commands: [CommandEntry]
    /// The operations `--describe` prints (the registry).
    public let operations: [BlurOperation]
    /// The text of `blurkit --help` and `blurkit help`: the usage, `about`, and one line per command.
    public let overview: String

    /// What `blurkit --version` prints after the program's name.
    public let version: String

    /// A program with these commands; `about` is the overview's paragraph, `version` what
    /// `--version` prints, `operations` what `--describe` prints as JSON.
    public init(commands: [CommandEntry], operations: [BlurOperation], about: String, version: String) {
        self.commands = commands
        self.operations = operations
        self.version = version
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        let lines = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
        self.overview = """
            usage: blurkit COMMAND [options] …

            \(about)

            commands:
            \(lines.joined(separator: "\n"))

            Run blurkit COMMAND --help (or blurkit help COMMAND) for a command's options;
            blurkit --describe for every operation's parameters as JSON; blurkit --version for the version.
            Exit status: 0 success, 1 failure, 2 usage error.
            """
    }

    /// The registry as JSON (names, kinds, ranges, words, defaults, help, front ends): what
    /// `blurkit --describe` prints, for tools, the reference pages and the test that holds the
    /// WebAssembly module's description to the native one.
    public var description: String {
        "[" + operations.map { Describe.operation($0, in: .all, spelling: .key) }.joined(separator: ",") + "]"
    }

    /// Runs one command line (without the program name) and returns the exit status. Output goes
    /// to standard output, errors as one `blurkit: …` line to standard error.
    public func run(_ arguments: ArraySlice<String>) -> Int32 {
        do {
            if let text = try respond(to: arguments) { try AtomicFile.writeStandardOutput(Array((text + "\n").utf8)) }
            return 0
        } catch {
            let (message, status) = CommandLineTool.describe(error)
            _ = try? AtomicFile.writeStandardError(Array("blurkit: \(CommandLineTool.printable(message))\n".utf8))
            return status
        }
    }

    /// `message` with its control characters written out (`\u001b`, `\u000a`), as the HTTP errors'
    /// JSON writes them: the error stays one line, and a value given on the command line or in a
    /// scene cannot move the terminal's cursor or clear its screen.
    public static func printable(_ message: String) -> String {
        var out = ""
        for scalar in message.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let digits = Array("0123456789abcdef")
                out += "\\u00" + String(digits[Int(scalar.value >> 4)]) + String(digits[Int(scalar.value & 15)])
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text a command line prints, or the error it ends with.
    public func respond(to arguments: ArraySlice<String>) throws -> String? {
        guard let first = arguments.first else { throw CLIError.usage("no command given; try blurkit --help") }
        if first == "-h" || first == "--help" { return overview }
        if first == "--version" { return "blurkit \(version)" }
        if first == "--describe" { return description }
        if first == "help" {
            guard let name = arguments.dropFirst().first else { return overview }
            return try command(named: name).help
        }
        let command = try command(named: first)
        do {
            return try respond(command, arguments.dropFirst())
        } catch let error as ParameterError where command.options.contains(where: { $0.name == error.parameter }) {
            // An option's error names the option as it was typed.
            throw CLIError.usage("--" + error.description)
        }
    }

    private func respond(_ command: CommandEntry, _ arguments: ArraySlice<String>) throws -> String? {
        let parsed = try ParsedArguments(arguments, options: command.options)
        if parsed.wantsHelp { return command.help }
        guard command.operandCount.contains(parsed.operands.count) else {
            let n = command.operandCount
            let wanted =
                n.lowerBound == n.upperBound
                ? "\(n.lowerBound)" : n.upperBound == Int.max ? "at least \(n.lowerBound)" : "\(n.lowerBound) to \(n.upperBound)"
            throw CLIError.usage(
                "\(command.name) takes \(wanted) operand\(n.lowerBound == 1 && (n.upperBound == 1 || n.upperBound == Int.max) ? "" : "s"), got \(parsed.operands.count); usage: \(command.usage)"
            )
        }
        // Every value with a table is checked now, before any file is read or written.
        for option in command.options {
            if let check = option.check, let text = parsed.values[option.name] { try check(text) }
        }
        try parsed.applyLimits()
        if command.readsFirstWritesSecond {
            let (input, output) = (parsed.operands[0], parsed.operands[1])
            try AtomicFile.checkKeeps([input], writing: output)
        }
        return try command.run(parsed)
    }

    private func command(named name: String) throws(CLIError) -> CommandEntry {
        guard let command = commands.first(where: { $0.name == name }) else {
            throw .usage("unknown command \"\(name)\"; try blurkit --help")
        }
        return command
    }

    /// An error's one-line message and exit status.
    public static func describe(_ error: any Error) -> (String, Int32) {
        switch error {
        case let error as CLIError: return (error.description, error.exitStatus)
        case let error as ParameterError: return (error.description, 2)
        default: return ("\(error)", 1)
        }
    }
}
