import BlurCommandLine
import BlurKit
import Foundation

/// The commands, in the order `blurkit --help` lists them: one generic command per image
/// operation of the registry, then the others.
let tool = CommandLineTool(
    commands: BlurOperation.all.filter { $0.image != nil }.map { CommandEntry.effect($0, run: ImageFiles.still) } + [
        CommandEntry(BlurUpCommand.self), CommandEntry(PlaceholderCommand.self), CommandEntry(RenderCommand.self), CommandEntry(ServeCommand.self),
        CommandEntry(DemoCommand.self),
    ],
    operations: BlurOperation.all,
    about: "The blur effects of Apple interfaces for image files.",
    version: BlurKitVersion.string)

// A file-size limit (ulimit -f) must be an error we report, not a signal that kills us mid-write;
// so must a closed pipe on standard output.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
// Past --memory-budget and the process's allowance, a render stops with the reason (an estimate
// that fell short fails safe); `serve` sets its own ceiling, its whole budget.
HeapCeiling.ceilProcessAtBudget()
exit(tool.run(CommandLine.arguments.dropFirst()))
