import BlurCommandLine
import BlurKit
import Foundation

/// Reading IN and writing OUT for the commands that make one image.
enum ImageFiles {
    /// Reads and decodes IN (a path, or - for standard input) as a stream into a bitmap: the file's
    /// bytes are never held whole beside the image (WebP and GIF excepted).
    static func read(_ path: String) throws -> Bitmap {
        do { return try Renderer.decode(.file(path)) } catch let error as RenderError {
            throw CLIError.failure(error.description)
        } catch let error as FileError {
            throw CLIError.failure(error.description)
        } catch {
            throw CLIError.failure("\(path == "-" ? "standard input" : path): \(error)")
        }
    }

    /// An image operation of the registry from IN to OUT through the library's streaming API
    /// (``Renderer``): OUT's format checked first, SIGINT and SIGTERM stop it between bands (a
    /// second signal removes the temporary file), and its errors said as the command line says them.
    static func still(_ arguments: ParsedArguments, _ operation: BlurOperation) throws {
        let (input, output) = arguments.inputAndOutput
        let given = try arguments.arguments(for: operation)
        let format = try arguments.stillFormat(for: output, asked: given.given(StillOutput.format))
        let threads = try arguments.integer(StandardOptions.threads)
        Interruption.install()
        do {
            try Renderer.still(
                given, from: .file(input), to: .file(output), format: format,
                options: RenderOptions(threads: threads, cancelled: Interruption.stopCheck(), temporaryFile: { Interruption.removeOnExit($0) }))
        } catch let error as RenderError {
            switch error {
            case .input, .outputTooLarge: throw CLIError.failure(error.description)
            case .cancelled:
                throw CLIError.interrupted(
                    "interrupted; \(output == "-" ? "standard output is incomplete" : "nothing written")", signal: Interruption.signal ?? SIGINT)
            case let .output(text): throw CLIError.usage(text)
            }
        } catch let error as FileError {
            throw CLIError.failure(error.description)
        }
    }
}
