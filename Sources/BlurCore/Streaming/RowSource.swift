/// A producer of an image's rows, top to bottom, as premultiplied RGBA8: a decoder, a bitmap, or
/// a stage of the chain over another source (``StagedSource``).
///
/// The chain is pulled: a sink asks the last source for a band of rows, each stage asks the one
/// before it for the rows it reaches, so each stage holds only a window of rows, never the image
/// (ARCHITECTURE.md, "Streaming").
package protocol RowSource: AnyObject {
    /// Pixels a row (≥ 1).
    var width: Int { get }
    /// Rows in all (≥ 1).
    var height: Int { get }
    /// Writes the next `rows.height` rows into `rows`, whose ``MutablePixelView/firstRow`` is the
    /// number of the first of them: the row after the last one read. Reads never go back.
    func read(into rows: MutablePixelView) throws
    /// The most bytes this source, and those it reads from, hold at once: the memory estimate.
    var heldBytes: Int { get }
    /// Moves past rows up to `row` without making them, when the source can (one that reads a
    /// window in memory): true; false when they must be read (a decoder).
    func skip(to row: Int) -> Bool
}

extension RowSource {
    package func skip(to row: Int) -> Bool { false }
}

/// One step of the chain: output rows made from a window of input rows, both in order.
///
/// A stage makes each output row by the same operations whatever band it falls in and however the
/// bands are split among threads, so ``Bitmap``'s whole-image API (``run(_:parts:)``) and the
/// streaming chain give the same bytes.
package protocol RowStage: AnyObject {
    /// The output's size; the input's is the stage's to know.
    var width: Int { get }
    var height: Int { get }
    /// Writes output `rows` (the next ones after the last call's) into `output` (numbered as the
    /// image is), asking `input` for the input rows it reads as it goes — never before rows it
    /// asked for earlier. `parts`: how many threads may share the work (nil: as many as suit the
    /// cores). Throws what the input's source throws.
    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws
    /// The most bytes the stage holds between calls (its windows of intermediate rows) for bands of
    /// at most `bandRows` rows.
    func heldBytes(bandRows: Int) -> Int
    /// The most bytes of input rows it asks its window for at once, for bands of `bandRows` rows.
    func inputBytes(bandRows: Int) -> Int
    /// Over an image in memory, writes the whole output into `output` at once and returns true; or
    /// returns false (the default), and ``run(_:parts:bandRows:checkpoint:)`` asks for it band by
    /// band. For a stage that needs its whole input before its first row anyway: it writes the
    /// output where it lies rather than holding a copy. It asks `checkpoint` between its steps and
    /// throws what that throws.
    func produceWhole(from input: PixelView, into output: MutablePixelView, parts: Int?, checkpoint: @escaping () throws -> Void) throws -> Bool
}

extension RowStage {
    package func produceWhole(
        from input: PixelView, into output: MutablePixelView, parts: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bool { false }

    /// The stage over a whole image in memory: the driver of the whole-image API. Bands of
    /// ``StreamingDefaults/wholeImageBandRows(width:)`` rows, each produced from the image itself, no copy.
    /// The result's scale keeps the point size (it changes with the width, for a resizing stage).
    /// `checkpoint` is asked before each band and by the stage inside one (``RowWindow/checkpoint``);
    /// what it throws stops the work and is thrown. Nothing else throws.
    package func run(_ image: Bitmap, parts: Int?, bandRows: Int? = nil, checkpoint: @escaping () throws -> Void) throws -> Bitmap {
        try HeapGate.admit(width * height * 4)
        var out = Bitmap(validatedWidth: width, height: height, scale: image.scale * Double(width) / Double(image.width))
        let band = bandRows ?? StreamingDefaults.wholeImageBandRows(width: width)
        try image.withPixels { source in
            let input = RowWindow(whole: source)
            input.checkpoint = checkpoint
            try out.withMutablePixels { target in
                if try produceWhole(from: source, into: target, parts: parts, checkpoint: checkpoint) { return }
                var y = 0
                while y < height {
                    try checkpoint()
                    let rows = y..<min(height, y + band)
                    try produce(rows, from: input, into: target.band(rows), parts: parts)
                    y = rows.upperBound
                }
            }
        }
        return out
    }

    /// ``run(_:parts:bandRows:checkpoint:)`` never stopped: for the whole-image API that has no
    /// way to be cancelled (a window over memory throws nothing else).
    package func run(_ image: Bitmap, parts: Int?, bandRows: Int? = nil) -> Bitmap {
        try! run(image, parts: parts, bandRows: bandRows, checkpoint: {})
    }
}

/// How the chain cuts an image into bands. None of it changes a byte of the output.
package enum StreamingDefaults {
    /// Rows a band: about 1 MiB of pixels, 16 … 64 rows: small enough to stay in cache between
    /// stages, large enough that a band's work is worth sharing among threads.
    package static func bandRows(width: Int) -> Int {
        max(16, min(64, (1 << 20) / max(1, width * 4)))
    }

    /// Rows a band when the whole image is in memory (``RowStage/run(_:parts:bandRows:)``): about
    /// 4 MiB, 16 … 256 rows. Four times fewer hand-offs between threads than the streaming bands
    /// (whose size keeps the chain's memory down): 10–20 % faster at 6000×4000, σ 1…24.
    package static func wholeImageBandRows(width: Int) -> Int {
        max(16, min(256, (1 << 22) / max(1, width * 4)))
    }

    /// Bytes `stages` hold run one after another over an image in memory
    /// (``RowStage/run(_:parts:bandRows:checkpoint:)``): each stage's rows and plans at the
    /// whole-image band, and the output it makes.
    package static func workingBytes(of stages: [any RowStage]) -> Int {
        stages.reduce(0) { total, stage in
            let held = stage.heldBytes(bandRows: wholeImageBandRows(width: stage.width))
            let (withOutput, first) = held.addingReportingOverflow(stage.width * stage.height * 4)
            let (sum, second) = total.addingReportingOverflow(withOutput)
            return first || second ? .max : sum
        }
    }
}
