/// A stage's intermediate rows of floats (`length` a row), computed on demand in order and kept
/// while later requests still reach them: the pyramid's coarse rows, for one.
typealias FloatRows = WorkRows<Float>

/// A stage's intermediate rows (`length` elements a row), computed on demand in order and kept
/// while later requests still reach them.
final class WorkRows<Element> {
    private var store: RowStore<Element>
    var length: Int { store.length }
    /// The first row held, and the one after the last.
    var first: Int { store.first }
    var end: Int { store.end }

    /// Rows there are, when known: room grows by doubling up to them (``RowStore/reserve(upTo:limit:)``).
    private let count: Int?

    /// Rows of `length` elements, `count` of them in all when known.
    init(length: Int, count: Int? = nil) {
        store = RowStore(length: length)
        self.count = count
    }

    deinit { store.deallocate() }

    /// The most bytes held at once so far.
    var heldBytes: Int { store.mostHeld * length * MemoryLayout<Element>.stride }

    /// The rows of `wanted` not held yet: what ``ensure(_:compute:)`` would compute.
    func missing(_ wanted: Range<Int>) -> Range<Int> {
        max(store.end, wanted.lowerBound)..<max(store.end, wanted.upperBound)
    }

    /// Makes rows `wanted` available. Rows before `wanted.lowerBound` — or before `keep`, when
    /// another reader will still ask for those — are no longer needed (requests start in order);
    /// those not held from there on are made by `compute(rows, target)`, which writes `rows.count`
    /// rows from `target` on.
    func ensure(
        _ wanted: Range<Int>, keepingFrom keep: Int? = nil, compute: (Range<Int>, UnsafeMutablePointer<Element>) throws -> Void
    ) throws {
        let from = min(wanted.lowerBound, keep ?? wanted.lowerBound)
        precondition(from >= store.first, "rows \(wanted) of a window at \(store.first)")
        store.release(before: from, upTo: wanted.upperBound)
        try store.reserve(upTo: wanted.upperBound, limit: count)
        let new = missing(from..<wanted.upperBound)
        guard !new.isEmpty else { return }
        try compute(new, store.row(new.lowerBound))
        store.extend(to: new.upperBound)
    }

    /// Row `j`, one of those held.
    func row(_ j: Int) -> UnsafeMutablePointer<Element> {
        precondition(j >= store.first && j < store.end, "row \(j) outside \(store.first)..<\(store.end)")
        return store.row(j)
    }
}
