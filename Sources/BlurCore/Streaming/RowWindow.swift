/// The input rows a stage reads: a window of consecutive rows of a source, read as they are first
/// asked for and dropped once a request starts after them. Over a whole image (``init(whole:)``)
/// it hands out the image itself.
package final class RowWindow {
    private let source: (any RowSource)?
    private let whole: PixelView?
    private var buffer: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private let rowBytes: Int
    /// The rows held: `first ..< end`.
    private var first = 0, end = 0

    /// A window over rows read from `source` in order.
    package init(source: any RowSource) {
        self.source = source
        whole = nil
        rowBytes = source.width * 4
    }

    /// A window over an image in memory: every request gets the whole view.
    package init(whole: PixelView) {
        source = nil
        self.whole = whole
        rowBytes = whole.width * 4
    }

    deinit { buffer?.deallocate() }

    /// The most bytes held at once so far.
    package var heldBytes: Int { capacity * rowBytes }

    /// When set, rows from this one on are kept even while requests start later: for a stage that
    /// reads ahead (through a source of its own) before it reads the rows it writes.
    package var keepFrom: Int?

    /// A view holding at least `wanted` (nil for none). Requests start in order: rows before
    /// `wanted.lowerBound` are dropped, rows after the last one held are read from the source.
    package func rows(_ wanted: Range<Int>?) throws -> PixelView? {
        guard let wanted, !wanted.isEmpty else { return nil }
        if let whole { return whole }
        let source = source!
        let keep = min(wanted.lowerBound, keepFrom ?? wanted.lowerBound)
        precondition(keep >= first && wanted.upperBound <= source.height, "rows \(wanted) of a window at \(first)")
        // Rows nobody will ask for again: skip what was never read, move what is kept to the front.
        if keep >= end {
            try skip(to: keep, of: source)
        } else if keep > first, keep - first >= end - keep || wanted.upperBound - first > capacity {
            // Dropped rows are moved out only once they outnumber the kept ones (or room is short),
            // so each row is moved at most about once.
            buffer!.update(from: buffer! + (keep - first) * rowBytes, count: (end - keep) * rowBytes)
            first = keep
        }
        reserve(wanted.upperBound - first)
        if wanted.upperBound > end {
            let band = MutablePixelView(
                base: buffer! + (end - first) * rowBytes, width: source.width, height: wanted.upperBound - end,
                bytesPerRow: rowBytes, firstRow: end)
            try source.read(into: band)
            end = wanted.upperBound
        }
        return PixelView(base: buffer!, width: source.width, height: end - first, bytesPerRow: rowBytes, firstRow: first)
    }

    /// Reads and drops rows up to `row`, a band at a time (or moves past them, when the source can).
    private func skip(to row: Int, of source: any RowSource) throws {
        if source.skip(to: row) {
            first = row
            end = row
            return
        }
        first = end
        let band = StreamingDefaults.bandRows(width: source.width)
        reserve(min(band, row - end))
        while end < row {
            let n = min(band, row - end, capacity)
            try source.read(into: MutablePixelView(base: buffer!, width: source.width, height: n, bytesPerRow: rowBytes, firstRow: end))
            end += n
        }
        first = row
    }

    private func reserve(_ rows: Int) {
        guard rows > capacity else { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * rowBytes)
        if let buffer {
            grown.update(from: buffer, count: (end - first) * rowBytes)
            buffer.deallocate()
        }
        buffer = grown
        capacity = rows
    }
}
