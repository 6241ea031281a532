import Synchronization

/// Process-wide limits checked before memory is allocated for an image.
///
/// Thread-safe: reads and writes are atomic. Decoders check them against the size a file's header
/// announces, so a small file that claims a huge picture (a decompression bomb) is refused before
/// any pixel memory exists.
public enum ImageLimits {
    /// The default pixel-count limit: 268 MP (16384 × 16384 = 2²⁸ pixels, 1 GiB of RGBA).
    public static let defaultMaximumPixelCount = 1 << 28

    private static let maximumPixels = Atomic<Int>(defaultMaximumPixelCount)

    /// The default memory budget for one job: 4 GiB.
    public static let defaultMemoryBudget = 4 << 30

    private static let budget = Atomic<Int>(defaultMemoryBudget)

    /// The most memory (bytes) one effect may need, by its own estimate, before it is refused with
    /// ``BudgetError``. Default 4 GiB; values < 1 are stored as 1.
    public static var memoryBudget: Int {
        get { budget.load(ordering: .relaxed) }
        set { budget.store(max(1, newValue), ordering: .relaxed) }
    }

    /// Throws when `bytes` exceeds ``memoryBudget``; `job` names the work in the message.
    public static func checkBudget(_ bytes: Int, for job: String) throws(BudgetError) {
        try checkBudget(bytes, within: memoryBudget, for: job)
    }

    /// Throws when `bytes` exceeds `limit` (a share of the budget, which the message says as one
    /// when it is less than the whole: several frames rendered at once each have theirs).
    package static func checkBudget(_ bytes: Int, within limit: Int, for job: String) throws(BudgetError) {
        guard bytes > limit else { return }
        var error = BudgetError(job: job, needed: bytes, budget: limit)
        if limit < memoryBudget { error.whole = memoryBudget }
        throw error
    }

    /// The largest `width × height` a ``Bitmap`` may have (and an animation's frames together).
    /// Default 268,435,456 (2²⁸). Values < 1 are stored as 1. Inside
    /// ``withMaximumPixelCount(_:_:)`` the scoped value applies instead.
    public static var maximumPixelCount: Int {
        get { scopedMaximum.get() ?? maximumPixels.load(ordering: .relaxed) }
        set { maximumPixels.store(max(1, newValue), ordering: .relaxed) }
    }

    private static let scopedMaximum = TaskLocal<Int?>(wrappedValue: nil)

    /// Runs `body` with a pixel-count limit for this task only (a server's per-request limit, a
    /// test's), leaving other threads' limit alone.
    public static func withMaximumPixelCount<R>(_ limit: Int, _ body: () throws -> R) rethrows -> R {
        try scopedMaximum.withValue(max(1, limit)) { try body() }
    }
}

/// An effect would need more memory than ``ImageLimits/memoryBudget`` allows.
public struct BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The work refused, as the message names it.
    public let job: String
    /// Bytes, the effect's estimate.
    public let needed: Int
    /// Bytes, the budget in force when it was checked.
    public let budget: Int
    /// What the budget is, as the message names it: `the memory budget` unless said (a heap
    /// ceiling, which the budget sets but which is not the budget itself).
    public var limit = "the memory budget"
    /// Bytes, the whole budget when ``budget`` was a share of it (a frame's, when several are
    /// rendered at once); nil when it was the whole.
    public var whole: Int?

    /// The refusal as one line of text, sizes in MB rounded up.
    public var description: String {
        let over =
            whole.map { "its share of \(limit), \(BudgetError.megabytes(budget)) of \(BudgetError.megabytes($0)) MB" }
            ?? "\(limit) of \(BudgetError.megabytes(budget)) MB"
        return "\(job) needs about \(BudgetError.megabytes(needed)) MB, over " + over
    }

    /// A refusal of `job`, which needs `needed` bytes against `budget`.
    public init(job: String, needed: Int, budget: Int) {
        (self.job, self.needed, self.budget) = (job, needed, budget)
    }

    package static func megabytes(_ bytes: Int) -> Int { (bytes >> 20) + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1) }
}
