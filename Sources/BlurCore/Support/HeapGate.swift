#if !hasFeature(Embedded)
import Synchronization
#endif

/// The question a large allocation asks before it is made: would the process's heap pass its
/// ceiling with these bytes? A front end installs the answer (BlurKit's `HeapCeiling`); until one
/// does, and in WebAssembly, every allocation is admitted. The gate is what makes an estimate that
/// falls short fail safe: the allocation that would cross the ceiling is refused with a
/// ``BudgetError`` before it exists, instead of being made and the render stopped after it.
public enum HeapGate {
    /// Bytes below which an allocation is not asked about (rows of a band, tables, scratch): 4 MiB.
    public static let threshold = 4 << 20

    #if hasFeature(Embedded)
    /// What ``admit(_:)`` throws: nothing in WebAssembly, which has no ceiling.
    public typealias Refusal = Never

    /// WebAssembly has no ceiling: every allocation is admitted.
    @inline(__always)
    public static func admit(_ bytes: Int) throws(Refusal) {}
    #else
    /// What ``admit(_:)`` throws.
    public typealias Refusal = BudgetError

    /// What the gate answers for `bytes` more: nil to admit them, or the refusal.
    public typealias Answer = @Sendable (_ bytes: Int) -> BudgetError?

    private static let answer = Mutex<Answer?>(nil)

    /// From now on, allocations of ``threshold`` bytes or more are admitted by `answer` (nil: all).
    public static func install(_ answer: Answer?) { self.answer.withLock { $0 = answer } }

    /// Throws the ``BudgetError`` of the installed answer when `bytes` more would take the heap past
    /// its ceiling; admits anything below ``threshold`` without asking.
    @inline(__always)
    public static func admit(_ bytes: Int) throws(Refusal) {
        guard bytes >= threshold else { return }
        try ask(bytes)
    }

    private static func ask(_ bytes: Int) throws(BudgetError) {
        guard let answer = answer.withLock({ $0 }) else { return }
        if let refusal = answer(bytes) { throw refusal }
    }
    #endif
}
