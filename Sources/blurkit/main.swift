import BlurCommandLine
import BlurKit
import Foundation

/// The commands, in the order `blurkit --help` lists them.
let commands: [(name: String, summary: String, run: (ArraySlice<String>) throws -> String?)] = [
    ("blur", "Gaussian blur of a whole image", BlurCommand.run),
    ("progressive", "progressive (variable) blur with a dimming gradient", ProgressiveCommand.run),
    ("material", "frosted-glass material (UIBlurEffect style) over a region", MaterialCommand.run),
    ("blurup", "an image coming into focus from its blurred preview, as an animation", BlurUpCommand.run),
    ("placeholder", "tiny blur-up previews, ThumbHashes and a manifest for many images", PlaceholderCommand.run),
    ("render", "render a scene file (JSON) to a still or an animation", RenderCommand.run),
    ("demo", "render the built-in sample picture and its blurs into a folder", DemoCommand.run),
]

let overview = """
    usage: blurkit COMMAND [options] …

    The blur effects of Apple interfaces for image files.

    commands:
    \(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    Run blurkit COMMAND --help for a command's options. Exit status: 0 success, 1 failure, 2 usage error.
    """

/// Runs the command line and returns the exit status. Errors become one `blurkit: …` line on
/// standard error; everything is released before the process exits.
@MainActor
func run(_ arguments: ArraySlice<String>) -> Int32 {
    func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("blurkit: \(message)\n".utf8))
        return status
    }
    guard let first = arguments.first else { return fail("no command given; try blurkit --help", status: 2) }
    if first == "-h" || first == "--help" || first == "help" {
        print(overview)
        return 0
    }
    guard let command = commands.first(where: { $0.name == first }) else {
        return fail("unknown command \"\(first)\"; try blurkit --help", status: 2)
    }
    do {
        if let text = try command.run(arguments.dropFirst()) { print(text) }
        return 0
    } catch let error as CLIError {
        return fail(error.description, status: error.exitStatus)
    } catch let error as ParameterError {
        return fail(error.description, status: 2)
    } catch {
        return fail("\(error)", status: 1)
    }
}

// A file-size limit (ulimit -f) must be an error we report, not a signal that kills us mid-write.
signal(SIGXFSZ, SIG_IGN)
exit(run(CommandLine.arguments.dropFirst()))
