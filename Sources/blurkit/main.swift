import BlurCommandLine
import BlurKit
import Foundation

/// How the command line runs the operations of each form: an image's through the streaming
/// pipeline, the others through the library's renderers; nil for an image form that draws nothing.
func commandForm(_ operation: BlurOperation) -> CommandForm? {
    switch operation.form {
    case .image: return operation.image == nil ? nil : .image(run: ImageFiles.still)
    case .animation: return AnimationForm.form
    case .scene: return SceneForm.form
    case .placeholder: return PlaceholderForm.form
    }
}

/// The commands, in the order `blurkit --help` lists them: one per operation of the registry, made
/// from it by its form, then the server and the demo.
let tool = CommandLineTool(
    commands: BlurOperation.all.compactMap { operation in commandForm(operation).map { CommandEntry.operation(operation, form: $0) } } + [
        CommandEntry(ServeCommand.self), CommandEntry(DemoCommand.self),
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
