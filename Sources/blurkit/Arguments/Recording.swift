import BlurCommandLine
import BlurKit
import Foundation

/// How the commands that record frames run the library's recording: SIGINT/SIGTERM stop it
/// between batches, a progress line shows on a terminal unless `quiet`, and an interruption becomes
/// the error that says what was kept.
enum Recording {
    /// Runs `body` with options carrying `threads`, the stop check and the progress line; `output`
    /// and `format` say what an interruption leaves.
    static func run(
        into output: String, format: AnimationFormat, threads: Int?, quiet: Bool, _ body: (RenderOptions) throws -> Void
    ) throws {
        Interruption.install()
        let progress = Locked((line: ProgressLine(quiet: quiet), total: 0))
        let started = Date()
        let options = RenderOptions(
            threads: threads, cancelled: Interruption.stopCheck(),
            progress: { done, total in
                let rate = Double(done) / max(1e-3, Date().timeIntervalSince(started))
                progress.withLock {
                    $0.total = total
                    $0.line.show(
                        "rendering \(output): frame \(done)/\(total) (\(done * 100 / max(1, total)) %, \(String(format: "%.1f", rate)) frames/s)")
                }
            })
        do {
            try body(options)
        } catch let RenderError.cancelled(framesWritten) {
            let total = progress.withLock {
                $0.line.finish()
                return $0.total
            }
            let kept = format == .pngSequence ? "; the \(framesWritten) complete frames are in \(output)" : "; \(output) was not written"
            throw CLIError.interrupted(
                "interrupted after \(framesWritten) of \(total > 0 ? String(total) : "the") frames\(kept)", signal: Interruption.signal ?? SIGINT)
        } catch let error as RenderError {
            progress.withLock { $0.line.finish() }
            if case .output(let text) = error { throw CLIError.usage(text) }
            throw CLIError.failure(error.description)
        }
        progress.withLock { $0.line.finish() }
    }
}
