/// A pyramid over a region: the region decimated by the plan's factor and blurred by its σ both
/// ways (``PyramidPlan``), with `margin` more blurred samples on every side (room for the variable
/// blur's residual). Its coarse rows are made on demand, in order, and kept while later requests
/// reach them: the uniform blur's pyramid (``GaussianStage``, the whole image, no margin) decimates
/// the region's pixels where they lie in the stage's input window (no copy); each level of the
/// variable blur's takes its decimated samples from the decimation all its levels share
/// (``DecimatedRows``, through ``LevelSamples``).
final class PyramidLevel {
    let plan: PyramidPlan
    /// The pixels the level blurs, in the stage's input.
    let region: PixelRect
    private let across: FloatRows
    private let blurred: FloatRows

    convenience init(sigma: Double, margin: Int = 0, region: PixelRect, edges: EdgeMode = .clamp) {
        self.init(plan: PyramidPlan(sigma: sigma, edges: edges, width: region.width, height: region.height, margin: margin), region: region)
    }

    /// A level over `region` with `plan`, which must have been made for the region's size.
    init(plan: PyramidPlan, region: PixelRect) {
        self.plan = plan
        self.region = region
        decimationBatch = max(2, StreamingDefaults.bandRows(width: region.width) / plan.factor)
        wholeBatch = max(2, StreamingDefaults.wholeImageBandRows(width: region.width) / plan.factor)
        across = FloatRows(length: plan.x.blurredCount * 4, count: plan.y.decimatedCount)
        blurred = FloatRows(length: plan.x.blurredCount * 4, count: plan.y.blurredCount)
    }

    /// Coarse rows decimated at a time from a streaming window: the window spans their reach, not
    /// that of every coarse row a band needs (at σ 64, 2 × 7 + 4 rows 32 input rows apart) — a
    /// streaming band's worth (at least two: one a core), so that the window holds about one band
    /// more than the prefilter's reach and the threads meet once a band, not once every two coarse
    /// rows.
    let decimationBatch: Int
    /// Coarse rows made at a time over an image in memory: a whole-image band's worth (at least two).
    /// Bounded too, so that the checkpoint between batches comes every few tens of milliseconds
    /// even when one band reaches every row (at σ 2000 a coarse row reads 5600 input rows).
    private let wholeBatch: Int

    var margin: Int { plan.x.margin }

    /// Makes blurred coarse rows `wanted` (numbered from the first, the margin included) available,
    /// reading the region from `input`, which must still hold the rows the next coarse rows read.
    func ensure(_ wanted: Range<Int>, from input: RowWindow, parts: Int?) throws {
        let plan = plan, region = region
        try ensure(wanted, input: input, parts: parts) { batch, into in
            let rows = plan.y.decimate.inputs(for: batch)
            let source = try input.rows((region.y + rows.lowerBound)..<(region.y + rows.upperBound))!
                .columns(region.x, width: region.width, top: region.y)
            plan.decimate(batch, from: source, into: SharedPointer(into), parts: parts)
        }
    }

    /// The same for a level of a progressive blur: its decimated rows taken from the shared
    /// decimation's (`samples`, through `from`), which are made from `input` as they are needed.
    func ensure(_ wanted: Range<Int>, from samples: LevelSamples, of decimation: DecimatedRows, input: RowWindow, parts: Int?) throws {
        let plan = plan
        try ensure(wanted, input: input, parts: parts) { decimated, into in
            let rows = samples.sampleRows(for: decimated)
            try decimation.ensure(rows, from: input, parts: parts)
            samples.blurAcross(
                decimated, plan: plan, samples: SharedPointer(decimation.row(rows.lowerBound)), length: decimation.length,
                into: SharedPointer(into), parts: parts)
        }
    }

    /// Blurred coarse rows `wanted` made a batch at a time (``decimationBatch``, or ``wholeBatch``
    /// over an image in memory), `input`'s ``RowWindow/checkpoint`` asked before each:
    /// `decimate(rows, into)` writes coarse rows `rows` decimated and blurred across from `into` on,
    /// then they are blurred down.
    private func ensure(
        _ wanted: Range<Int>, input: RowWindow, parts: Int?, decimate: (Range<Int>, UnsafeMutablePointer<Float>) throws -> Void
    ) throws {
        let plan = plan, rowFloats = plan.x.blurredCount * 4, batch = input.isWhole ? wholeBatch : decimationBatch
        try blurred.ensure(wanted) { new, target in
            var j = new.lowerBound
            while j < new.upperBound {
                let rows = j..<min(new.upperBound, j + batch)
                try across.ensure(rows.lowerBound..<(rows.upperBound + 2 * plan.coarseRadius)) { decimated, into in
                    var i = decimated.lowerBound
                    while i < decimated.upperBound {
                        try input.checkpoint()
                        let part = i..<min(decimated.upperBound, i + batch)
                        try decimate(part, into + (i - decimated.lowerBound) * rowFloats)
                        i = part.upperBound
                    }
                }
                plan.blurDown(rows, across: across, into: SharedPointer(target + (j - new.lowerBound) * rowFloats), parts: parts)
                j = rows.upperBound
            }
        }
    }

    /// The next decimated row this level makes (the last, once all are made).
    var nextDecimatedRow: Int { min(across.end, plan.y.decimatedCount - 1) }

    /// Blurred coarse row `j`, one of those made by the last ``ensure(_:from:parts:)``.
    func row(_ j: Int) -> UnsafeMutablePointer<Float> { blurred.row(j) }

    var heldBytes: Int { across.heldBytes + blurred.heldBytes }

    /// The most region bytes one decimation batch reads at once.
    var inputBytes: Int {
        plan.y.decimate.inputs(for: 0..<min(decimationBatch, plan.y.decimatedCount)).count * plan.width * 4
    }
}
