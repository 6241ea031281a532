/// The progressive blur for the horizontal directions as a stage of the streaming chain: the image
/// turned a quarter (transposed, a tile at a time through cache), the vertical stage run over it
/// (``VariableBlurStage``: columns become rows, `.left` the unreversed `.down` and `.right` the
/// reversed `.up`), and the result turned back. Exact as the rows are: every column is the
/// Gaussian of its own σ, its dimming drawn per column.
///
/// A column's σ reaches every row, so the stage needs the whole image: it holds the input turned
/// and the vertical stage's output, and turns each band of output rows back as it is asked for (two
/// images; the chain around it still streams the decoding and the encoding). The first band does
/// the work, asking the input window's ``RowWindow/checkpoint`` between its bands, so a deadline
/// holds inside it.
final class VariableBlurTransposedStage: RowStage {
    let width: Int
    let height: Int
    /// The vertical stage over the turned image (`height × width`).
    private let turned: VariableBlurStage
    private var result: Bitmap?
    private let scale: Double

    init(effect: VariableBlurEffect, width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance, cache: GradientMaskCache) {
        precondition(!effect.direction.isVertical, "the vertical directions run VariableBlurStage itself")
        self.width = width
        self.height = height
        self.scale = scale
        var vertical = effect
        vertical.direction = effect.direction == .left ? .down : .up
        let turnedFrame = Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
        let lines = VariableBlurLines(
            effect: vertical, width: height, height: width, scale: scale, frame: turnedFrame, appearance: appearance, cache: cache)
        turned = VariableBlurStage(lines: lines, width: height, height: width)
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        if result == nil { result = try turnedResult(of: input, parts: parts) }
        // Output row y is column y of the turned result.
        result!.withPixels { Kernels.transpose($0, columns: rows, into: output, parts: parts) }
    }

    /// The vertical stage's output over the whole input turned: the input read a band at a time
    /// (each band's rows become columns of the turned image as they arrive, so decoding overlaps
    /// the turning and the input window holds one band), then the vertical stage a band at a time.
    /// `input`'s checkpoint is asked between bands.
    private func turnedResult(of input: RowWindow, parts: Int?) throws -> Bitmap {
        var across = Bitmap(validatedWidth: height, height: width, scale: scale)
        try across.withMutablePixels { target in
            try input.forEachBand(of: height) { source in
                // Rows y… of the input are pixels y… of every turned row.
                let columns = target.region(PixelRect(x: source.firstRow, y: 0, width: source.height, height: width))
                Kernels.transpose(source, columns: 0..<width, into: columns, parts: parts)
            }
        }
        var out = Bitmap(validatedWidth: height, height: width, scale: scale)
        let outputBand = StreamingDefaults.wholeImageBandRows(width: height)
        try across.withPixels { turnedInput in
            let window = RowWindow(whole: turnedInput)
            try out.withMutablePixels { target in
                var y = 0
                while y < width {
                    try input.checkpoint()
                    let band = y..<min(width, y + outputBand)
                    try turned.produce(band, from: window, into: target.band(band), parts: parts)
                    y = band.upperBound
                }
            }
        }
        return out
    }

    func heldBytes(bandRows: Int) -> Int {
        2 * width * height * 4 + turned.heldBytes(bandRows: StreamingDefaults.wholeImageBandRows(width: height))
    }

    func inputBytes(bandRows: Int) -> Int { StreamingDefaults.bandRows(width: width) * width * 4 }
}
