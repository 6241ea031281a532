#if canImport(Glibc)
import Glibc
#endif

enum Memory {
    /// Asks the kernel to back a large, not yet touched allocation with huge pages. A fresh 96 MB
    /// image otherwise costs ~24,000 page faults on first write (tens of milliseconds: as much as the
    /// blur itself). Advice only: where the kernel says no, nothing changes.
    static func preferHugePages(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        let huge = 2 << 20
        guard let start, byteCount >= 2 * huge else { return }
        let first = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
        let last = (Int(bitPattern: start) + byteCount) & ~(huge - 1)
        guard last > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, last - first, MADV_HUGEPAGE)
        #endif
    }
}

extension Array where Element == Float {
    /// An array of `count` floats whose values the caller writes before reading (kernels'
    /// intermediate images): no zero fill, and huge pages where the kernel gives them.
    static func unfilled(count: Int) -> [Float] {
        // An empty array is the shared empty storage: initialising it would write to memory every
        // thread shares.
        guard count > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialised in
            Memory.preferHugePages(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: count * 4)
            initialised = count
        }
    }
}
