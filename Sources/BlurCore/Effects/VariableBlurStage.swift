/// The progressive blur drawn over a backdrop as a stage of the streaming chain, for the vertical
/// directions (each row its own σ, ``VariableGaussianBlur``): what
/// ``VariableBlurEffect/render(over:frame:appearance:cache:threads:)`` runs over the whole image.
///
/// A row on a pyramid level is made from that level's blurred coarse rows (``PyramidLevel``): one
/// weighted sum of them down — the B-spline upsampling and the row's residual blur folded into one
/// kernel — then the residual blur across, then the upsampling across, rounded once. The rows below
/// the pyramid's range are direct rows with their own σ (``FixedPointRows``). Then the dimming
/// gradient is drawn over each row. The levels and the direct rows read the region where it lies
/// in this stage's input window, which keeps every row one of them has still to read.
final class VariableBlurStage: RowStage {
    let width: Int
    let height: Int
    /// The region, each line's σ and pyramid level, and the dimming: what the stage draws.
    private let lines: VariableBlurLines
    /// Per level: nil when no row computes on it.
    private let levels: [PyramidLevel?]
    /// Per region row on a level: the first blurred coarse row it reads, the weights down from
    /// there, and the residual's half-kernel across.
    private let down: [(start: Int, weights: [Float])]
    private let across: [[Float]]
    private let direct: FixedPointRows
    /// Per level, then the direct rows: the first region row its window will ever read (nil: never),
    /// and its last user: after that row it reads nothing more.
    private let earliest: [Int?]
    private let lastUse: [Int]
    /// Per region row: the first input row any direct row from there on reads (their reaches differ,
    /// so a later row may reach further up than an earlier one).
    private let directKeep: [Int]

    init(lines: VariableBlurLines, width: Int, height: Int) {
        self.width = width
        self.height = height
        let (region, sigmas, blurs, plan) = (lines.region, lines.sigmas, lines.blurs, lines.plan)
        self.lines = lines
        let margins = plan.margins
        let levels = plan.levels.indices.map { k in
            blurs && plan.levelOf.contains(k) ? PyramidLevel(sigma: plan.levels[k], margin: margins[k], region: region) : nil
        }
        self.levels = levels
        var down = [(start: Int, weights: [Float])](repeating: (0, []), count: sigmas.count)
        var across = [[Float]](repeating: [1], count: sigmas.count)
        for line in sigmas.indices where plan.levelOf[line] >= 0 {
            guard let level = levels[plan.levelOf[line]] else { continue }
            let upsample = level.plan.y.upsample, taps = upsample.width
            let bspline = upsample.weights[(line * taps)..<(line * taps + taps)]
            let weights = VariableGaussianBlur.composite(bspline: bspline, residual: plan.residual[line], margin: level.margin)
            // Only the taps between the first and the last that weigh anything.
            let lo = weights.firstIndex { $0 != 0 } ?? 0, hi = weights.lastIndex { $0 != 0 } ?? 0
            down[line] = (upsample.starts[line] + lo, Array(weights[lo...hi]))
            across[line] = VariableGaussianBlur.residualKernel(plan.residual[line])
        }
        self.down = down
        self.across = across
        var firsts: [Int?] = levels.indices.map { k in
            guard let level = levels[k], let first = plan.levelOf.firstIndex(of: k) else { return nil }
            return level.firstInputRow(forCoarse: level.plan.y.upsample.starts[first])
        }
        // Direct rows, those left as they are (σ ≤ 0.2) included: they read their own row. Their
        // reaches differ, so a later row may reach further up than an earlier one.
        let directPlan = FixedPointRows(sigmas: sigmas.indices.map { plan.levelOf[$0] < 0 ? sigmas[$0] : 0 }, edges: .clamp, width: region.width)
        var keep = [Int](repeating: region.height, count: region.height + 1)
        for line in sigmas.indices.reversed() {
            let start = plan.levelOf[line] < 0 ? directPlan.inputRows(for: line..<(line + 1)).lowerBound : region.height
            keep[line] = min(keep[line + 1], start)
        }
        directKeep = keep
        firsts.append(blurs && keep[0] < region.height ? keep[0] : nil)
        earliest = firsts
        lastUse = levels.indices.map { plan.levelOf.lastIndex(of: $0) ?? -1 } + [plan.levelOf.lastIndex { $0 < 0 } ?? -1]
        direct = directPlan
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let (width, region, blurs, levelOf, lines) = (width, lines.region, lines.blurs, lines.plan.levelOf, lines)
        // Keep every row a level still has to read, and the band's own rows: a level reads on from
        // where it stopped, or from the first row its first user reaches.
        let line = rows.lowerBound - region.y
        let next = levels.map { $0?.nextInputRow } + [directKeep[min(max(line, 0), region.height)]]
        let pending = next.indices.compactMap { i -> Int? in
            guard let next = next[i], let first = earliest[i], lastUse[i] >= line else { return nil }
            return max(first, next)
        }
        input.keepFrom = min(rows.lowerBound, region.y + (pending.min() ?? region.height))
        defer { input.keepFrom = nil }
        let inside = lines.regionRows(of: rows)
        let n = region.width * 4

        // Each level's blurred coarse rows for the band's rows on it: where they start, and which.
        var made: [(base: SharedPointer<Float>, first: Int)?] = []
        for (k, level) in levels.enumerated() {
            guard blurs, let level, let first = inside.first(where: { levelOf[$0] == k }),
                let last = inside.last(where: { levelOf[$0] == k })
            else {
                made.append(nil)
                continue
            }
            // From the first row's taps untrimmed, so that requests never go back up.
            let upsample = level.plan.y.upsample
            let wanted = upsample.starts[first]..<(upsample.starts[last] + upsample.width + 2 * level.margin)
            try level.ensure(wanted, from: input, parts: parts)
            made.append((SharedPointer(level.row(wanted.lowerBound)), wanted.lowerBound))
        }
        let directLines = inside.filter { levelOf[$0] < 0 }
        // One last request for the band's rows and those the direct rows reach: a later request may
        // move the window's rows, so both views come from this one.
        var wanted = rows, directReach: Range<Int>?
        if blurs, let first = directLines.first, let last = directLines.last {
            let reach = direct.inputRows(for: first..<(last + 1))
            directReach = reach
            wanted = min(rows.lowerBound, region.y + reach.lowerBound)..<max(rows.upperBound, region.y + reach.upperBound)
        }
        let view = try input.rows(wanted)!
        let directView = directReach.map { _ in view.columns(region.x, width: region.width, top: region.y) }

        // The rows, split among the threads: each made the same way whichever thread makes it.
        let directPlan = direct, down = down, directRows = directView, across = across
        let shapes = levels.map { $0.map { (plan: $0.plan, margin: $0.margin) } }
        let longest = shapes.map { $0.map { $0.plan.x.blurredCount * 4 } ?? 0 }.max() ?? 0
        let levelRows = made
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var full = [Float].unfilled(count: n), coarse = [Float].unfilled(count: longest), inner = [Float].unfilled(count: longest)
            var scratch = directPlan.makeScratch()
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                let line = y - region.y
                // The pixels the blur leaves as they are; the region's from its level.
                lines.copyUnblurred(row: y, from: view, into: output, width: width)
                guard blurs, inside.contains(line) else {
                    lines.dim(row: y, of: output)
                    continue
                }
                let into = output.row(y) + region.x * 4
                full.withUnsafeMutableBufferPointer { full in
                    let k = levelOf[line]
                    guard k >= 0, let shape = shapes[k], let coarseRows = levelRows[k] else {
                        return directPlan.row(line, source: directRows!, scratch: &scratch, into: into)
                    }
                    let (plan, margin) = shape, rowFloats = plan.x.blurredCount * 4, (start, weights) = down[line]
                    let sources = weights.indices.map { UnsafePointer(coarseRows.base.base + (start - coarseRows.first + $0) * rowFloats) }
                    coarse.withUnsafeMutableBufferPointer { coarse in
                        inner.withUnsafeMutableBufferPointer { inner in
                            Kernels.convolve(count: rowFloats, kernel: weights, sources: sources, into: coarse.baseAddress!)
                            Kernels.convolveSymmetric(
                                coarse.baseAddress! + margin * 4, count: rowFloats - margin * 8, kernel: across[line], into: inner.baseAddress!)
                            Kernels.resamplePixels(inner.baseAddress!, taps: plan.x.upsample, into: full.baseAddress!)
                        }
                    }
                    Kernels.storeBytes(full.baseAddress!, count: n, into: into)
                }
                lines.dim(row: y, of: output)
            }
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        levels.reduce(0) { total, level in
            guard let level else { return total }
            // The coarse rows one band reaches, or what the windows hold, if more.
            let coarse = bandRows / level.plan.factor + 4 + 2 * (level.margin + level.plan.coarseRadius)
            return total + max(level.heldBytes, coarse * level.plan.x.blurredCount * 32)
        }
    }

    func inputBytes(bandRows: Int) -> Int {
        let reach = levels.map { $0?.inputBytes ?? 0 }.max() ?? 0
        let direct = direct.inputRows(for: 0..<min(bandRows, lines.region.height)).count * lines.region.width * 4
        return max(reach, direct, bandRows * width * 4) * (levels.count + 1)
    }
}

extension VariableBlurEffect {
    /// This effect over `frame` (points) of a `width × height` backdrop at `scale`, as a stage of
    /// the streaming chain: rows for the vertical directions, the image turned a quarter for the
    /// horizontal ones.
    package func stage(
        width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light, cache: GradientMaskCache = .shared
    ) -> any RowStage {
        guard direction.isVertical else {
            return VariableBlurTransposedStage(
                effect: self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
        }
        let lines = VariableBlurLines(effect: self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
        return VariableBlurStage(lines: lines, width: width, height: height)
    }
}
