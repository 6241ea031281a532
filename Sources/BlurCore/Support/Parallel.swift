#if !hasFeature(Embedded)
import Dispatch
#endif

/// A pointer that may cross into `concurrentPerform`: the one place where the kernels promise the
/// compiler that concurrent writers touch disjoint parts of the memory.
struct SharedPointer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    init(_ base: UnsafeMutablePointer<Element>) { self.base = base }
}

enum Parallel {
    /// Splits `0..<count` into `parts` contiguous bands (nil: 16, more bands than this machine's
    /// cores so that uneven bands still balance; never more bands than `count`) and runs `body` on
    /// each — on the calling thread when there is one band, otherwise through Dispatch's
    /// `concurrentPerform`, which runs as many at once as there are cores. Callers make every band's
    /// result independent of the split, so the output does not depend on `parts`.
    static func forEachBand(count: Int, parts: Int?, _ body: @Sendable (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let bands = max(1, min(count, parts ?? 16))
        if bands == 1 { return body(0..<count) }
        #if hasFeature(Embedded)
        // One thread (WebAssembly): the bands in turn, each the same as on a thread of its own.
        for b in 0..<bands { body((count * b / bands)..<(count * (b + 1) / bands)) }
        #else
        DispatchQueue.concurrentPerform(iterations: bands) { b in
            body((count * b / bands)..<(count * (b + 1) / bands))
        }
        #endif
    }

    /// ``forEachBand(count:parts:_:)`` in steps of `rowsPerStep` rows (at least 1), `checkpoint`
    /// asked on the calling thread before each step: how a whole-image
    /// pass holds a deadline whatever the image's size. Every step splits its rows as the plain call
    /// would split them, so the bytes do not depend on the steps either.
    static func forEachBand(
        count: Int, parts: Int?, rowsPerStep: Int = 256, checkpoint: () throws -> Void, _ body: @Sendable (Range<Int>) -> Void
    ) throws {
        let step = max(1, rowsPerStep)
        var start = 0
        while start < count {
            try checkpoint()
            let first = start, end = min(count, start + step)
            forEachBand(count: end - first, parts: parts) { band in body((band.lowerBound + first)..<(band.upperBound + first)) }
            start = end
        }
    }
}
