import BlurCommandLine
import BlurKit
import Foundation

/// The commands, in the order `blurkit --help` lists them.
let tool = CommandLineTool(
    commands: [
        BlurCommand.self, ProgressiveCommand.self, MaterialCommand.self, BlurUpCommand.self, PlaceholderCommand.self,
        RenderCommand.self, ServeCommand.self, DemoCommand.self,
    ],
    about: "The blur effects of Apple interfaces for image files.", version: BlurKitVersion.string)

// A file-size limit (ulimit -f) must be an error we report, not a signal that kills us mid-write;
// so must a closed pipe on standard output.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
exit(tool.run(CommandLine.arguments.dropFirst()))
