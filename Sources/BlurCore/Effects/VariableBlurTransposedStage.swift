/// The progressive blur for the horizontal directions as a stage of the streaming chain: the image
/// turned a quarter (transposed, a tile at a time through cache), the vertical stage run over it
/// (``VariableBlurStage``: columns become rows, `.left` the unreversed `.down` and `.right` the
/// reversed `.up`), and the result turned back. Exact as the rows are: every column is the
/// Gaussian of its own σ, its dimming drawn per column.
///
/// A column's σ reaches every row, so the stage needs the whole image: it holds the input turned
/// and the vertical stage's output, and turns each band of output rows back as it is asked for (two
/// images; the chain around it still streams the decoding and the encoding).
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
        if result == nil {
            let source = try input.rows(0..<height)!
            // The turned input lives only while the vertical stage reads it.
            var across = Bitmap(validatedWidth: height, height: width, scale: scale)
            across.withMutablePixels { Kernels.transpose(source, columns: 0..<width, into: $0, parts: parts) }
            result = turned.run(across, parts: parts)
        }
        // Output row y is column y of the turned result.
        result!.withPixels { Kernels.transpose($0, columns: rows, into: output, parts: parts) }
    }

    func heldBytes(bandRows: Int) -> Int {
        2 * width * height * 4 + turned.heldBytes(bandRows: StreamingDefaults.bandRows(width: height))
    }

    func inputBytes(bandRows: Int) -> Int { width * height * 4 }
}
