/// A stage over a source: itself a source, so that stages chain.
package final class StagedSource: RowSource {
    private let stage: any RowStage
    private let input: RowWindow
    private let upstream: any RowSource
    private let parts: Int?
    private let bandRows: Int

    /// - Parameters:
    ///   - parts: threads the stage may use for a band (nil: all cores). No byte depends on it.
    ///   - bandRows: the most rows one ``read(into:)`` asks for, for the memory estimate.
    ///   - checkpoint: asked between the steps of a stage's long work inside one band; what it
    ///     throws stops the work and is thrown by ``read(into:)`` (``RowWindow/checkpoint``).
    package init(
        _ stage: any RowStage, over upstream: any RowSource, parts: Int? = nil, bandRows: Int? = nil,
        checkpoint: @escaping () throws -> Void = {}
    ) {
        self.stage = stage
        self.upstream = upstream
        input = RowWindow(source: upstream)
        input.checkpoint = checkpoint
        self.parts = parts
        self.bandRows = bandRows ?? StreamingDefaults.bandRows(width: stage.width)
    }

    package var width: Int { stage.width }
    package var height: Int { stage.height }

    package func read(into rows: MutablePixelView) throws {
        try stage.produce(rows.rows, from: input, into: rows, parts: parts)
    }

    /// What the source before holds, the input window, and the stage's own rows: as allocated,
    /// or before the first row as the stage estimates them.
    package var heldBytes: Int {
        upstream.heldBytes + max(input.heldBytes, stage.inputBytes(bandRows: bandRows)) + stage.heldBytes(bandRows: bandRows)
    }
}

/// The rows of a bitmap as a source (copied out band by band): the start of a chain in memory.
package final class BitmapSource: RowSource {
    private let image: Bitmap
    package init(_ image: Bitmap) { self.image = image }
    package var width: Int { image.width }
    package var height: Int { image.height }
    package var heldBytes: Int { image.height * image.bytesPerRow }

    package func read(into rows: MutablePixelView) throws {
        image.withPixels { rows.copyRows(rows.rows, from: $0) }
    }
}

#if !hasFeature(Embedded)  // sources that read files throw untyped errors; WebAssembly reads none
extension RowSource {
    /// Every remaining row, pulled in bands of `bandRows`, as a bitmap — checked against
    /// `ImageLimits/memoryBudget` before it is allocated (``BudgetError``): a whole image held in
    /// memory (a turned JPEG, a scene's image, a blur-up's input) is budgeted like any job.
    /// `checkpoint` is asked before each band; what it throws stops the reading and is thrown.
    package func collect(bandRows: Int? = nil, scale: Double = 1, checkpoint: () throws -> Void = {}) throws -> Bitmap {
        try ImageLimits.checkBudget(width * height * 4, for: "holding a \(width)×\(height) image whole")
        let band = bandRows ?? StreamingDefaults.bandRows(width: width)
        return try Bitmap.filled(width: width, height: height, scale: scale) { pixels in
            var y = 0
            while y < height {
                try checkpoint()
                let rows = y..<min(height, y + band)
                try read(into: pixels.band(rows))
                y = rows.upperBound
            }
        }
    }
}
#endif
