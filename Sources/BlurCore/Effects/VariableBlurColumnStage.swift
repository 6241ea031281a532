/// The progressive blur drawn over a backdrop as a stage of the streaming chain, for the horizontal
/// directions (each column its own σ): what
/// ``VariableBlurEffect/render(over:frame:appearance:cache:threads:)`` runs over the whole image.
///
/// The vertical stage's steps turned a quarter, with no image turned:
/// - pyramid levels as for rows (``VariableGaussianBlur/plan(_:lowest:)``), each a ``PyramidLevel`` over the
///   columns that compute on it, widened by the level's reach so that the span's own edges change
///   none of them;
/// - every blurred coarse row of a level is upsampled across once, each column through its own
///   kernel: the B-spline and the column's residual blur folded into one;
/// - an output row gathers those rows down, each column with its own weights (the B-spline's
///   phase and the column's residual, folded likewise), is rounded once, then dimmed;
/// - columns below the pyramid's range are exact, each the 2-D Gaussian of its own σ
///   (``GaussianColumns``).
/// The levels read the region where it lies in this stage's input window, which keeps every row a
/// level, or the direct columns, have still to read.
final class VariableBlurColumnStage: RowStage {
    let width: Int
    let height: Int
    /// The region, each line's σ and pyramid level, and the dimming: what the stage draws.
    private let lines: VariableBlurLines
    /// Per level: nil when no column computes on it.
    private let levels: [Level?]
    private let direct: GaussianColumns?
    /// The current band's floats of the direct columns, reused from band to band.
    private var directFloats: UnsafeMutableBufferPointer<Float>

    private final class Level {
        let level: PyramidLevel
        /// The region's columns the level makes (from its first user to its last), and the span of
        /// region columns it reads (those widened by its reach).
        let columns: Range<Int>
        let span: Range<Int>
        /// Across: per column, the first blurred coarse sample it reads and `taps` weights.
        let starts: [Int]
        let weights: [Float]
        let taps: Int
        /// The blurred coarse rows upsampled across to `columns`.
        let upsampled: FloatRows
        /// Down: per distinct B-spline phase, `taps` rows of one weight a column; per region row, its
        /// phase and the first blurred coarse row it reads.
        let phases: [[Float]]
        let phaseOf: [Int]
        let firstRow: [Int]

        init(sigma: Double, margin: Int, users: ClosedRange<Int>, residual: [Double], on: [Bool], region: PixelRect) {
            let reach = PyramidPlan.reach(sigma, margin: margin)
            columns = users.lowerBound..<(users.upperBound + 1)
            span = max(0, users.lowerBound - reach)..<min(region.width, users.upperBound + 1 + reach)
            level = PyramidLevel(
                sigma: sigma, margin: margin, region: PixelRect(x: region.x + span.lowerBound, y: region.y, width: span.count, height: region.height))
            let plan = level.plan, span = span
            taps = plan.x.upsample.width + 2 * margin
            /// The residual of region column `c` (none for a column of another level in between).
            func r(_ c: Int) -> Double { on[c] ? residual[c] : 0 }
            var starts: [Int] = [], weights: [Float] = []
            for c in columns {
                let x = c - span.lowerBound, up = plan.x.upsample
                starts.append(up.starts[x])
                weights += VariableGaussianBlur.composite(
                    bspline: up.weights[(x * up.width)..<(x * up.width + up.width)], residual: r(c), margin: margin)
            }
            self.starts = starts
            self.weights = weights
            upsampled = FloatRows(length: columns.count * 4)
            var phases: [[Float]] = [], keys: [[Float]: Int] = [:], phaseOf: [Int] = [], firstRow: [Int] = []
            let up = plan.y.upsample, taps = taps, columns = columns
            for row in 0..<region.height {
                let bspline = Array(up.weights[(row * up.width)..<(row * up.width + up.width)])
                firstRow.append(up.starts[row])
                if let phase = keys[bspline] {
                    phaseOf.append(phase)
                    continue
                }
                var table = [Float](repeating: 0, count: taps * columns.count)
                for (i, c) in columns.enumerated() {
                    let kernel = VariableGaussianBlur.composite(bspline: bspline[...], residual: r(c), margin: margin)
                    for t in 0..<taps { table[t * columns.count + i] = kernel[t] }
                }
                keys[bspline] = phases.count
                phaseOf.append(phases.count)
                phases.append(table)
            }
            self.phases = phases
            self.phaseOf = phaseOf
            self.firstRow = firstRow
        }

        /// The blurred coarse rows region rows `rows` gather.
        func coarseRows(for rows: Range<Int>) -> Range<Int> { firstRow[rows.lowerBound]..<(firstRow[rows.upperBound - 1] + taps) }

        /// Makes the upsampled rows that region rows `rows` gather, reading from `input`.
        func ensure(_ rows: Range<Int>, from input: RowWindow, parts: Int?) throws {
            let wanted = coarseRows(for: rows)
            try level.ensure(wanted, from: input, parts: parts)
            let rowFloats = level.plan.x.blurredCount * 4, n = columns.count * 4
            let (starts, weights, taps) = (starts, weights, taps)
            upsampled.ensure(wanted) { new, target in
                let from = SharedPointer(level.row(new.lowerBound)), into = SharedPointer(target)
                Parallel.forEachBand(count: new.count, parts: parts) { band in
                    starts.withUnsafeBufferPointer { starts in
                        weights.withUnsafeBufferPointer { weights in
                            for j in band {
                                Kernels.resamplePixels(
                                    from.base + j * rowFloats, starts: starts, weights: weights.baseAddress!, width: taps, into: into.base + j * n)
                            }
                        }
                    }
                }
            }
        }

        var heldBytes: Int { level.heldBytes + upsampled.heldBytes }
    }

    init(lines: VariableBlurLines, width: Int, height: Int) {
        self.width = width
        self.height = height
        let (region, sigmas, blurs, plan) = (lines.region, lines.sigmas, lines.blurs, lines.plan)
        self.lines = lines
        let margins = plan.margins
        levels = plan.levels.indices.map { k -> Level? in
            guard blurs, let first = plan.levelOf.firstIndex(of: k), let last = plan.levelOf.lastIndex(of: k) else { return nil }
            return Level(
                sigma: plan.levels[k], margin: margins[k], users: first...last, residual: plan.residual, on: plan.levelOf.map { $0 == k },
                region: region)
        }
        if blurs, let first = plan.levelOf.firstIndex(where: { $0 < 0 }), let last = plan.levelOf.lastIndex(where: { $0 < 0 }) {
            direct = GaussianColumns(
                sigmas: (first...last).map { plan.levelOf[$0] < 0 ? sigmas[$0] : 0 }, columns: first..<(last + 1),
                lineWidth: region.width, height: region.height)
        } else {
            direct = nil
        }
        directFloats = .init(start: nil, count: 0)
    }

    deinit { directFloats.deallocate() }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let (width, region, blurs, levelOf, lines) = (width, lines.region, lines.blurs, lines.plan.levelOf, lines)
        // Keep every row a level or the direct columns still have to read, and the band's own.
        let pending = levels.compactMap { $0?.level.nextInputRow } + (direct.map { [$0.next] } ?? [])
        input.keepFrom = min(rows.lowerBound, region.y + (pending.min() ?? region.height))
        defer { input.keepFrom = nil }
        let inside = lines.regionRows(of: rows)
        let blurring = blurs && !inside.isEmpty

        // Each level's upsampled rows for the band's region rows, and the direct columns' floats.
        var made: [(base: SharedPointer<Float>, first: Int)?] = levels.map { _ in nil }
        if blurring {
            for (k, level) in levels.enumerated() {
                guard let level else { continue }
                try level.ensure(inside, from: input, parts: parts)
                let first = level.coarseRows(for: inside).lowerBound
                made[k] = (SharedPointer(level.upsampled.row(first)), first)
            }
            if let direct {
                if directFloats.count < inside.count * direct.columns.count * 4 {
                    directFloats.deallocate()
                    directFloats = .allocate(capacity: inside.count * direct.columns.count * 4)
                }
                try direct.produce(
                    inside,
                    read: { wanted in (try input.rows((region.y + wanted.lowerBound)..<(region.y + wanted.upperBound))!, region.x, region.y) },
                    into: SharedPointer(directFloats.baseAddress!), parts: parts)
            }
        }

        let view = try input.rows(rows)!
        // Per level: its columns, its tables down and where each region row starts in them.
        let shapes = levels.map { $0.map { (columns: $0.columns, phases: $0.phases, phaseOf: $0.phaseOf, firstRow: $0.firstRow, taps: $0.taps) } }
        let directColumns = direct?.columns, directBase = directFloats.baseAddress.map(SharedPointer.init)
        let levelRows = made
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var line = [Float].unfilled(count: region.width * 4), gathered = [Float].unfilled(count: region.width * 4)
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                // The pixels the blur leaves as they are; the region's from its levels.
                lines.copyUnblurred(row: y, from: view, into: output, width: width)
                if blurring, inside.contains(y - region.y) {
                    let i = y - region.y
                    line.withUnsafeMutableBufferPointer { line in
                        gathered.withUnsafeMutableBufferPointer { gathered in
                            for (k, shape) in shapes.enumerated() {
                                guard let shape, let rows = levelRows[k] else { continue }
                                let n = shape.columns.count, start = shape.firstRow[i] - rows.first
                                shape.phases[shape.phaseOf[i]].withUnsafeBufferPointer { table in
                                    Kernels.weightedSumPixels(
                                        count: n, weights: (0..<shape.taps).map { table.baseAddress! + $0 * n },
                                        sources: (0..<shape.taps).map { UnsafePointer(rows.base.base + (start + $0) * n * 4) },
                                        into: gathered.baseAddress!)
                                }
                                for c in shape.columns where levelOf[c] == k {
                                    (line.baseAddress! + c * 4).update(from: gathered.baseAddress! + (c - shape.columns.lowerBound) * 4, count: 4)
                                }
                            }
                            if let directColumns, let directBase {
                                let from = directBase.base + (i - inside.lowerBound) * directColumns.count * 4
                                for c in directColumns where levelOf[c] < 0 {
                                    (line.baseAddress! + c * 4).update(from: from + (c - directColumns.lowerBound) * 4, count: 4)
                                }
                            }
                            Kernels.storeBytes(line.baseAddress!, count: region.width * 4, into: output.row(y) + region.x * 4)
                        }
                    }
                }
                lines.dim(row: y, of: output)
            }
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        let windows = levels.reduce(direct?.heldBytes ?? 0) { total, level in
            guard let level else { return total }
            let coarse = bandRows / level.level.plan.factor + level.taps + 2 * level.level.plan.coarseRadius
            let tables = level.phases.count * level.taps * level.columns.count * 4
            return total + max(level.heldBytes, coarse * (level.level.plan.x.blurredCount + level.columns.count) * 32) + tables
        }
        return windows + bandRows * (direct?.columns.count ?? 0) * 16 + lines.region.width * 32
    }

    func inputBytes(bandRows: Int) -> Int {
        let reach = levels.map { $0?.level.inputBytes ?? 0 }.max() ?? 0
        let direct = direct.map { (bandRows + 2 * $0.radius) * width * 4 } ?? 0
        return max(reach, direct, bandRows * width * 4) * (levels.count + 1)
    }
}
