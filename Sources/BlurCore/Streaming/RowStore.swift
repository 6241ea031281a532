#if canImport(Glibc)
import Glibc
#endif

/// Consecutive rows `first ..< end` of `length` elements each in one buffer, grown as needed: the
/// storage behind ``RowWindow`` (bytes) and ``FloatRows`` (floats). Its owner deallocates it.
struct RowStore<Element> {
    let length: Int
    private(set) var buffer: UnsafeMutablePointer<Element>?
    /// Rows the buffer has room for, from `first` on.
    private(set) var capacity = 0
    /// The rows held.
    private(set) var first = 0, end = 0
    /// The most rows held at once so far: those of the buffer ever written (room reserved beyond
    /// them is never touched, so it takes no memory).
    private(set) var mostHeld = 0

    init(length: Int) { self.length = length }

    /// Rows before `keep` are no longer needed. None held after it: the store starts empty at
    /// `keep`. Otherwise they are moved out only once they outnumber the kept rows, or when the
    /// rows up to `upTo` would not fit: each row is moved at most about once.
    mutating func release(before keep: Int, upTo: Int) {
        if keep >= end {
            first = keep
            end = keep
        } else if keep > first, keep - first >= end - keep || upTo - first > capacity {
            Self.move(end - keep, rowsFrom: buffer! + (keep - first) * length, to: buffer!, length: length)
            first = keep
        }
    }

    /// Room for the rows up to `upTo` (from `first`), keeping those held. A store that must grow
    /// takes up to twice its room, never past `limit` (the rows there are; nil: `upTo`), so a window
    /// that grows by a band at a time towards a whole image moves its rows a few times, not once a
    /// band (at 6000 × 6000 that was 40 % of a progressive blur's time at the largest radius).
    ///
    /// With a C library the buffer grows by `realloc`: past glibc's mmap threshold its pages are
    /// remapped, not copied, so the old room and the new are never both in memory (allocated and
    /// moved, a window growing towards a whole image held both: twice its rows at the step, σ 2000
    /// over 16384² reached 711 MB against the 359 MB its rows take). Growth is then by a quarter, so
    /// room reserved and not yet used stays small beside what is held.
    ///
    /// - Throws: the ``BudgetError`` of ``HeapGate`` when the growth would take the heap past its
    ///   ceiling; the rows held are kept.
    mutating func reserve(upTo: Int, limit: Int? = nil) throws(HeapGate.Refusal) {
        let rows = upTo - first
        guard rows > capacity else { return }
        #if canImport(Glibc)
        let room = max(rows, min(capacity + capacity / 4, (limit ?? upTo) - first))
        let bytes = room * length * MemoryLayout<Element>.stride
        try HeapGate.admit(bytes - capacity * length * MemoryLayout<Element>.stride)
        guard let grown = realloc(buffer.map { UnsafeMutableRawPointer($0) }, max(1, bytes)) else {
            fatalError("out of memory: \(bytes) bytes for rows")
        }
        buffer = grown.bindMemory(to: Element.self, capacity: room * length)
        #else
        let room = max(rows, min(2 * capacity, (limit ?? upTo) - first))
        try HeapGate.admit(room * length * MemoryLayout<Element>.stride)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: room * length)
        if let buffer {
            Self.move(end - first, rowsFrom: buffer, to: grown, length: length)
            buffer.deallocate()
        }
        buffer = grown
        #endif
        capacity = room
    }

    /// `rows` rows of `length` elements from `source` to `target` (which may overlap): one memmove.
    private static func move(_ rows: Int, rowsFrom source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>, length: Int) {
        UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: rows * length * MemoryLayout<Element>.stride)
    }

    /// Rows up to `newEnd` are now held (the caller has written them).
    mutating func extend(to newEnd: Int) {
        end = newEnd
        mostHeld = max(mostHeld, end - first)
    }

    /// Where row `j` is (`first ≤ j`, within the room reserved).
    func row(_ j: Int) -> UnsafeMutablePointer<Element> { buffer! + (j - first) * length }

    func deallocate() {
        #if canImport(Glibc)
        free(buffer)
        #else
        buffer?.deallocate()
        #endif
    }
}
