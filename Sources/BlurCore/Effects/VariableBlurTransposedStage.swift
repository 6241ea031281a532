/// The progressive blur for the horizontal directions as a stage of the streaming chain: the
/// vertical stage (``VariableBlurStage``) run over the input's columns as rows (`.left` the
/// unreversed `.down`, `.right` the reversed `.up`), which it reads through a window that turns
/// them a band at a time (``TurnedRows``, a tile transpose through cache), each band of its output
/// turned back into the output's columns. Exact as the rows are: every column is the Gaussian of
/// its own σ, its dimming drawn per column.
///
/// A column's σ reaches every row, so the stage needs the whole image. Over an image in memory it
/// writes the output where it lies (``produceWhole(from:into:parts:checkpoint:)``); in the streaming chain it
/// gathers the input a band at a time into one image and writes the output over it (a column is
/// read through the window before it is written), then hands out its rows. The first band does the
/// work, asking the input window's ``RowWindow/checkpoint`` between its bands, so a deadline holds
/// inside it.
final class VariableBlurTransposedStage: RowStage {
    let width: Int
    let height: Int
    /// The vertical stage over the turned image (`height × width`).
    private let turned: VariableBlurStage
    /// The streaming chain's: the input gathered, then the output in its place.
    private var result: Bitmap?
    private let scale: Double
    /// Turned rows (the output's columns) made at a time.
    private let bandColumns: Int

    init(effect: VariableBlurEffect, width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance, cache: GradientMaskCache) {
        precondition(!effect.direction.isVertical, "the vertical directions run VariableBlurStage itself")
        self.width = width
        self.height = height
        self.scale = scale
        bandColumns = min(width, StreamingDefaults.wholeImageBandRows(width: height))
        var vertical = effect
        vertical.direction = effect.direction == .left ? .down : .up
        let turnedFrame = Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
        turned = VariableBlurStage(
            plan: .cached(vertical, width: height, height: width, scale: scale, frame: turnedFrame, appearance: appearance, cache: cache))
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        if result == nil {
            var image = try input.gathered(height: height, scale: scale)
            try image.withMutablePixels { target in
                try render(target.readOnly, into: target, checkpoint: input.checkpoint, parts: parts)
            }
            result = image
        }
        result!.withPixels { output.copyRows(rows, from: $0) }
    }

    func produceWhole(
        from input: PixelView, into output: MutablePixelView, parts: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bool {
        try render(input, into: output, checkpoint: checkpoint, parts: parts)
        return true
    }

    /// The effect over `source` (the whole input, rows from 0) into `target`, which may be
    /// `source`'s own memory: the output's columns are written a band at a time, each after the
    /// window has read the input's columns up to its end (the vertical stage asks for a band's own
    /// rows), and the window never reads back. `checkpoint` is asked before each band and is the
    /// turned window's, so the vertical stage asks it inside a band too: the first band of the
    /// largest radius reaches every column.
    private func render(_ source: PixelView, into target: MutablePixelView, checkpoint: @escaping () throws -> Void, parts: Int?) throws {
        let window = RowWindow(source: TurnedRows(source, parts: parts))
        window.checkpoint = checkpoint
        try HeapGate.admit(height * bandColumns * 4)
        var band = Bitmap(validatedWidth: height, height: bandColumns, scale: scale)
        try band.withMutablePixels { buffer in
            var x = 0
            while x < width {
                try checkpoint()
                let columns = x..<min(width, x + bandColumns)
                let turnedRows = MutablePixelView(
                    base: buffer.base, width: height, height: columns.count, bytesPerRow: buffer.bytesPerRow, firstRow: columns.lowerBound)
                try turned.produce(columns, from: window, into: turnedRows, parts: parts)
                // Turned rows `columns` are the target's columns `columns`.
                let into = target.region(PixelRect(x: columns.lowerBound, y: 0, width: columns.count, height: height))
                Kernels.transpose(turnedRows.readOnly, columns: 0..<height, into: into, parts: parts)
                x = columns.upperBound
            }
        }
    }

    /// The image the streaming chain gathers, one band of turned rows, and the vertical stage's
    /// window and its own.
    func heldBytes(bandRows: Int) -> Int {
        width * height * 4 + bandColumns * height * 4 + turned.inputBytes(bandRows: bandColumns) + turned.heldBytes(bandRows: bandColumns)
    }

    func inputBytes(bandRows: Int) -> Int { StreamingDefaults.bandRows(width: width) * width * 4 }
}
