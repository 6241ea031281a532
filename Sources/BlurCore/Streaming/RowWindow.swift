/// The input rows a stage reads: a window of consecutive rows of a source, read as they are first
/// asked for and dropped once a request starts after them. Over a whole image (``init(whole:)``)
/// it hands out the image itself.
package final class RowWindow {
    private let source: (any RowSource)?
    private let whole: PixelView?
    private var store: RowStore<UInt8>

    /// A window over rows read from `source` in order.
    package init(source: any RowSource) {
        self.source = source
        whole = nil
        store = RowStore(length: source.width * 4)
    }

    /// A window over an image in memory: every request gets the whole view.
    package init(whole: PixelView) {
        source = nil
        self.whole = whole
        store = RowStore(length: whole.width * 4)
    }

    deinit { store.deallocate() }

    /// Whether the window is an image in memory (``init(whole:)``): a request of any size costs
    /// nothing and holds nothing.
    package var isWhole: Bool { whole != nil }

    /// The most bytes held at once so far.
    package var heldBytes: Int { store.mostHeld * store.length }

    /// Asked before every read from the source, and by a stage between the steps of work that runs
    /// long inside one band (a band that reaches far, or needs the whole image, before its first
    /// row): throws to stop the work, and what it throws comes out of the stage. The driver sets it:
    /// ``StagedSource``'s `checkpoint` in the streaming chain, ``RowStage/run(_:parts:bandRows:checkpoint:)``'s
    /// over an image in memory. The one way a long render is stopped from outside.
    package var checkpoint: () throws -> Void = {}

    /// The first `height` rows gathered into one bitmap at `scale`, a streaming band at a time
    /// (``forEachBand(of:_:)``: the checkpoint asked before each): what a stage that needs the whole
    /// image holds.
    package func gathered(height: Int, scale: Double) throws -> Bitmap {
        try HeapGate.admit(store.length * height)
        var image = Bitmap(validatedWidth: store.length / 4, height: height, scale: scale)
        try image.withMutablePixels { target in
            try forEachBand(of: height) { source in target.copyRows(source.rows, from: source) }
        }
        return image
    }

    /// Every one of the first `height` rows, read a streaming band at a time and handed to `body`
    /// (exactly that band's rows, numbered as the image is), the ``checkpoint`` asked before each:
    /// how a stage that needs the whole image before its first row gathers it, holding one band.
    package func forEachBand(of height: Int, _ body: (PixelView) throws -> Void) throws {
        let rows = StreamingDefaults.bandRows(width: store.length / 4)
        var y = 0
        while y < height {
            try checkpoint()
            let band = y..<min(height, y + rows)
            try body(try self.rows(band)!.band(band))
            y = band.upperBound
        }
    }

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
        precondition(keep >= store.first && wanted.upperBound <= source.height, "rows \(wanted) of a window at \(store.first)")
        // Rows nobody will ask for again: skip what was never read, let go of what was.
        if keep > store.end { try skip(to: keep, of: source) }
        store.release(before: keep, upTo: wanted.upperBound)
        try store.reserve(upTo: wanted.upperBound, limit: source.height)
        // A streaming band at a time, the checkpoint asked before each: a request may reach
        // thousands of rows ahead (a blur of σ 2000), which a decoder takes a second to make.
        let bandRows = StreamingDefaults.bandRows(width: source.width)
        while store.end < wanted.upperBound {
            try checkpoint()  // before each read from the source
            let n = min(bandRows, wanted.upperBound - store.end)
            let band = MutablePixelView(base: store.row(store.end), width: source.width, height: n, bytesPerRow: store.length, firstRow: store.end)
            try source.read(into: band)
            store.extend(to: store.end + n)
        }
        return PixelView(base: store.buffer!, width: source.width, height: store.end - store.first, bytesPerRow: store.length, firstRow: store.first)
    }

    /// Reads and drops the rows from the last one held up to `row`, a band at a time (or moves past
    /// them, when the source can).
    private func skip(to row: Int, of source: any RowSource) throws {
        store.release(before: store.end, upTo: store.end)
        if source.skip(to: row) {
            store.release(before: row, upTo: row)
            return
        }
        let band = StreamingDefaults.bandRows(width: source.width)
        while store.end < row {
            try checkpoint()
            let n = min(band, row - store.end)
            try store.reserve(upTo: store.end + n)
            try source.read(
                into: MutablePixelView(
                    base: store.row(store.first), width: source.width, height: n, bytesPerRow: store.length, firstRow: store.end))
            store.release(before: store.end + n, upTo: store.end + n)
        }
    }
}
