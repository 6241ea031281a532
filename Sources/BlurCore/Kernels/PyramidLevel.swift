/// One level of the variable blur's pyramid over a region: the region decimated by the plan's
/// factor and blurred by the level's σ both ways (``PyramidPlan``), with `margin` more blurred
/// samples on every side for the residual blur. Its coarse rows are made on demand, in order, from
/// the region's rows as a window of its own reads them, and kept while later requests reach them.
final class PyramidLevel {
    let plan: PyramidPlan
    /// The region's rows, and the window this level reads them through.
    let rows: RegionRows
    let input: RowWindow
    private let across: FloatRows
    private let blurred: FloatRows

    init(sigma: Double, margin: Int, region: PixelRect) {
        plan = PyramidPlan(sigma: sigma, edges: .clamp, width: region.width, height: region.height, margin: margin)
        rows = RegionRows(region: region)
        input = RowWindow(source: rows)
        across = FloatRows(length: plan.x.blurredCount * 4)
        blurred = FloatRows(length: plan.x.blurredCount * 4)
    }

    var margin: Int { plan.x.margin }

    /// Makes blurred coarse rows `wanted` (numbered from the first, the margin included) available.
    func ensure(_ wanted: Range<Int>, parts: Int?) throws {
        let plan = plan, rowFloats = plan.x.blurredCount * 4
        try blurred.ensure(wanted) { new, target in
            try across.ensure(new.lowerBound..<(new.upperBound + 2 * plan.coarseRadius)) { decimated, into in
                var j = decimated.lowerBound
                while j < decimated.upperBound {
                    let batch = j..<min(decimated.upperBound, j + GaussianStage.decimationBatch)
                    let source = try input.rows(plan.y.decimate.inputs(for: batch))!
                    plan.decimate(batch, from: source, into: SharedPointer(into + (j - decimated.lowerBound) * rowFloats), parts: parts)
                    j = batch.upperBound
                }
            }
            plan.blurDown(new, across: across, into: SharedPointer(target), parts: parts)
        }
    }

    /// Blurred coarse row `j`, one of those made by the last ``ensure(_:parts:)``.
    func row(_ j: Int) -> UnsafeMutablePointer<Float> { blurred.row(j) }

    /// The first region row that making blurred coarse row `j` first reads.
    func firstInputRow(forCoarse j: Int) -> Int { plan.y.decimate.starts[j] }

    var heldBytes: Int { input.heldBytes + across.heldBytes + blurred.heldBytes }

    /// The most region bytes one decimation batch reads at once.
    var inputBytes: Int {
        plan.y.decimate.inputs(for: 0..<min(GaussianStage.decimationBatch, plan.y.decimatedCount)).count * plan.width * 4
    }
}
