/// The shared decimation of a progressive blur's region (``DecimationPlan``): its sample rows made
/// on demand, in order, from the region's pixels where they lie in the stage's input window, and
/// kept while a level still reads them. The levels ask for them in turn, each from where it
/// stopped, so the stage says with ``keepFrom`` which rows any level will still ask for.
final class DecimatedRows {
    let plan: DecimationPlan
    /// The pixels decimated, in the stage's input.
    let region: PixelRect
    private let rows: FloatRows
    /// Sample rows decimated at a time from a streaming window (a streaming band's worth, at least two).
    let batch: Int
    /// No sample row before this one is asked for again (nil: the request's first row).
    var keepFrom: Int?

    init(plan: DecimationPlan, region: PixelRect) {
        self.plan = plan
        self.region = region
        rows = FloatRows(length: plan.x.count * 4, count: plan.y.count)
        batch = max(2, StreamingDefaults.bandRows(width: region.width) / plan.factor)
        wholeBatch = max(2, StreamingDefaults.wholeImageBandRows(width: region.width) / plan.factor)
    }

    /// Sample rows decimated at a time over an image in memory: a whole-image band's worth (at
    /// least two), so that the checkpoint between batches comes often even when a band reaches
    /// every row.
    private let wholeBatch: Int

    /// Floats a sample row.
    var length: Int { rows.length }

    /// Makes sample rows `wanted` available (and those from ``keepFrom`` on, if earlier), reading the
    /// region from `input`, which must still hold the rows from ``nextInputRow`` on; a batch at a
    /// time, `input`'s ``RowWindow/checkpoint`` asked before each.
    func ensure(_ wanted: Range<Int>, from input: RowWindow, parts: Int?) throws {
        let plan = plan, region = region, length = rows.length
        let batchRows = input.isWhole ? wholeBatch : batch
        try rows.ensure(wanted, keepingFrom: keepFrom) { new, into in
            var j = new.lowerBound
            while j < new.upperBound {
                try input.checkpoint()
                let part = j..<(new.upperBound - j > batchRows ? j + batchRows : new.upperBound)
                let inputs = plan.y.inputs(for: part)
                let source = try input.rows((region.y + inputs.lowerBound)..<(region.y + inputs.upperBound))!
                    .columns(region.x, width: region.width, top: region.y)
                plan.decimate(part, from: source, into: SharedPointer(into + (j - new.lowerBound) * length), parts: parts)
                j = part.upperBound
            }
        }
    }

    /// Sample row `i`, one of those made by the last ``ensure(_:from:parts:)``.
    func row(_ i: Int) -> UnsafeMutablePointer<Float> { rows.row(i) }

    /// No region row before this one is read again (the next sample row to make reads it).
    var nextInputRow: Int { plan.y.starts[min(rows.end, plan.y.count - 1)] }

    var heldBytes: Int { rows.heldBytes }

    /// The most region bytes one batch reads at once.
    var inputBytes: Int { plan.y.inputs(for: 0..<min(batch, plan.y.count)).count * plan.width * 4 }
}
