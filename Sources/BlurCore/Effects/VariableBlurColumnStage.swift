/// The progressive blur drawn over a backdrop as a stage of the streaming chain, for the horizontal
/// directions (each column its own σ): what
/// ``VariableBlurEffect/render(over:frame:appearance:cache:threads:)`` runs over the whole image.
///
/// The vertical stage's steps turned a quarter, with no image turned:
/// - the same ladder of pyramid levels (``VariableGaussianBlur/ladder(_:)``), each a
///   ``GaussianStage`` over the columns that use it, widened by the level's reach so that the
///   span's own edges change none of them, making floats for every row of a band;
/// - columns below the pyramid's range are exact, each the 2-D Gaussian of its own σ
///   (``GaussianColumns``);
/// - a column mixes its two levels with its own weight, is rounded once, then dimmed.
/// Each level reads the region through a window of its own over this stage's input window, which
/// keeps every row a level, or the direct columns, have still to read.
final class VariableBlurColumnStage: RowStage {
    let width: Int
    let height: Int
    /// The region, each line's σ and pyramid levels, and the dimming: what the stage draws.
    private let lines: VariableBlurLines
    /// Per level of the ladder: nil when no column uses it.
    private let levels: [Level?]
    private let direct: GaussianColumns?
    /// Per level, then the direct columns: the current band's floats, reused from band to band.
    private var floats: [UnsafeMutableBufferPointer<Float>]

    private struct Level {
        let stage: GaussianStage
        let input: RowWindow
        let rows: RegionRows
        /// The region's columns the level makes (its users and their reach).
        let columns: Range<Int>
    }

    init(lines: VariableBlurLines, width: Int, height: Int) {
        self.width = width
        self.height = height
        let (region, sigmas, blurs, ladder, levelOf, weightOf) = (
            lines.region, lines.sigmas, lines.blurs, lines.ladder, lines.levelOf, lines.weightOf
        )
        self.lines = lines
        levels = ladder.indices.map { k -> Level? in
            let users = sigmas.indices.filter { VariableGaussianBlur.uses(k, $0, levelOf: levelOf, weightOf: weightOf) }
            guard blurs, let first = users.first, let last = users.last else { return nil }
            let reach = PyramidPlan.reach(ladder[k])
            let columns = max(0, first - reach)..<min(region.width, last + 1 + reach)
            let rows = RegionRows(region: PixelRect(x: region.x + columns.lowerBound, y: region.y, width: columns.count, height: region.height))
            return Level(
                stage: GaussianStage(sigma: ladder[k], edges: .clamp, width: columns.count, height: region.height),
                input: RowWindow(source: rows), rows: rows, columns: columns)
        }
        if blurs, let first = levelOf.firstIndex(where: { $0 < 0 }), let last = levelOf.lastIndex(where: { $0 < 0 }) {
            direct = GaussianColumns(
                sigmas: (first...last).map { levelOf[$0] < 0 ? sigmas[$0] : 0 }, columns: first..<(last + 1),
                lineWidth: region.width, height: region.height)
        } else {
            direct = nil
        }
        floats = [UnsafeMutableBufferPointer<Float>](repeating: .init(start: nil, count: 0), count: ladder.count + 1)
    }

    deinit { for buffer in floats { buffer.deallocate() } }

    /// Room for `count` floats in buffer `k`, grown when it is too small.
    private func floats(_ k: Int, count: Int) -> UnsafeMutablePointer<Float> {
        if floats[k].count < count {
            floats[k].deallocate()
            floats[k] = .allocate(capacity: count)
        }
        return floats[k].baseAddress!
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let (width, region, blurs, levelOf, weightOf, dimming) = (width, lines.region, lines.blurs, lines.levelOf, lines.weightOf, lines.dimming)
        // Keep every row a level or the direct columns still have to read, and the band's own.
        let pending = levels.compactMap { $0?.rows.next } + (direct.map { [$0.next] } ?? [])
        input.keepFrom = min(rows.lowerBound, region.y + (pending.min() ?? region.height))
        for level in levels { level?.rows.input = input }
        defer {
            input.keepFrom = nil
            for level in levels { level?.rows.input = nil }
        }
        let top = max(rows.lowerBound, region.y), bottom = min(rows.upperBound, region.y + region.height)
        let inside = (top - region.y)..<(max(top, bottom) - region.y)
        let blurring = blurs && !inside.isEmpty

        // Each level's floats, and the direct columns', for the band's region rows.
        if blurring {
            for (k, level) in levels.enumerated() {
                guard let level else { continue }
                let target = floats(k, count: inside.count * level.columns.count * 4)
                try level.stage.produceFloats(inside, from: level.input, into: SharedPointer(target), parts: parts)
            }
            if let direct {
                let target = floats(levels.count, count: inside.count * direct.columns.count * 4)
                try direct.produce(
                    inside,
                    read: { wanted in (try input.rows((region.y + wanted.lowerBound)..<(region.y + wanted.upperBound))!, region.x, region.y) },
                    into: SharedPointer(target), parts: parts)
            }
        }

        let view = try input.rows(rows)!
        // Row y of each level's floats (and the direct columns') is at floats + i × span × 4, i the
        // band's region row; the rows are split among the threads.
        let spans = levels.map { $0?.columns } + [direct?.columns]
        let buffers = floats.map { $0.baseAddress.map(SharedPointer.init) }
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var line = [Float].unfilled(count: region.width * 4)
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                if blurring, inside.contains(y - region.y) {
                    // The pixels either side of the region as they are; the region's from its levels.
                    output.row(y).update(from: view.row(y), count: region.x * 4)
                    let after = (region.x + region.width) * 4
                    (output.row(y) + after).update(from: view.row(y) + after, count: width * 4 - after)
                    let i = y - region.y - inside.lowerBound
                    let starts = spans.indices.map { k -> (UnsafePointer<Float>, first: Int)? in
                        spans[k].map { (UnsafePointer(buffers[k]!.base + i * $0.count * 4), $0.lowerBound) }
                    }
                    line.withUnsafeMutableBufferPointer { line in
                        VariableBlurColumnStage.compose(starts, levelOf: levelOf, weightOf: weightOf, into: line.baseAddress!)
                        Kernels.storeBytes(line.baseAddress!, count: region.width * 4, into: output.row(y) + region.x * 4)
                    }
                } else {
                    output.row(y).update(from: view.row(y), count: width * 4)
                }
                if let dimming, y >= dimming.region.y, y < dimming.region.y + dimming.region.height {
                    Bitmap.fillRow(
                        output.row(y) + dimming.region.x * 4, pixels: dimming.region.width, with: dimming.color,
                        coverages: dimming.coverage)
                }
            }
        }
    }

    /// One row of the region from its levels' rows and the direct columns' (`rows[k]`: the row and
    /// the region column it starts at; the direct columns last): column c takes its level, mixed
    /// with the next one down by the column's weight.
    private static func compose(
        _ rows: [(UnsafePointer<Float>, first: Int)?], levelOf: [Int], weightOf: [Float], into line: UnsafeMutablePointer<Float>
    ) {
        func pixel(_ k: Int, _ c: Int) -> UnsafePointer<Float> { rows[k]!.0 + (c - rows[k]!.first) * 4 }
        let direct = rows.count - 1
        for c in levelOf.indices {
            let k = levelOf[c], out = line + c * 4
            if k < 0 {
                out.update(from: pixel(direct, c), count: 4)
                continue
            }
            let a = pixel(k, c), t = weightOf[c]
            if t < 1 {
                let b = pixel(k + 1, c), u = 1 - t
                for ch in 0..<4 { out[ch] = t * a[ch] + u * b[ch] }
            } else {
                out.update(from: a, count: 4)
            }
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        let windows = levels.reduce(direct?.heldBytes ?? 0) { total, level in
            guard let level else { return total }
            return total + level.input.heldBytes + level.stage.heldBytes(bandRows: bandRows)
        }
        let spans = levels.reduce(direct?.columns.count ?? 0) { $0 + ($1?.columns.count ?? 0) }
        return windows + bandRows * spans * 16 + lines.region.width * 16
    }

    func inputBytes(bandRows: Int) -> Int {
        let reach = levels.map { $0?.stage.inputBytes(bandRows: bandRows) ?? 0 }.max() ?? 0
        let direct = direct.map { (bandRows + 2 * $0.radius) * width * 4 } ?? 0
        return max(reach, direct, bandRows * width * 4) * (levels.count + 1)
    }
}
