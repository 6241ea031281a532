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
/// the pixel is the uniform blur itself.
///
/// **Schedules.** Each step is computed only where a pixel uses it (``SigmaField/bounds(sigmaFrom:through:)``),
/// and on a row only across the columns that use it: below ``GaussianFastPath/pyramidThreshold`` by
/// the direct kernel (±3σ, clamped to the region), from it on by a ``PyramidLevel`` over the step's
/// rectangle grown by its reach (decimated, blurred at the coarse level, B-spline upsampled) whose
/// coarse rows are made once, in order, as the bands come. Every pixel is summed in float32 in
/// one fixed order and rounded once, so the bytes do not depend on threads, bands or instruction set.
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
            guard let used = field.bounds(sigmaFrom: low, through: high) else {
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

    /// The step below σ and the blend weight towards the next; (0, 0) at or below the threshold.
    @inline(__always)
    static func step(_ sigma: Double, in ladder: UnsafeBufferPointer<Double>) -> (Int, Float) {
        guard sigma > ladder[0] else { return (0, 0) }
        let top = ladder.count - 1
        guard sigma < ladder[top] else { return (top, 0) }
        // The last step below σ: the ladder is short (at most a few dozen steps).
        var lo = 0, hi = top
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if ladder[mid] < sigma { lo = mid } else { hi = mid }
        }
        let a = ladder[lo], b = ladder[lo + 1]
        return (lo, Float((sigma * sigma - a * a) / (b * b - a * a)))
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let region = field.region
        input.keepFrom = max(0, min(rows.lowerBound, rows.lowerBound - reach))
        defer { input.keepFrom = nil }
        // The pyramid steps' coarse rows for the band, in order, before the rows share them out.
        for level in levels {
            guard let level, case let .pyramid(pyramid) = level.schedule else { continue }
            let used = level.used.rows.clamped(to: rows)
            guard !used.isEmpty else { continue }
            let local = (used.lowerBound - pyramid.region.y)..<(used.upperBound - pyramid.region.y)
            try pyramid.ensure(pyramid.plan.coarseRows(for: local), from: input, parts: parts)
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
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var scratch = FieldScratch(width: region.width, steps: ladder.count, line: region.width + 2 * directReach + coarsest)
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                output.row(y).update(from: view.row(y), count: width * 4)
                guard region.rows.contains(y) else { continue }
                ladder.withUnsafeBufferPointer { ladder in
                    FieldBlurStage.row(y, field: field, levels: levels, ladder: ladder, view: view, scratch: &scratch, into: output)
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
        scratch: inout FieldScratch, into output: MutablePixelView
    ) {
        let region = field.region, n = region.width
        scratch.sigma.withUnsafeMutableBufferPointer { field.sigmas(row: y, columns: region.columns, into: $0.baseAddress!) }
        // Each pixel's lower step and weight, and each step's first and last user.
        for k in scratch.first.indices {
            scratch.first[k] = Int.max
            scratch.last[k] = Int.min
        }
        var blurred = false
        for i in 0..<n {
            let (k, w) = step(scratch.sigma[i], in: ladder)
            scratch.lower[i] = Int32(k)
            scratch.weight[i] = w
            guard k > 0 || w > 0 else { continue }
            blurred = true
            // A step a pixel weighs nothing of is not computed for it.
            if w < 1 {
                scratch.first[k] = min(scratch.first[k], i)
                scratch.last[k] = max(scratch.last[k], i)
            }
            if w > 0 {
                scratch.first[k + 1] = min(scratch.first[k + 1], i)
                scratch.last[k + 1] = max(scratch.last[k + 1], i)
            }
        }
        guard blurred else { return }
        let source = view.row(y) + region.x * 4
        for i in 0..<n { scratch.sum[i] = .zero }
        for k in 0..<ladder.count where scratch.first[k] <= scratch.last[k] {
            let span = scratch.first[k]..<(scratch.last[k] + 1)
            if k == 0 {
                for i in span where scratch.lower[i] == 0 {
                    scratch.sum[i] += (1 - scratch.weight[i]) * FieldBlurStage.pixel(source, i)
                }
                continue
            }
            // A step no pixel was meant to use (the bounds are conservative the other way) cannot
            // be missing: every step a pixel uses has a level.
            let level = levels[k]!
            level.values(row: y, columns: (region.x + span.lowerBound)..<(region.x + span.upperBound), view: view, scratch: &scratch)
            for i in span {
                let lower = Int(scratch.lower[i])
                if lower == k {
                    scratch.sum[i] += (1 - scratch.weight[i]) * scratch.values[i - span.lowerBound]
                } else if lower + 1 == k {
                    scratch.sum[i] += scratch.weight[i] * scratch.values[i - span.lowerBound]
                }
            }
        }
        let target = output.row(y) + region.x * 4
        for i in 0..<n where scratch.lower[i] > 0 || scratch.weight[i] > 0 {
            let v = scratch.sum[i].rounded(.toNearestOrEven).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
            target[i * 4] = UInt8(v[0])
            target[i * 4 + 1] = UInt8(v[1])
            target[i * 4 + 2] = UInt8(v[2])
            target[i * 4 + 3] = UInt8(v[3])
        }
    }

    @inline(__always)
    static func pixel(_ row: UnsafePointer<UInt8>, _ i: Int) -> SIMD4<Float> {
        SIMD4(Float(row[i * 4]), Float(row[i * 4 + 1]), Float(row[i * 4 + 2]), Float(row[i * 4 + 3]))
    }

    func heldBytes(bandRows: Int) -> Int {
        levels.reduce(0) { total, level in
            guard let level, case let .pyramid(pyramid) = level.schedule else { return total }
            let plan = pyramid.plan
            let coarse = bandRows / plan.factor + plan.y.upsample.width + 2 * plan.coarseRadius + pyramid.decimationBatch + 2
            return total + max(pyramid.heldBytes, coarse * plan.x.blurredCount * 32)
        } + (parallelParts * region.width * 64)
    }

    func inputBytes(bandRows: Int) -> Int {
        let pyramids = levels.reduce(0) { total, level in
            guard let level, case let .pyramid(pyramid) = level.schedule else { return total }
            return max(total, pyramid.inputBytes)
        }
        return (bandRows + 2 * reach) * width * 4 + pyramids
    }

    private var region: PixelRect { field.region }
    /// The most coarse samples a pyramid step's row holds.
    private var coarsest: Int {
        levels.reduce(0) { most, level in
            guard let level, case let .pyramid(pyramid) = level.schedule else { return most }
            return max(most, pyramid.plan.x.blurredCount)
        }
    }
    private var parallelParts: Int { 16 }
}

/// The dimming drawn over a field blur: a colour, and each pixel's coverage (0…1) of a row's columns.
package struct FieldDimming: Sendable {
    let color: Color
    let coverages: @Sendable (Int, Range<Int>, inout [Float]) -> Void
}

/// One thread's working rows.
struct FieldScratch {
    var sigma: [Double]
    var lower: [Int32]
    var weight: [Float]
    var sum: [SIMD4<Float>]
    var values: [SIMD4<Float>]
    var first: [Int]
    var last: [Int]
    /// The direct kernel's columns down (the span and its reach either side).
    var down: [SIMD4<Float>]
    var coverage: [Float]

    init(width: Int, steps: Int, line: Int) {
        sigma = [Double](repeating: 0, count: width)
        lower = [Int32](repeating: 0, count: width)
        weight = [Float](repeating: 0, count: width)
        sum = [SIMD4<Float>](repeating: .zero, count: width)
        values = [SIMD4<Float>](repeating: .zero, count: width)
        first = [Int](repeating: .max, count: steps + 1)
        last = [Int](repeating: .min, count: steps + 1)
        down = [SIMD4<Float>](repeating: .zero, count: line + 8)
        coverage = [Float](repeating: 0, count: width)
    }
}

/// One step of the ladder: where it is used, and how it is computed.
final class FieldLevel: @unchecked Sendable {
    enum Schedule {
        /// The half-kernel (centre first) and its radius.
        case direct([Float], Int)
        case pyramid(PyramidLevel)
    }
    let sigma: Double
    /// The pixels that use it (conservatively).
    let used: PixelRect
    /// The field's region: where a direct kernel clamps.
    let bounds: PixelRect
    let schedule: Schedule
    /// Rows and columns beyond `used` it reads.
    let reach: Int

    init(sigma: Double, used: PixelRect, field: PixelRect) {
        self.sigma = sigma
        self.used = used
        bounds = field
        if sigma < GaussianFastPath.pyramidThreshold {
            let half = GaussianFastPath.halfKernel(sigma).map(Float.init)
            schedule = .direct(half, half.count - 1)
            reach = half.count - 1
        } else {
            let reach = PyramidPlan.reach(sigma)
            let region = used.grown(by: reach, clippedTo: field)!
            schedule = .pyramid(PyramidLevel(sigma: sigma, region: region, edges: .clamp))
            self.reach = reach
        }
    }

    /// The step's values at row `y`, columns `columns` (image coordinates, inside the field's
    /// region), into `scratch.values` from its start.
    func values(row y: Int, columns: Range<Int>, view: PixelView, scratch: inout FieldScratch) {
        switch schedule {
        case let .direct(half, radius):
            direct(row: y, columns: columns, half: half, radius: radius, view: view, scratch: &scratch)
        case let .pyramid(pyramid):
            upsample(row: y, columns: columns, pyramid: pyramid, scratch: &scratch)
        }
    }

    /// The direct kernel: down the columns in reach, then across; rows and columns clamped to the region.
    private func direct(row y: Int, columns: Range<Int>, half: [Float], radius: Int, view: PixelView, scratch: inout FieldScratch) {
        let b = bounds
        let lo = columns.lowerBound - radius, hi = columns.upperBound + radius
        let top = b.y, bottom = b.y + b.height - 1, left = b.x, right = b.x + b.width - 1
        half.withUnsafeBufferPointer { k in
            scratch.down.withUnsafeMutableBufferPointer { down in
                for x in lo..<hi {
                    let c = min(max(x, left), right) * 4
                    var acc = k[0] * FieldBlurStage.pixel(view.row(y) + c, 0)
                    for t in 1...radius {
                        let above = view.row(max(y - t, top)) + c, below = view.row(min(y + t, bottom)) + c
                        acc += k[t] * (FieldBlurStage.pixel(above, 0) + FieldBlurStage.pixel(below, 0))
                    }
                    down[x - lo] = acc
                }
                scratch.values.withUnsafeMutableBufferPointer { values in
                    for x in columns {
                        let centre = x - lo
                        var acc = k[0] * down[centre]
                        for t in 1...radius {
                            // Beyond the region's sides: its edge column (the clamped reads above).
                            acc += k[t] * (down[centre - t] + down[centre + t])
                        }
                        values[x - columns.lowerBound] = acc
                    }
                }
            }
        }
    }

    /// The pyramid step: its blurred coarse rows B-spline-upsampled, down then across.
    private func upsample(row y: Int, columns: Range<Int>, pyramid: PyramidLevel, scratch: inout FieldScratch) {
        let plan = pyramid.plan, region = pyramid.region
        let ly = y - region.y, tapsY = plan.y.upsample.width, tapsX = plan.x.upsample.width
        let firstRow = plan.y.upsample.starts[ly]
        let x0 = columns.lowerBound - region.x, x1 = columns.upperBound - region.x
        let c0 = plan.x.upsample.starts[x0], c1 = plan.x.upsample.starts[x1 - 1] + tapsX
        scratch.down.withUnsafeMutableBufferPointer { down in
            for c in c0..<c1 { down[c - c0] = .zero }
            for t in 0..<tapsY {
                let w = plan.y.upsample.weights[ly * tapsY + t]
                guard w != 0 else { continue }
                let row = UnsafeRawPointer(pyramid.row(firstRow + t))
                for c in c0..<c1 { down[c - c0] += w * row.loadUnaligned(fromByteOffset: c * 16, as: SIMD4<Float>.self) }
            }
            scratch.values.withUnsafeMutableBufferPointer { values in
                plan.x.upsample.weights.withUnsafeBufferPointer { weights in
                    for x in x0..<x1 {
                        let start = plan.x.upsample.starts[x] - c0
                        var acc = SIMD4<Float>.zero
                        for t in 0..<tapsX { acc += weights[x * tapsX + t] * down[start + t] }
                        values[x - x0] = acc
                    }
                }
            }
        }
    }
}
