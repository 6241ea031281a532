/// How an operation runs, beside its parameters: threads, a way to stop it, and (for a caller that
/// must clean up after a signal) the temporary file it is writing.
public struct RenderOptions: Sendable {
    /// Parts the work is split into; nil: all cores. The output is the same for any value.
    public var threads: Int?
    /// Asked between bands and frames: true stops the work with ``RenderError/cancelled(framesWritten:)``.
    public var cancelled: @Sendable () -> Bool
    /// Told the temporary file an output is being written to (nil when done), for a process that
    /// may have to remove it on a second signal.
    public var temporaryFile: (@Sendable (String?) -> Void)?
    /// Told the frames done and the total, for a progress line.
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// Options as given; by default all cores, never cancelled.
    public init(
        threads: Int? = nil, cancelled: @escaping @Sendable () -> Bool = { false }, temporaryFile: (@Sendable (String?) -> Void)? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
        self.threads = threads
        self.cancelled = cancelled
        self.temporaryFile = temporaryFile
        self.progress = progress
    }
}
