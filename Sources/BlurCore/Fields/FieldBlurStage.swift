/// A blur whose σ is a field (``SigmaField``: any function of position) as a stage of the
/// streaming chain: the one kernel family of every spatially varying effect that is not a
/// function of the row alone.
///
/// **The ladder.** σ from the identity threshold (0.2 px: the input as it is) up to the field's
/// maximum is cut into a geometric ladder, each step ``ratio`` times the last and the top step
/// exactly the maximum. A pixel of σ between steps a and b is the blend of the uniform blurs at a
/// and b that matches σ's variance, `(1 − w) · Gₐ + w · G_b` with `w = (σ² − a²) ÷ (b² − a²)`: on
/// photographs 64–70 dB from the float64 reference at a ratio of 2^¼…2^⅛ (a hard checkerboard,
/// the worst case, 53–59 dB), so the steps are 2^⅙ apart. Where the field is flat at its maximum,
/// the pixel is the top step alone: the uniform blur of the maximum.
///
/// **Schedules.** Each step is computed only where a pixel uses it (``SigmaField/bounds(sigmaFrom:through:)``),
/// and on a row only over the runs of pixels that use it: below ``GaussianFastPath/pyramidThreshold``
/// by the direct kernel (±3σ, clamped to the region), from it on by a ``PyramidLevel`` over each
/// group of the step's rectangles grown by its reach (decimated, blurred at the coarse level,
/// B-spline upsampled) whose coarse rows are made once, in order, as the bands come. The
/// checkpoint is asked every ``rowsPerCheck`` rows. Every pixel is summed in float32 in one fixed
/// order and rounded once, so the bytes do not depend on threads, bands or instruction set.
final class FieldBlurStage: RowStage {
    let width: Int
    let height: Int
    private let field: any SigmaField
    /// The steps' σ, the identity's first (0.2 px) and the maximum last.
    let ladder: [Double]
    /// Per step (nil for the identity and for steps no pixel uses).
    private let levels: [FieldLevel?]
    /// The dimming over the field: a colour and each pixel's coverage.
    private let dimming: FieldDimming?
    /// Rows above a band that some step may read.
    private let reach: Int

    /// Rows made between two checkpoints.
    static let rowsPerCheck = 16

    /// Pixels between two runs of a step's users that are computed rather than start a new run.
    static let runGap = 24

    /// The steps' ratio.
    static let ratio = 1.122_462_048_309_373  // 2^⅙

    init(field: any SigmaField, width: Int, height: Int, dimming: FieldDimming? = nil) {
        self.width = width
        self.height = height
        self.field = field
        self.dimming = dimming
        let ladder = FieldBlurStage.ladder(maximum: field.maximumSigma)
        self.ladder = ladder
        var levels: [FieldLevel?] = [nil]
        var reach = 0
        for k in ladder.indices.dropFirst() {
            let low = ladder[k - 1], high = k + 1 < ladder.count ? ladder[k + 1] : ladder[k]
            let used = field.bounds(sigmaFrom: low, through: high)
            guard !used.isEmpty else {
                levels.append(nil)
                continue
            }
            let level = FieldLevel(sigma: ladder[k], used: used, field: field.region)
            reach = max(reach, level.reach)
            levels.append(level)
        }
        self.levels = levels
        self.reach = reach
    }

    /// The identity threshold, then the steps up to `maximum` (each ``ratio`` below the next);
    /// just the threshold when nothing is blurred.
    static func ladder(maximum: Double) -> [Double] {
        let floor = GaussianBlur.identityThreshold
        guard maximum > floor else { return [floor] }
        var steps = [maximum]
        while steps[steps.count - 1] / ratio > floor { steps.append(steps[steps.count - 1] / ratio) }
        steps.append(floor)
        return steps.reversed()
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let region = field.region
        input.keepFrom = max(0, min(rows.lowerBound, rows.lowerBound - reach))
        defer { input.keepFrom = nil }
        // The pyramid steps' coarse rows for the band, in order, before the rows share them out.
        for level in levels {
            guard let level, case let .pyramid(pyramids) = level.schedule else { continue }
            for (pyramid, usedRows) in pyramids {
                let used = usedRows.clamped(to: rows)
                guard !used.isEmpty else { continue }
                let local = (used.lowerBound - pyramid.region.y)..<(used.upperBound - pyramid.region.y)
                try pyramid.ensure(pyramid.plan.coarseRows(for: local), from: input, parts: parts)
            }
        }
        let inside = region.rows.clamped(to: rows)
        let directReach = levels.reduce(0) { r, level in
            guard let level, case let .direct(_, radius) = level.schedule else { return r }
            return max(r, radius)
        }
        var wanted = rows
        if !inside.isEmpty {
            wanted =
                min(
                    rows.lowerBound, max(region.y, inside.lowerBound - directReach))..<max(
                    rows.upperBound, min(region.y + region.height, inside.upperBound + directReach))
        }
        let view = try input.rows(wanted)!
        let field = field, levels = levels, ladder = ladder, dimming = dimming, width = width, coarsest = coarsest
        // A few rows at a time, the checkpoint asked between them: a row over ten thousand areas
        // that cover it may take a while, and a deadline holds inside the band.
        try Parallel.forEachBand(count: rows.count, parts: parts, rowsPerStep: FieldBlurStage.rowsPerCheck, checkpoint: input.checkpoint) { part in
            let scratch = FieldScratch(
                width: region.width, steps: ladder.count, line: region.width + 2 * directReach + coarsest, radius: directReach)
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                output.row(y).update(from: view.row(y), count: width * 4)
                guard region.rows.contains(y) else { continue }
                ladder.withUnsafeBufferPointer { ladder in
                    FieldBlurStage.row(y, field: field, levels: levels, ladder: ladder, view: view, scratch: scratch, into: output)
                }
                if let dimming {
                    dimming.coverages(y, region.columns, &scratch.coverage)
                    Bitmap.fillRow(output.row(y) + region.x * 4, pixels: region.width, with: dimming.color, coverages: scratch.coverage)
                }
            }
        }
    }

    /// Row `y` of the region: each pixel's steps, each step's values across the columns that use
    /// it, blended.
    private static func row(
        _ y: Int, field: any SigmaField, levels: [FieldLevel?], ladder: UnsafeBufferPointer<Double>, view: PixelView,
        scratch: FieldScratch, into output: MutablePixelView
    ) {
        let region = field.region, n = region.width
        field.sigmas(row: y, columns: region.columns, into: scratch.sigma)
        scratch.clearSpans()
        let lower = scratch.lower, weight = scratch.weight, first = scratch.first, last = scratch.last, sum = scratch.sum
        let values = scratch.values, source = view.row(y) + region.x * 4
        let sigma = scratch.sigma, top = ladder.count - 1, floor = ladder[0]
        /// Adds step `k`'s share to the pixels of its run `first[k]…last[k]` that use it, and closes the run.
        func flush(_ k: Int) {
            let span = first[k]..<(last[k] + 1)
            first[k] = .max
            last[k] = .min
            if k == 0 {
                for i in span where lower[i] == 0 { sum[i] += (1 - weight[i]) * FieldBlurStage.pixel(source, i) }
                return
            }
            // Every step a pixel uses has a level (the bounds are conservative); were one missing, its
            // pixels would lack that share rather than stop the process.
            guard let level = levels[k] else { return }
            level.values(row: y, columns: (region.x + span.lowerBound)..<(region.x + span.upperBound), view: view, scratch: scratch)
            let at = values - span.lowerBound
            for i in span {
                let l = Int(lower[i])
                if l == k {
                    sum[i] += (1 - weight[i]) * at[i]
                } else if l + 1 == k {
                    sum[i] += weight[i] * at[i]
                }
            }
        }
        /// Pixel `i` uses step `k`: its run grows, or (past a gap) the run is drawn and a new one starts.
        func use(_ k: Int, _ i: Int) {
            if last[k] >= 0 && i - last[k] > FieldBlurStage.runGap { flush(k) }
            if first[k] == .max { first[k] = i }
            last[k] = i
        }
        // Each pixel's step, walked from its neighbour's (σ changes little from pixel to pixel): the
        // last step below σ, as a search would find it; each step computed over the runs of pixels
        // that use it (a feather's ring is two short runs a row, not the width between them).
        var k = 0, blurred = false
        for i in 0..<n {
            let s = sigma[i]
            var w: Float = 0
            if s <= floor {
                k = 0
            } else if s >= ladder[top] {
                k = top
            } else {
                while k > 0 && ladder[k] >= s { k -= 1 }
                while k + 1 < top && ladder[k + 1] < s { k += 1 }
                let a = ladder[k], b = ladder[k + 1]
                w = Float((s * s - a * a) / (b * b - a * a))
            }
            lower[i] = Int32(k)
            weight[i] = w
            sum[i] = .zero
            guard k > 0 || w > 0 else { continue }
            blurred = true
            // A step a pixel weighs nothing of is not computed for it.
            if w < 1 { use(k, i) }
            if w > 0 { use(k + 1, i) }
        }
        guard blurred else { return }
        for k in 0...top where first[k] <= last[k] { flush(k) }
        let target = output.row(y) + region.x * 4
        // Rounded to nearest, ties to even, as the reference: 2²³ added and taken away (every sum lies in 0…255).
        let magic = SIMD4<Float>(repeating: 8_388_608)
        for i in 0..<n where lower[i] > 0 || weight[i] > 0 {
            let r = (sum[i] + magic) - magic
            for c in 0..<4 { target[i * 4 + c] = UInt8(min(255, max(0, r[c]))) }
        }
    }

    @inline(__always)
    static func pixel(_ row: UnsafePointer<UInt8>, _ i: Int) -> SIMD4<Float> {
        SIMD4(Float(row[i * 4]), Float(row[i * 4 + 1]), Float(row[i * 4 + 2]), Float(row[i * 4 + 3]))
    }

    func heldBytes(bandRows: Int) -> Int {
        levels.reduce(0) { total, level in
            guard let level, case let .pyramid(pyramids) = level.schedule else { return total }
            return pyramids.reduce(total) { total, pair in
                let (pyramid, plan) = (pair.level, pair.level.plan)
                let coarse = bandRows / plan.factor + plan.y.upsample.width + 2 * plan.coarseRadius + pyramid.decimationBatch + 2
                // Its plan's tables too: a step holds one pyramid a group of areas.
                return total + max(pyramid.heldBytes, coarse * plan.x.blurredCount * 32) + plan.bytes
            }
        } + (parallelParts * region.width * 64)
    }

    func inputBytes(bandRows: Int) -> Int {
        let pyramids = levels.reduce(0) { total, level in
            guard let level, case let .pyramid(pyramids) = level.schedule else { return total }
            return pyramids.reduce(total) { max($0, $1.level.inputBytes) }
        }
        return (bandRows + 2 * reach) * width * 4 + pyramids
    }

    private var region: PixelRect { field.region }
    /// The most coarse samples a pyramid step's row holds.
    private var coarsest: Int {
        levels.reduce(0) { most, level in
            guard let level, case let .pyramid(pyramids) = level.schedule else { return most }
            return pyramids.reduce(most) { max($0, $1.level.plan.x.blurredCount) }
        }
    }
    private var parallelParts: Int { 16 }
}

/// The dimming drawn over a field blur: a colour, and each pixel's coverage (0…1) of a row's columns.
package struct FieldDimming: Sendable {
    let color: Color
    let coverages: @Sendable (Int, Range<Int>, inout [Float]) -> Void
}

/// One thread's working rows, allocated once a band.
final class FieldScratch {
    let sigma: UnsafeMutablePointer<Double>
    let lower: UnsafeMutablePointer<Int32>
    let weight: UnsafeMutablePointer<Float>
    let sum: UnsafeMutablePointer<SIMD4<Float>>
    let values: UnsafeMutablePointer<SIMD4<Float>>
    let first: UnsafeMutablePointer<Int>
    let last: UnsafeMutablePointer<Int>
    /// The direct kernel's columns down (the span and its reach either side), or a pyramid step's
    /// coarse samples down.
    let down: UnsafeMutablePointer<SIMD4<Float>>
    /// The rows a direct kernel reads, from the top of its reach.
    let rows: UnsafeMutablePointer<UnsafePointer<UInt8>>
    var coverage: [Float]
    private let width: Int
    private let steps: Int
    private let line: Int
    private let reach: Int

    init(width: Int, steps: Int, line: Int, radius: Int) {
        self.width = width
        self.steps = steps + 1
        self.line = line + 8
        reach = 2 * radius + 1
        sigma = .allocate(capacity: width)
        lower = .allocate(capacity: width)
        weight = .allocate(capacity: width)
        sum = .allocate(capacity: width)
        values = .allocate(capacity: width)
        first = .allocate(capacity: steps + 1)
        last = .allocate(capacity: steps + 1)
        down = .allocate(capacity: line + 8)
        rows = .allocate(capacity: 2 * radius + 1)
        coverage = [Float](repeating: 0, count: width)
    }

    deinit {
        sigma.deallocate()
        lower.deallocate()
        weight.deallocate()
        sum.deallocate()
        values.deallocate()
        first.deallocate()
        last.deallocate()
        down.deallocate()
        rows.deallocate()
    }

    /// The steps' first and last users set to none.
    func clearSpans() {
        for k in 0..<steps {
            first[k] = .max
            last[k] = .min
        }
    }
}

/// One step of the ladder: where it is used, and how it is computed.
final class FieldLevel: @unchecked Sendable {
    enum Schedule {
        /// The half-kernel (centre first) and its radius.
        case direct([Float], Int)
        /// A pyramid over each group of rectangles that use the step (grown by its reach, those that
        /// meet merged), and the rows of that group that use it.
        case pyramid([(level: PyramidLevel, usedRows: Range<Int>)])
    }
    let sigma: Double
    /// The field's region: where a direct kernel clamps.
    let bounds: PixelRect
    let schedule: Schedule
    /// Rows and columns beyond `used` it reads.
    let reach: Int

    /// More rectangles than this are not grouped one by one: one pyramid covers them all.
    static let mostGroups = 64

    init(sigma: Double, used: [PixelRect], field: PixelRect) {
        self.sigma = sigma
        bounds = field
        if sigma < GaussianFastPath.pyramidThreshold {
            let half = GaussianFastPath.halfKernel(sigma).map(Float.init)
            schedule = .direct(half, half.count - 1)
            reach = half.count - 1
        } else {
            let reach = PyramidPlan.reach(sigma)
            // Each rectangle grown by the reach; those that meet merged, until none does.
            var groups: [(region: PixelRect, rows: Range<Int>)] = []
            if used.count > FieldLevel.mostGroups {
                let all = used.dropFirst().reduce(used[0]) { $0.union($1) }
                groups = all.grown(by: reach, clippedTo: field).map { [($0, all.rows)] } ?? []
            } else {
                for rect in used {
                    guard var region = rect.grown(by: reach, clippedTo: field) else { continue }
                    var rows = rect.rows
                    var i = 0
                    while i < groups.count {
                        if groups[i].region.meets(region) {
                            region = region.union(groups[i].region)
                            rows = min(rows.lowerBound, groups[i].rows.lowerBound)..<max(rows.upperBound, groups[i].rows.upperBound)
                            groups.remove(at: i)
                            i = 0
                        } else {
                            i += 1
                        }
                    }
                    groups.append((region, rows))
                }
            }
            schedule = .pyramid(groups.map { (PyramidLevel(sigma: sigma, region: $0.region, edges: .clamp), $0.rows) })
            self.reach = reach
        }
    }

    /// The step's values at row `y`, columns `columns` (image coordinates, inside the field's
    /// region), into `scratch.values` from its start.
    func values(row y: Int, columns: Range<Int>, view: PixelView, scratch: FieldScratch) {
        switch schedule {
        case let .direct(half, radius):
            half.withUnsafeBufferPointer { direct(row: y, columns: columns, half: $0.baseAddress!, radius: radius, view: view, scratch: scratch) }
        case let .pyramid(pyramids):
            // The pixels that use the step lie in one group's rows and columns.
            for (pyramid, usedRows) in pyramids where usedRows.contains(y) {
                let inside = columns.clamped(to: pyramid.region.columns)
                guard !inside.isEmpty else { continue }
                upsample(row: y, columns: inside, offset: inside.lowerBound - columns.lowerBound, pyramid: pyramid, scratch: scratch)
            }
        }
    }

    /// The direct kernel: down the columns in reach, then across; rows and columns clamped to the region.
    private func direct(row y: Int, columns: Range<Int>, half k: UnsafePointer<Float>, radius: Int, view: PixelView, scratch: FieldScratch) {
        let b = bounds
        let lo = columns.lowerBound - radius, hi = columns.upperBound + radius
        let top = b.y, bottom = b.y + b.height - 1, left = b.x, right = b.x + b.width - 1
        // The rows in reach, the edge rows standing in beyond the region.
        let rows = scratch.rows + radius
        for t in -radius...radius { rows[t] = view.row(min(max(y + t, top), bottom)) }
        let down = scratch.down - lo, values = scratch.values - columns.lowerBound
        // Inside the region's sides the columns are read where they lie; beyond them, the edge column's value.
        let inner = max(lo, left)..<min(hi, right + 1)
        for x in inner {
            let c = x * 4
            var acc = k[0] * FieldBlurStage.pixel(rows[0] + c, 0)
            for t in 1...radius { acc += k[t] * (FieldBlurStage.pixel(rows[-t] + c, 0) + FieldBlurStage.pixel(rows[t] + c, 0)) }
            down[x] = acc
        }
        for x in lo..<inner.lowerBound { down[x] = down[left] }
        for x in inner.upperBound..<hi { down[x] = down[right] }
        for x in columns {
            var acc = k[0] * down[x]
            for t in 1...radius { acc += k[t] * (down[x - t] + down[x + t]) }
            values[x] = acc
        }
    }

    /// The pyramid step: its blurred coarse rows B-spline-upsampled, down then across.
    private func upsample(row y: Int, columns: Range<Int>, offset: Int, pyramid: PyramidLevel, scratch: FieldScratch) {
        let plan = pyramid.plan, region = pyramid.region
        let ly = y - region.y, tapsY = plan.y.upsample.width, tapsX = plan.x.upsample.width
        let firstRow = plan.y.upsample.starts[ly]
        let x0 = columns.lowerBound - region.x, x1 = columns.upperBound - region.x
        let c0 = plan.x.upsample.starts[x0], c1 = plan.x.upsample.starts[x1 - 1] + tapsX
        let down = scratch.down - c0, values = scratch.values + offset - x0
        for c in c0..<c1 { down[c] = .zero }
        plan.y.upsample.weights.withUnsafeBufferPointer { weightsY in
            for t in 0..<tapsY {
                let w = weightsY[ly * tapsY + t]
                guard w != 0 else { continue }
                let row = UnsafeRawPointer(pyramid.row(firstRow + t))
                for c in c0..<c1 { down[c] += w * row.loadUnaligned(fromByteOffset: c * 16, as: SIMD4<Float>.self) }
            }
        }
        plan.x.upsample.weights.withUnsafeBufferPointer { weights in
            plan.x.upsample.starts.withUnsafeBufferPointer { starts in
                for x in x0..<x1 {
                    let start = starts[x], w = weights.baseAddress! + x * tapsX
                    var acc = SIMD4<Float>.zero
                    for t in 0..<tapsX { acc += w[t] * down[start + t] }
                    values[x] = acc
                }
            }
        }
    }
}
