import CMemory
import Foundation
import Synchronization

/// The bytes the process's heap may reach while renders run, watched from their checkpoints: the
/// backstop behind every estimate. A render is admitted on its estimate (`ImageLimits`);
/// if an estimate falls short and the heap passes the ceiling, the next checkpoint of every render
/// that carries the ceiling stops it, and the render throws the `BudgetError` that says so, instead
/// of the process growing past its budget. The heap is what the C allocator has handed out and not
/// had back (every bitmap, plane, table, row and codec buffer), measured again at every look — a
/// high figure seen once keeps nothing out once the memory is given back.
public final class HeapCeiling: Sendable {
    /// Bytes.
    public let bytes: Int
    /// The last look (bytes in use, and when, in nanoseconds of the monotonic clock).
    private let seen = Atomic<Int>(0)
    private let seenAt = Atomic<UInt64>(0)

    /// The least time between two looks at the allocator: a look walks its free lists.
    package static let interval: UInt64 = 2_000_000

    /// How the heap is read: ``heapInUse()``, or a test's figures.
    private let measure: @Sendable () -> Int?

    /// A ceiling of `bytes`.
    public convenience init(bytes: Int) { self.init(bytes: bytes, measure: HeapCeiling.heapInUse) }

    /// A ceiling of `bytes` over the figures `measure` gives, read at every look (for tests).
    package init(bytes: Int, measure: @escaping @Sendable () -> Int?, interval: UInt64 = HeapCeiling.interval) {
        self.bytes = max(0, bytes)
        self.measure = measure
        self.interval = interval
    }

    /// The least time between two looks, in nanoseconds.
    private let interval: UInt64

    /// Bytes the C allocator holds for the process now; nil where it does not say.
    public static func heapInUse() -> Int? {
        let bytes = bk_heap_in_use()
        return bytes < 0 ? nil : Int(clamping: bytes)
    }

    /// The heap's bytes when it is over the ceiling, from a look at most a few milliseconds old; nil
    /// while under it (or where the heap cannot be read).
    public func overrun() -> Int? {
        let now = DispatchTime.now().uptimeNanoseconds
        var bytes = seen.load(ordering: .relaxed)
        if now &- seenAt.load(ordering: .relaxed) >= interval {
            guard let looked = measure() else { return nil }
            bytes = looked
            seen.store(looked, ordering: .relaxed)
            seenAt.store(now, ordering: .relaxed)
        }
        return bytes > self.bytes ? bytes : nil
    }

    /// How a refusal names the ceiling: not the budget itself, which it comes from.
    static let limitName = "the heap's ceiling (what --memory-budget leaves the heap once the process's own memory is counted)"

    /// The refusal of an allocation of `bytes` more, when the heap as it is now (looked at afresh)
    /// with them would pass the ceiling; nil to admit it (or where the heap cannot be read).
    public func refusal(adding bytes: Int) -> BudgetError? {
        guard let heap = measure() else { return nil }
        seen.store(heap, ordering: .relaxed)
        seenAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        let (total, overflow) = heap.addingReportingOverflow(bytes)
        guard overflow || total > self.bytes else { return nil }
        var refusal = BudgetError(
            job:
                "the render (refused \(BudgetError.megabytes(bytes)) MB more with the process's heap at \(BudgetError.megabytes(heap)) MB: an estimate fell short)",
            needed: overflow ? Int.max : total, budget: self.bytes)
        refusal.limit = HeapCeiling.limitName
        return refusal
    }
}

extension HeapCeiling {
    /// What ``process`` follows.
    private enum Chosen {
        case none
        /// The budget as it is at each look, and the allowance less `outside` bytes.
        case budget(outside: Int)
        case fixed(HeapCeiling)
    }
    private static let chosen = Mutex<(Chosen, HeapCeiling?)>((.none, nil))

    /// The bytes of a memory `budget` set aside for the process itself (its code, libraries, thread
    /// stacks and the allocator's slack) where renders share the budget (`serve`): 64 MB, at most a
    /// quarter of the budget.
    public static func processAllowance(budget: Int) -> Int { min(commandLineAllowance, budget / 4) }

    /// The resident bytes the command line may take beyond its `--memory-budget`: 64 MB for the
    /// process itself, whatever the budget.
    public static let commandLineAllowance = 64 << 20

    /// The process's resident bytes that are not the C allocator's (its code, libraries, stacks):
    /// resident memory less the heap in use, read now, and 16 MB for the code and stacks it pages in
    /// later (threads' first use, a codec's first call); nil where either cannot be read.
    public static func residentOutsideHeap() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }), let heap = heapInUse()
        else { return nil }
        return max(0, pages * Int(sysconf(Int32(_SC_PAGESIZE))) - heap) + (16 << 20)
    }

    /// The ceiling a ``RenderOptions`` takes unless given another: none in a library until a front
    /// end chooses one with ``ceilProcess(at:)`` or ``ceilProcessAtBudget()``.
    public static var process: HeapCeiling? {
        chosen.withLock { state in
            switch state.0 {
            case .none: return nil
            case let .fixed(ceiling): return ceiling
            case let .budget(outside):
                let budget = ImageLimits.memoryBudget
                let (sum, overflow) = budget.addingReportingOverflow(max(0, commandLineAllowance - outside))
                let bytes = overflow ? Int.max : sum
                if let kept = state.1, kept.bytes == bytes { return kept }
                let ceiling = HeapCeiling(bytes: bytes)
                state.1 = ceiling
                return ceiling
            }
        }
    }

    /// Every render from now on stops at `bytes` of heap (a server: its memory budget less what the
    /// process holds outside the heap, ``residentOutsideHeap()``).
    public static func ceilProcess(at bytes: Int) {
        chosen.withLock { $0 = (.fixed(HeapCeiling(bytes: bytes)), nil) }
        gateAllocations()
    }

    /// Every render from now on stops at `ImageLimits.memoryBudget` as it is then, with the
    /// command line's allowance (``commandLineAllowance``) on top less what the process holds
    /// outside the heap now (``residentOutsideHeap()``): its resident memory stays within the budget
    /// and the allowance.
    public static func ceilProcessAtBudget() {
        let outside = residentOutsideHeap() ?? 0
        chosen.withLock { $0 = (.budget(outside: outside), nil) }
        gateAllocations()
    }

    /// Large allocations of the engine (`HeapGate`: a streaming window's rows, a stage's whole
    /// image) ask ``process`` before they are made, and are refused with a ``BudgetError`` when they
    /// would take the heap past it.
    private static func gateAllocations() { HeapGate.install { bytes in HeapCeiling.process?.refusal(adding: bytes) } }
}

/// What one render's checkpoints saw of the ceiling: the heap's bytes when it stopped them.
final class HeapStop: Sendable {
    let ceiling: HeapCeiling
    private let reached = Atomic<Int>(0)

    init(_ ceiling: HeapCeiling) { self.ceiling = ceiling }

    /// True (and remembered) when the heap is over the ceiling.
    func stops() -> Bool {
        guard let bytes = ceiling.overrun() else { return false }
        _ = reached.compareExchange(expected: 0, desired: bytes, ordering: .relaxed)
        return true
    }

    /// The refusal for a render the ceiling stopped; nil when it did not.
    var refusal: BudgetError? {
        let bytes = reached.load(ordering: .relaxed)
        guard bytes > 0 else { return nil }
        var refusal = BudgetError(
            job: "the render (stopped when the process's heap passed its ceiling: an estimate fell short)", needed: bytes, budget: ceiling.bytes)
        refusal.limit = HeapCeiling.limitName
        return refusal
    }
}
