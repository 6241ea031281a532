/// Columns of an image each blurred by a σ of its own (pixels, below the pyramid's range), exactly:
/// every row is blurred across with each column's kernel, then each column gathers its neighbours
/// down with the same kernel, so column c is the 2-D Gaussian of σ[c]. Edges are clamped, across
/// to the line and down to the image. The direct columns of the horizontal progressive blur.
///
/// Rows blurred across are kept while later output rows reach them (a window of `2 × radius + 1`
/// and a band), so each input row is blurred across once.
final class GaussianColumns {
    /// The columns made, of a line `lineWidth` pixels wide.
    let columns: Range<Int>
    /// The largest kernel's reach, in pixels: how far any column reads across and down.
    let radius: Int
    private let lineWidth: Int
    private let height: Int
    /// `2 × radius + 1` rows of `columns.count × 4` weights: tap t of every column's kernel (offset
    /// t − radius), 0 beyond the column's own reach.
    private let weights: [Float]
    private let across: FloatRows

    /// - Parameters:
    ///   - sigmas: σ in pixels for each of `columns`; 0.2 or less leaves a column as it is.
    init(sigmas: [Double], columns: Range<Int>, lineWidth: Int, height: Int) {
        precondition(sigmas.count == columns.count, "one σ per column")
        self.columns = columns
        self.lineWidth = lineWidth
        self.height = height
        let kernels = sigmas.map { $0 > GaussianBlur.identityThreshold ? GaussianFastPath.halfKernel($0).map(Float.init) : [1] }
        let radius = max(1, kernels.map { $0.count - 1 }.max() ?? 1)
        self.radius = radius
        let n = columns.count * 4
        var weights = [Float](repeating: 0, count: (2 * radius + 1) * n)
        for (column, kernel) in kernels.enumerated() {
            for t in 0...(2 * radius) where abs(t - radius) < kernel.count {
                for c in 0..<4 { weights[t * n + column * 4 + c] = kernel[abs(t - radius)] }
            }
        }
        self.weights = weights
        across = FloatRows(length: n)
    }

    /// The rows that output rows `rows` gather blurred across.
    func inputRows(for rows: Range<Int>) -> Range<Int> {
        max(0, rows.lowerBound - radius)..<min(height, rows.upperBound + radius)
    }

    /// The first row not yet blurred across: the first input row still to be read.
    var next: Int { across.missing(0..<height).lowerBound }

    /// The most bytes held at once so far.
    var heldBytes: Int { across.heldBytes }

    /// Output rows `rows` as `rows.count × columns.count × 4` floats from `target.base` on. `read`
    /// gives a view holding the input rows asked for, and where the line's first pixel and its row
    /// 0 are in it.
    func produce(
        _ rows: Range<Int>, read: (Range<Int>) throws -> (view: PixelView, x: Int, y: Int), into target: SharedPointer<Float>,
        parts: Int?
    ) throws {
        let n = columns.count * 4, r = radius, height = height, lineWidth = lineWidth, columns = columns
        try weights.withUnsafeBufferPointer { weights in
            let w = SharedPointer(UnsafeMutablePointer(mutating: weights.baseAddress!))
            try across.ensure(inputRows(for: rows)) { new, into in
                let (view, x0, y0) = try read(new)
                let first = y0 + new.lowerBound, out = SharedPointer(into)
                Parallel.forEachBand(count: new.count, parts: parts) { band in
                    // The line's pixels the columns reach, clamped to it, as floats.
                    var line = [Float].unfilled(count: (columns.count + 2 * r) * 4)
                    line.withUnsafeMutableBufferPointer { line in
                        let padded = line.baseAddress!
                        let sources = (0...(2 * r)).map { UnsafePointer(padded + $0 * 4) }
                        let taps = (0...(2 * r)).map { UnsafePointer(w.base + $0 * n) }
                        for i in band {
                            let row = view.row(first + i) + x0 * 4
                            for p in 0..<(columns.count + 2 * r) {
                                let x = min(max(columns.lowerBound - r + p, 0), lineWidth - 1)
                                for c in 0..<4 { padded[p * 4 + c] = Float(row[x * 4 + c]) }
                            }
                            Kernels.weightedSum(count: n, weights: taps, sources: sources, into: out.base + i * n)
                        }
                    }
                }
            }
            let held = across.first, blurred = SharedPointer(across.row(held))
            Parallel.forEachBand(count: rows.count, parts: parts) { band in
                let taps = (0...(2 * r)).map { UnsafePointer(w.base + $0 * n) }
                for i in band {
                    let y = rows.lowerBound + i
                    let sources = (0...(2 * r)).map { t in UnsafePointer(blurred.base + (min(max(y + t - r, 0), height - 1) - held) * n) }
                    Kernels.weightedSum(count: n, weights: taps, sources: sources, into: target.base + i * n)
                }
            }
        }
    }
}
