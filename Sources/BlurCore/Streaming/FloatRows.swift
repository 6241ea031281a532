/// A stage's intermediate rows of floats (`length` a row), computed on demand in order and kept
/// while later requests still reach them: the pyramid's coarse rows, for one.
final class FloatRows {
    let length: Int
    private var buffer: UnsafeMutablePointer<Float>?
    private var capacity = 0
    /// The rows held: `first ..< end`.
    private(set) var first = 0, end = 0

    init(length: Int) { self.length = length }

    deinit { buffer?.deallocate() }

    /// The most bytes held at once so far.
    var heldBytes: Int { capacity * length * 4 }

    /// The rows of `wanted` not held yet: what ``ensure(_:compute:)`` would compute.
    func missing(_ wanted: Range<Int>) -> Range<Int> {
        max(end, wanted.lowerBound)..<max(end, wanted.upperBound)
    }

    /// Makes rows `wanted` available. Rows before `wanted.lowerBound` are dropped (requests start in
    /// order); those not held are made by `compute(rows, target)`, which writes `rows.count` rows
    /// from `target` on.
    func ensure(_ wanted: Range<Int>, compute: (Range<Int>, UnsafeMutablePointer<Float>) throws -> Void) rethrows {
        precondition(wanted.lowerBound >= first, "rows \(wanted) of a window at \(first)")
        if wanted.lowerBound >= end {
            first = wanted.lowerBound
            end = wanted.lowerBound
        } else if wanted.lowerBound > first {
            buffer!.update(from: buffer! + (wanted.lowerBound - first) * length, count: (end - wanted.lowerBound) * length)
            first = wanted.lowerBound
        }
        let needed = wanted.upperBound - first
        if needed > capacity {
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: needed * length)
            if let buffer {
                grown.update(from: buffer, count: (end - first) * length)
                buffer.deallocate()
            }
            buffer = grown
            capacity = needed
        }
        let new = missing(wanted)
        guard !new.isEmpty else { return }
        try compute(new, buffer! + (new.lowerBound - first) * length)
        end = new.upperBound
    }

    /// Row `j`, one of those held.
    func row(_ j: Int) -> UnsafeMutablePointer<Float> {
        precondition(j >= first && j < end, "row \(j) outside \(first)..<\(end)")
        return buffer! + (j - first) * length
    }
}
