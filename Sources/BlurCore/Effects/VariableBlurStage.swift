/// The progressive blur drawn over a backdrop as a stage of the streaming chain, for the vertical
/// directions (each row its own σ, ``VariableGaussianBlur``): what
/// ``VariableBlurEffect/render(over:frame:appearance:cache:threads:)`` runs over the whole image.
///
/// Every pyramid level is a ``GaussianStage`` over the region's rows, producing floats for the rows
/// of a band that use it; the rows below the pyramid's range are direct rows with their own σ
/// (``GaussianRows``). A row mixes its two levels and is rounded once, then the dimming gradient is
/// drawn over it. Each level reads the region through a window of its own over this stage's input
/// window, which keeps every row a level has still to read.
final class VariableBlurStage: RowStage {
    let width: Int
    let height: Int
    /// The region, each line's σ and pyramid levels, and the dimming: what the stage draws.
    private let lines: VariableBlurLines
    private let levels: [(stage: GaussianStage, input: RowWindow, rows: RegionRows)]
    private let direct: (rows: GaussianRows, input: RowWindow, source: RegionRows)
    /// Per level, then the direct rows: the first region row its window will ever read (nil: never),
    /// and its last user: after that row it reads nothing more.
    private let earliest: [Int?]
    private let lastUse: [Int]
    /// Per region row: the first input row any direct row from there on reads (their reaches differ,
    /// so a later row may reach further up than an earlier one).
    private let directKeep: [Int]
    /// Per level: its floats for the current band, reused from band to band.
    private var floats: [[Float]]

    init(lines: VariableBlurLines, width: Int, height: Int) {
        self.width = width
        self.height = height
        let (region, sigmas, blurs, ladder, levelOf, weightOf) = (
            lines.region, lines.sigmas, lines.blurs, lines.ladder, lines.levelOf, lines.weightOf
        )
        self.lines = lines
        let stages = ladder.map { sigma -> (stage: GaussianStage, input: RowWindow, rows: RegionRows) in
            let rows = RegionRows(region: region)
            return (GaussianStage(sigma: sigma, edges: .clamp, width: region.width, height: region.height), RowWindow(source: rows), rows)
        }
        levels = stages
        floats = ladder.map { _ in [] }
        // Where each level's window will first read: the first input row of its first user.
        var firsts: [Int?] = stages.indices.map { k in
            guard blurs, let first = sigmas.indices.first(where: { VariableGaussianBlur.uses(k, $0, levelOf: levelOf, weightOf: weightOf) }) else {
                return nil
            }
            return stages[k].stage.firstInputRow(for: first)
        }
        // Direct rows, those left as they are (σ ≤ 0.2) included: they read their own row. Their
        // reaches differ, so a later row may reach further up than an earlier one.
        let directPlan = GaussianRows(sigmas: sigmas.indices.map { levelOf[$0] < 0 ? sigmas[$0] : 0 }, edges: .clamp, width: region.width)
        var keep = [Int](repeating: region.height, count: region.height + 1)
        for line in sigmas.indices.reversed() {
            let start = levelOf[line] < 0 ? directPlan.inputRows(for: line..<(line + 1)).lowerBound : region.height
            keep[line] = min(keep[line + 1], start)
        }
        directKeep = keep
        firsts.append(blurs && keep[0] < region.height ? keep[0] : nil)
        earliest = firsts
        lastUse =
            ladder.indices.map { k in sigmas.indices.last { VariableGaussianBlur.uses(k, $0, levelOf: levelOf, weightOf: weightOf) } ?? -1 }
            + [sigmas.indices.last { levelOf[$0] < 0 } ?? -1]
        let directRows = RegionRows(region: region)
        direct = (directPlan, RowWindow(source: directRows), directRows)
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let (width, region, blurs, levelOf, weightOf, dimming) = (width, lines.region, lines.blurs, lines.levelOf, lines.weightOf, lines.dimming)
        // Keep every row a level still has to read, and the band's own rows: a level reads on from
        // where it stopped, or from the first row its first user reaches.
        let sources = levels.map(\.rows) + [direct.source], line = rows.lowerBound - region.y
        let pending = sources.indices.compactMap { i -> Int? in
            guard let first = earliest[i], lastUse[i] >= line else { return nil }
            return max(first, sources[i].next)
        }
        input.keepFrom = min(rows.lowerBound, region.y + (pending.min() ?? region.height))
        for source in [direct.source] + levels.map(\.rows) { source.input = input }
        defer {
            input.keepFrom = nil
            for source in [direct.source] + levels.map(\.rows) { source.input = nil }
        }
        let top = max(rows.lowerBound, region.y), bottom = min(rows.upperBound, region.y + region.height)
        let inside = (top - region.y)..<(max(top, bottom) - region.y)
        let n = region.width * 4

        // Each level's floats for the span of the band's region rows that use it.
        var spans: [(Range<Int>, [Float])?] = []
        for (k, level) in levels.enumerated() {
            let users = inside.filter { VariableGaussianBlur.uses(k, $0, levelOf: levelOf, weightOf: weightOf) }
            guard blurs, let first = users.first, let last = users.last else {
                spans.append(nil)
                continue
            }
            if floats[k].count < (last + 1 - first) * n { floats[k] = [Float].unfilled(count: (last + 1 - first) * n) }
            try floats[k].withUnsafeMutableBufferPointer { f in
                try level.stage.produceFloats(first..<(last + 1), from: level.input, into: SharedPointer(f.baseAddress!), parts: parts)
            }
            spans.append((first..<(last + 1), floats[k]))
        }
        let directRows = inside.filter { levelOf[$0] < 0 }
        direct.input.keepFrom = directKeep[min(inside.lowerBound, region.height)]
        let directView =
            blurs && !directRows.isEmpty ? try direct.input.rows(direct.rows.inputRows(for: directRows.first!..<(directRows.last! + 1))) : nil
        let view = try input.rows(rows)!

        // The rows, split among the threads: each made the same way whichever thread makes it.
        let directPlan = direct.rows, made = spans
        @Sendable func dim(_ y: Int) {
            guard let dimming, y >= dimming.region.y, y < dimming.region.y + dimming.region.height else { return }
            Bitmap.fillRow(
                output.row(y) + dimming.region.x * 4, pixels: dimming.region.width, with: dimming.color,
                coverage: dimming.coverage[y - dimming.region.y])
        }
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var a = [Float].unfilled(count: n)
            var scratch = directPlan.makeScratch()
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                let line = y - region.y
                guard blurs, inside.contains(line) else {
                    output.row(y).update(from: view.row(y), count: width * 4)
                    dim(y)
                    continue
                }
                // The pixels either side of the region as they are; the region's from its levels.
                output.row(y).update(from: view.row(y), count: region.x * 4)
                let after = (region.x + region.width) * 4
                (output.row(y) + after).update(from: view.row(y) + after, count: width * 4 - after)
                a.withUnsafeMutableBufferPointer { a in
                    let k = levelOf[line], t = weightOf[line], into = output.row(y) + region.x * 4
                    if k < 0 {
                        directPlan.row(line, source: directView!, scratch: &scratch, into: a.baseAddress!)
                        return Kernels.storeBytes(a.baseAddress!, count: n, into: into)
                    }
                    let (span, floats) = made[k]!
                    floats.withUnsafeBufferPointer { upper in
                        let upper = upper.baseAddress! + (line - span.lowerBound) * n
                        guard t < 1 else { return Kernels.storeBytes(upper, count: n, into: into) }
                        let (lower, more) = made[k + 1]!
                        more.withUnsafeBufferPointer {
                            Kernels.mix(upper, $0.baseAddress! + (line - lower.lowerBound) * n, weight: t, count: n, into: a.baseAddress!)
                        }
                        Kernels.storeBytes(a.baseAddress!, count: n, into: into)
                    }
                }
                dim(y)
            }
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        let windows = levels.reduce(direct.input.heldBytes) { $0 + $1.input.heldBytes + $1.stage.heldBytes(bandRows: bandRows) }
        return windows + levels.count * bandRows * lines.region.width * 16
    }

    func inputBytes(bandRows: Int) -> Int {
        let reach = levels.map { $0.stage.inputBytes(bandRows: bandRows) }.max() ?? 0
        return max(reach, bandRows * width * 4) * (levels.count + 1)
    }
}

/// The region's rows (its columns only, numbered from the region's top), copied from the stage's
/// input window as a level reads them.
final class RegionRows: RowSource {
    let width: Int
    let height: Int
    private let region: PixelRect
    var input: RowWindow?
    /// The next row to be read.
    private(set) var next = 0

    init(region: PixelRect) {
        self.region = region
        width = region.width
        height = region.height
    }

    var heldBytes: Int { 0 }

    /// Rows before `row` are never made: a level that starts further down reads from there.
    func skip(to row: Int) -> Bool {
        next = row
        return true
    }

    func read(into rows: MutablePixelView) throws {
        let view = try input!.rows((region.y + rows.firstRow)..<(region.y + rows.rows.upperBound))!
        for y in rows.rows { rows.row(y).update(from: view.row(region.y + y) + region.x * 4, count: width * 4) }
        next = rows.rows.upperBound
    }
}

extension VariableBlurEffect {
    /// This effect over `frame` (points) of a `width × height` backdrop at `scale`, as a stage of
    /// the streaming chain: rows for the vertical directions, columns for the horizontal ones.
    package func stage(
        width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light, cache: GradientMaskCache = .shared
    ) -> any RowStage {
        let lines = VariableBlurLines(effect: self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
        if direction.isVertical { return VariableBlurStage(lines: lines, width: width, height: height) }
        return VariableBlurColumnStage(lines: lines, width: width, height: height)
    }
}
