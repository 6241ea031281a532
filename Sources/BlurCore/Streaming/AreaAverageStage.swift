/// Area-average resizing as a stage of the chain: each output pixel the mean of the source area it
/// covers, partial pixels weighted by their overlap (see ``Bitmap/resized(width:height:)``, which
/// runs this stage). Rows of the source are read in chunks of at most ``chunkRows`` as an output
/// row gathers them, so shrinking a 6000-row image to 32 rows holds a chunk, not 190 rows.
package final class AreaAverageStage: RowStage {
    package let width: Int
    package let height: Int
    private let sourceWidth: Int
    private let rows: [[(Int, Float)]]
    private let columns: [[(Int, Float)]]

    /// Source rows read at a time.
    static let chunkRows = 32

    /// From `sourceWidth × sourceHeight` to `width × height` (each ≥ 1).
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        rows = AreaAverageStage.weights(from: sourceHeight, to: height)
        columns = AreaAverageStage.weights(from: sourceWidth, to: width)
    }

    /// Per output index: the source indices and weights along one axis.
    static func weights(from n: Int, to m: Int) -> [[(Int, Float)]] {
        let step = Double(n) / Double(m)
        return (0..<m).map { i in
            let a = Double(i) * step, b = Double(i + 1) * step
            var taps: [(Int, Float)] = []
            var k = Int(a)
            while Double(k) < b, k < n {
                let overlap = min(b, Double(k + 1)) - max(a, Double(k))
                if overlap > 0 { taps.append((k, Float(overlap / step))) }
                k += 1
            }
            return taps.isEmpty ? [(min(n - 1, Int(a)), Float(1))] : taps
        }
    }

    package func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        var line = [Float](repeating: 0, count: sourceWidth * 4)
        try line.withUnsafeMutableBufferPointer { acc in
            for y in rows {
                try row(y, from: input, accumulator: acc.baseAddress!, into: output.row(y))
            }
        }
    }

    /// Output row `y`: a weighted sum of source rows (over all channels at once, in the order of
    /// the taps), then of columns, rounded; colour never above alpha.
    private func row(_ y: Int, from input: RowWindow, accumulator acc: UnsafeMutablePointer<Float>, into o: UnsafeMutablePointer<UInt8>) throws {
        let count = sourceWidth * 4, taps = rows[y]
        for i in 0..<count { acc[i] = 0 }
        var t = 0
        while t < taps.count {
            let chunk = t..<min(taps.count, t + AreaAverageStage.chunkRows)
            let view = try input.rows(taps[chunk.lowerBound].0..<(taps[chunk.upperBound - 1].0 + 1))!
            for (row, weight) in taps[chunk] {
                let p = view.row(row)
                for i in 0..<count { acc[i] += Float(p[i]) * weight }
            }
            t = chunk.upperBound
        }
        for (x, taps) in columns.enumerated() {
            var sum = SIMD4<Float>.zero
            for (column, weight) in taps {
                let c = column * 4
                sum += SIMD4(acc[c], acc[c + 1], acc[c + 2], acc[c + 3]) * weight
            }
            let a = min(255, max(0, sum[3] + 0.5))
            o[x * 4 + 3] = UInt8(a)
            for c in 0..<3 { o[x * 4 + c] = UInt8(min(a.rounded(.down), max(0, sum[c] + 0.5))) }
        }
    }

    package func heldBytes(bandRows: Int) -> Int { sourceWidth * 16 }
    package func inputBytes(bandRows: Int) -> Int { (AreaAverageStage.chunkRows + 1) * sourceWidth * 4 }
}
