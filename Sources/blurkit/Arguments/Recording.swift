import BlurCommandLine
import BlurKit
import Foundation

extension SceneRecording {
    /// Records `scene` into `writer` as the commands do: SIGINT/SIGTERM stop it between batches, a
    /// progress line shows on a terminal unless `quiet`, and an interruption becomes the error that
    /// says what was kept.
    func recordFromCommandLine(_ scene: Scene, to writer: AnimationWriter, parallelFrames: Int?, quiet: Bool) throws {
        Interruption.install()
        var progress = ProgressLine(quiet: quiet)
        let started = Date()
        do {
            try record(
                scene, to: writer, parallelFrames: parallelFrames,
                progress: { done, total in
                    let rate = Double(done) / max(1e-3, Date().timeIntervalSince(started))
                    progress.show(
                        "rendering \(writer.path): frame \(done)/\(total) (\(done * 100 / total) %, \(String(format: "%.1f", rate)) frames/s)")
                }, cancelled: Interruption.stopCheck())
        } catch let RecordingError.cancelled(framesWritten) {
            progress.finish()
            let kept =
                writer.format == .pngSequence ? "; the \(framesWritten) complete frames are in \(writer.path)" : "; \(writer.path) was not written"
            throw CLIError.interrupted("interrupted after \(framesWritten) of \(frameCount) frames\(kept)", signal: Interruption.signal ?? SIGINT)
        }
        progress.finish()
    }
}
