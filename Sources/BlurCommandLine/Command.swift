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

/// The `blurkit` program: dispatches to its commands and maps every outcome to an exit status —
/// 0 success, 1 failure, 2 usage error, 128 + signal when interrupted.
public struct CommandLineTool {
    /// The subcommands, in the order the overview lists them.
    public let commands: [any Command.Type]
    /// The text of `blurkit --help` and `blurkit help`: the usage, `about`, and one line per command.
    public let overview: String

    /// What `blurkit --version` prints after the program's name.
    public let version: String

    /// A program with these commands; `about` is the overview's paragraph, `version` what `--version` prints.
    public init(commands: [any Command.Type], about: String, version: String) {
        self.commands = commands
        self.version = version
        var names: [String] = [], summaries: [String] = []
        for command in commands {
            names.append(command.name)
            summaries.append(command.summary)
        }
        let width = (names.map { $0.count }.max() ?? 0) + 2
        let lines = zip(names, summaries).map { "  " + $0 + String(repeating: " ", count: width - $0.count) + $1 }
        self.overview = """
            usage: blurkit COMMAND [options] …

            \(about)

            commands:
            \(lines.joined(separator: "\n"))

            Run blurkit COMMAND --help (or blurkit help COMMAND) for a command's options;
            blurkit --version for the version.
            Exit status: 0 success, 1 failure, 2 usage error.
            """
    }

    /// Runs one command line (without the program name) and returns the exit status. Output goes
    /// to standard output, errors as one `blurkit: …` line to standard error.
    public func run(_ arguments: ArraySlice<String>) -> Int32 {
        do {
            if let text = try respond(to: arguments) { try AtomicFile.writeStandardOutput(Array((text + "\n").utf8)) }
            return 0
        } catch {
            let (message, status) = CommandLineTool.describe(error)
            _ = try? AtomicFile.writeStandardError(Array("blurkit: \(message)\n".utf8))
            return status
        }
    }

    /// The text a command line prints, or the error it ends with.
    public func respond(to arguments: ArraySlice<String>) throws -> String? {
        guard let first = arguments.first else { throw CLIError.usage("no command given; try blurkit --help") }
        if first == "-h" || first == "--help" { return overview }
        if first == "--version" { return "blurkit \(version)" }
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

    private func respond(_ command: any Command.Type, _ arguments: ArraySlice<String>) throws -> String? {
        let parsed = try ParsedArguments(arguments, options: command.options)
        if parsed.wantsHelp { return command.help }
        guard command.operandCount.contains(parsed.operands.count) else {
            let n = command.operandCount
            let wanted =
                n.lowerBound == n.upperBound
                ? "\(n.lowerBound)" : n.upperBound == Int.max ? "at least \(n.lowerBound)" : "\(n.lowerBound) to \(n.upperBound)"
            throw CLIError.usage(
                "\(command.name) takes \(wanted) operand\(n == 1...1 ? "" : "s"), got \(parsed.operands.count); usage: \(command.usage)")
        }
        // Every value with a table is checked now, before any file is read or written.
        for option in command.options {
            if let check = option.check, let text = parsed.values[option.name] { try check(text) }
        }
        try parsed.applyLimits()
        if command.readsFirstWritesSecond {
            let (input, output) = (parsed.operands[0], parsed.operands[1])
            if input != "-", output != "-", input == output || AtomicFile.sameFile(input, output) {
                throw FileError.wouldOverwriteInput(path: output)
            }
        }
        return try command.run(parsed)
    }

    private func command(named name: String) throws(CLIError) -> any Command.Type {
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
