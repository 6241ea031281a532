/// What every row of a progressive blur over one geometry is made from (the vertical directions;
/// the horizontal ones use the plan of the image turned): the lines, each pyramid level's plan and
/// its upsampling across in fixed point, each row's weights down and across, and the direct rows.
/// Immutable, so one plan serves every ``VariableBlurStage`` of that geometry, and
/// ``cached(_:width:height:scale:frame:appearance:cache:)`` builds it once for an interface that
/// redraws the same view frame after frame (a plan for a full 6000×4000 frame takes about 10 ms to
/// build, an eighth of the blur).
final class VariableBlurPlan: Sendable {
    let width: Int
    let height: Int
    /// The region, each line's σ and pyramid level, and the dimming: what the stage draws.
    let lines: VariableBlurLines
    /// Per level: its plan, nil when no row computes on it; and its upsampling across.
    let levels: [PyramidPlan?]
    let upsampling: [FixedUpsampling?]
    /// The region decimated once for every level (nil: no level), and how each level takes its
    /// samples from it.
    let decimation: DecimationPlan?
    let samples: [LevelSamples?]
    /// Per region row on a level: the first blurred coarse row it reads, the weights down from
    /// there (Q16), and the residual's multipliers across (``FixedPointRows/multipliers(_:)``, Q15; empty: none).
    let down: [(start: Int, weights: [UInt16])]
    let across: [[UInt16]]
    /// The most weights of any row's `down` and `across`.
    let longestKernels: (down: Int, across: Int)
    let direct: FixedPointRows
    /// Per level: the first of the decimation's sample rows it will ever read (nil: never), and
    /// its last user: after that row it reads nothing more.
    let earliest: [Int?]
    let lastUse: [Int]
    /// The first region row the decimation, and the direct rows, will ever read (nil: never); and
    /// the last user of the direct rows.
    let earliestInput: (decimation: Int?, direct: Int?)
    let lastDirect: Int
    /// Per region row: the first input row any direct row from there on reads (their reaches differ,
    /// so a later row may reach further up than an earlier one).
    let directKeep: [Int]
    /// About how many bytes the plan holds.
    let bytes: Int

    init(lines: VariableBlurLines, width: Int, height: Int) {
        self.width = width
        self.height = height
        let (region, sigmas, blurs, plan) = (lines.region, lines.sigmas, lines.blurs, lines.plan)
        self.lines = lines
        let margins = plan.margins
        let levels = plan.levels.indices.map { k in
            blurs && plan.levelOf.contains(k)
                ? PyramidPlan(
                    sigma: plan.levels[k], edges: .clamp, width: region.width, height: region.height, margin: margins[k],
                    decimatesRegion: false) : nil
        }
        self.levels = levels
        let upsampling = levels.map { $0.map { FixedUpsampling($0.x.upsample) } }
        self.upsampling = upsampling
        let decimation = DecimationPlan(levels: levels, width: region.width, height: region.height)
        self.decimation = decimation
        let samples = levels.map { level in decimation.flatMap { d in level.map { LevelSamples(level: $0, from: d) } } }
        self.samples = samples
        var down = [(start: Int, weights: [UInt16])](repeating: (0, []), count: sigmas.count)
        var across = [[UInt16]](repeating: [], count: sigmas.count)
        for line in sigmas.indices where plan.levelOf[line] >= 0 {
            guard let level = levels[plan.levelOf[line]] else { continue }
            let upsample = level.y.upsample, taps = upsample.width
            let bspline = upsample.weights[(line * taps)..<(line * taps + taps)]
            let weights = VariableGaussianBlur.composite(bspline: bspline, residual: plan.residual[line], margin: level.x.margin)
            // Only the taps between the first and the last that weigh anything.
            let lo = weights.firstIndex { $0 != 0 } ?? 0, hi = weights.lastIndex { $0 != 0 } ?? 0
            down[line] = (upsample.starts[line] + lo, Kernels.quantised(Array(weights[lo...hi])))
            let r = plan.residual[line]
            across[line] = r < VariableGaussianBlur.negligibleResidual ? [] : FixedPointRows.multipliers(r)
        }
        self.down = down
        self.across = across
        longestKernels = (down.reduce(0) { max($0, $1.weights.count) }, across.reduce(0) { max($0, $1.count) })
        let firsts: [Int?] = levels.indices.map { k in
            guard let level = levels[k], let samples = samples[k], let first = plan.levelOf.firstIndex(of: k) else { return nil }
            return samples.firstSampleRow(for: level.y.upsample.starts[first])
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
        earliest = firsts
        lastUse = levels.indices.map { plan.levelOf.lastIndex(of: $0) ?? -1 }
        let firstSample = firsts.compactMap { $0 }.min()
        earliestInput = (
            decimation: decimation.flatMap { d in firstSample.map { d.y.starts[$0] } }, direct: blurs && keep[0] < region.height ? keep[0] : nil
        )
        lastDirect = plan.levelOf.lastIndex { $0 < 0 } ?? -1
        direct = directPlan
        let perLine = down.reduce(0) { $0 + 48 + 2 * $1.weights.count } + across.reduce(0) { $0 + 32 + 2 * $1.count }
        bytes =
            perLine + directPlan.bytes + levels.reduce(0) { $0 + ($1?.bytes ?? 0) } + upsampling.reduce(0) { $0 + ($1?.bytes ?? 0) }
            + (decimation?.bytes ?? 0) + samples.reduce(0) { $0 + ($1?.bytes ?? 0) }
    }

    /// What the plans are built from.
    private struct Key: Equatable, Sendable {
        let effect: VariableBlurEffect
        let width: Int
        let height: Int
        let scale: Double
        let frame: Rect
        let appearance: Appearance
    }

    /// The last plans built: up to 16, and 32 MiB of them (a full 6000×4000 frame's is about 3.2 MB).
    private static let cache = PlanCache<Key, VariableBlurPlan>(capacity: 16, byteLimit: 32 << 20)

    /// The plan for `effect` (a vertical direction) over `frame` (points) of a `width × height`
    /// backdrop at `scale`, built on first use and kept while it is among the last used. The masks
    /// are the same from any `cache`, so it does not count.
    static func cached(
        _ effect: VariableBlurEffect, width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance, cache: GradientMaskCache
    ) -> VariableBlurPlan {
        let key = Key(effect: effect, width: width, height: height, scale: scale, frame: frame, appearance: appearance)
        return Self.cache.plan(for: key) {
            let lines = VariableBlurLines(
                effect: effect, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
            let plan = VariableBlurPlan(lines: lines, width: width, height: height)
            return (plan, plan.bytes)
        }
    }
}
