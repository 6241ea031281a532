import BlurCommandLine
import BlurKit
import Foundation

/// The commands, in the order `blurkit --help` lists them.
let tool = CommandLineTool(
    commands: [
        BlurCommand.self, ProgressiveCommand.self, MaterialCommand.self, BlurUpCommand.self, PlaceholderCommand.self,
        RenderCommand.self, ServeCommand.self, DemoCommand.self,
    ],
    about: "The blur effects of Apple interfaces for image files. blurkit --describe prints every operation's parameters as JSON.",
    version: BlurKitVersion.string)

// The registry as JSON (names, kinds, ranges, words, defaults, help, front ends), for tools and for
// the test that holds the WebAssembly module's description to the native one.
if CommandLine.arguments.dropFirst().first == "--describe" {
    let text = "[" + BlurOperation.all.map { Describe.operation($0, in: .all, spelling: .key) }.joined(separator: ",") + "]\n"
    exit((try? AtomicFile.writeStandardOutput(Array(text.utf8))) == nil ? 1 : 0)
}

// A file-size limit (ulimit -f) must be an error we report, not a signal that kills us mid-write;
// so must a closed pipe on standard output.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
exit(tool.run(CommandLine.arguments.dropFirst()))
