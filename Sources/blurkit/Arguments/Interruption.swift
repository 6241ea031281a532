import Foundation
import Synchronization

/// SIGINT and SIGTERM as a flag that long work polls between steps, so that an interrupted command
/// finishes the file it is writing (or writes none), says what was done, and exits 128 + signal.
enum Interruption {
    private static let received = Atomic<Int32>(0)
    /// A file to remove if a second signal ends the process at once (a temporary output).
    /// (The address of a C string, 0 for none: an `Atomic` of a pointer is not `Sendable`.)
    private static let doomed = Atomic<Int>(0)

    /// Names the temporary file that a second signal must not leave behind (nil: none now).
    static func removeOnExit(_ path: String?) {
        let copy = path.flatMap { strdup($0) }
        let old = doomed.exchange(Int(bitPattern: copy), ordering: .sequentiallyConsistent)
        free(UnsafeMutableRawPointer(bitPattern: old))
    }

    /// Set by `blurkit serve`: SIGINT and SIGTERM are the server's (they start a drain, which lets the
    /// work in flight finish), so ``install()`` leaves them alone.
    static let serving = Atomic<Bool>(false)

    /// Whether the work should stop between its steps, asked from any thread: a signal came.
    static func stopCheck() -> @Sendable () -> Bool {
        { signal != nil }
    }

    /// The signal received since ``install()``, or nil.
    static var signal: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    /// What the first signal answers on standard error at once, from the handler (`write` is
    /// async-signal-safe): the work stops at its next step, and another signal stops it now. A
    /// caller that sends a second signal waits for this line, so that the two never arrive as one
    /// (a signal still pending when the next comes merges with it).
    /// (A static string: constant bytes, nothing to initialise inside the handler.)
    static let acknowledgement: StaticString = "blurkit: stopping after the work in flight (interrupt again to stop at once)\n"

    /// Seconds the work has, after the first signal, to reach its next step before the process
    /// stops without it.
    static let grace = 2.0
    private static let watching = Atomic<Bool>(false)

    /// Routes SIGINT and SIGTERM to the flag (a second signal of either kind ends the process at
    /// once, and so does the first when the work has not stopped ``grace`` seconds after it).
    static func install() {
        guard !serving.load(ordering: .relaxed) else { return }
        _ = acknowledgement.utf8CodeUnitCount  // touched here, never first in the handler
        for s in [SIGINT, SIGTERM] {
            Foundation.signal(s) { number in
                if Interruption.received.exchange(number, ordering: .relaxed) != 0 {
                    // unlink and _exit are async-signal-safe.
                    if let path = UnsafePointer<CChar>(bitPattern: Interruption.doomed.load(ordering: .sequentiallyConsistent)) { unlink(path) }
                    _exit(128 + number)
                }
                let text = Interruption.acknowledgement
                _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
            }
        }
        // A step that cannot be interrupted (libheif's or libwebp's encoder: a HEIC of 16 MP took 48 s)
        // would hold the first signal's stop for as long as it runs: past a grace after it, the
        // process stops as at a second signal, leaving no temporary file.
        if !watching.exchange(true, ordering: .relaxed) {
            Thread.detachNewThread {
                while Interruption.signal == nil { usleep(100_000) }
                usleep(useconds_t(grace * 1_000_000))
                if let path = UnsafePointer<CChar>(bitPattern: Interruption.doomed.load(ordering: .sequentiallyConsistent)) { unlink(path) }
                let text = "blurkit: stopped: the step in flight could not be interrupted; nothing of it was kept\n"
                _ = text.withCString { write(2, $0, strlen($0)) }
                _exit(128 + (Interruption.signal ?? SIGINT))
            }
        }
        // A parent that spawned us from a thread with these signals blocked (Dispatch's workers block
        // them) passes that mask on: unblock them, or they would never arrive. After the handlers,
        // so that one already pending is taken by them, not by the default action.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// A one-line progress report on standard error, redrawn in place, only when standard error is a
/// terminal (logs stay clean) and the command is not `--quiet`.
struct ProgressLine {
    let enabled: Bool
    private var lastLength = 0

    init(quiet: Bool) { enabled = !quiet && isatty(2) == 1 }

    mutating func show(_ text: String) {
        guard enabled else { return }
        let padding = String(repeating: " ", count: max(0, lastLength - text.count))
        FileHandle.standardError.write(Data(("\r" + text + padding).utf8))
        lastLength = text.count
    }

    mutating func finish() {
        guard enabled, lastLength > 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        lastLength = 0
    }
}
