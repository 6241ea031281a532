import Foundation

/// How an operation runs, beside its parameters: threads, a way to stop it, and (for a caller that
/// must clean up after a signal) the temporary file it is writing.
public struct RenderOptions: Sendable {
    /// Parts the work is split into; nil: all cores. The output is the same for any value.
    public var threads: Int?
    /// Asked between bands and frames, and inside them between the steps of any work that runs
    /// long (a blur's batches of rows, a scene's layers and their effects, the rows of an input
    /// decoded whole, the JPEG decoder's long calls): true stops the work with
    /// ``RenderError/cancelled(framesWritten:)``, within tens of milliseconds of turning true.
    /// Read back, it also says true while the heap is over ``heapCeiling``.
    public var cancelled: @Sendable () -> Bool {
        get {
            guard let stop = heapStop else { return given }
            let given = given
            return { given() || stop.stops() }
        }
        set { given = newValue }
    }
    /// `cancelled` as the caller gave it.
    private var given: @Sendable () -> Bool
    /// The process's heap ceiling (nil: none): past it, the render stops at its next checkpoint
    /// with the `BudgetError` that says so. `blurkit` and `blurkit serve` set it to the memory
    /// budget and the process's own allowance.
    public var heapCeiling: HeapCeiling? {
        get { heapStop?.ceiling }
        set { heapStop = newValue.map(HeapStop.init) }
    }
    /// This render's view of ``heapCeiling``.
    var heapStop: HeapStop?
    /// When the work must be done (nil: no time limit). `cancelled` should say true from then on;
    /// the deadline itself lets the codecs that cannot be interrupted (libheif's decoders and
    /// encoders) refuse up front, with an error saying how long they would take, what cannot
    /// finish in the time left.
    public var deadline: Date?
    /// Told the temporary file an output is being written to (nil when done), for a process that
    /// may have to remove it on a second signal.
    public var temporaryFile: (@Sendable (String?) -> Void)?
    /// Told the frames done and the total, for a progress line.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// The most bytes an output written to memory may take (nil: no limit). An uncompressed output
    /// known to be larger is refused before any row is decoded, any other as soon as the encoder
    /// passes it, with ``RenderError/outputTooLarge(bytes:limit:)``; the output in memory counts
    /// against the memory budget.
    public var maximumOutputBytes: Int?
    /// Formats a still may be written in instead, in order, when the one asked cannot hold its
    /// size (`ImageFormat/holds(width:height:)`: WebP past 16383 px): a format a server chose from
    /// `Accept`, with the others the client takes. Empty (the default): the one asked, or an error.
    public var fallbackFormats: [ImageFormat] = []

    /// Options as given; by default all cores, never cancelled, and the ceiling the front end chose
    /// (``HeapCeiling/process``).
    public init(
        threads: Int? = nil, cancelled: @escaping @Sendable () -> Bool = { false }, temporaryFile: (@Sendable (String?) -> Void)? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil, maximumOutputBytes: Int? = nil, deadline: Date? = nil
    ) {
        self.deadline = deadline
        self.maximumOutputBytes = maximumOutputBytes
        self.threads = threads
        self.given = cancelled
        self.heapStop = HeapCeiling.process.map(HeapStop.init)
        self.temporaryFile = temporaryFile
        self.progress = progress
    }
}

extension RenderOptions {
    /// The deadline and `cancelled`, as the codecs ask them.
    var cancellation: Cancellation { Cancellation(deadline: deadline, cancelled: cancelled) }

    /// Runs `body` (a render); an error after the heap ceiling stopped it becomes the
    /// ``BudgetError`` that says so.
    func heapGuarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            if let refusal = heapStop?.refusal { throw refusal }
            if case let .overHeapCeiling(refusal) = error as? BitmapError { throw refusal }
            throw error
        }
    }

    /// ``cancelled`` as the checkpoint the work asks: throws ``RenderError/cancelled(framesWritten:)``
    /// (no frame written) once it says stop.
    var checkpoint: () throws -> Void {
        let cancelled = cancelled
        return { if cancelled() { throw RenderError.cancelled(framesWritten: 0) } }
    }
}
