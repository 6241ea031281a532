/// The fast Gaussian blur as a stage of the streaming chain: output rows in order from input rows
/// in order, holding only the rows in reach. ``GaussianBlur``'s whole-image API runs this same
/// stage over the image in memory (``RowStage/run(_:parts:bandRows:)``), so both give the same bytes.
///
/// - **direct** (σ < ``GaussianFastPath/pyramidThreshold``): each output row from the input rows
///   within ±3σ, in fixed point (``FixedPointRows``).
/// - **pyramid**: a ``PyramidLevel`` over the whole image makes the blurred coarse rows as the
///   input arrives (decimated down and across, blurred across, then down), and each is upsampled
///   across once and kept with 7 fractional bits (a window, `upsampled`); an output row is the
///   B-spline of four of those in fixed point. Memory: O(width × σ), not O(width × height).
final class GaussianStage: RowStage {
    let width: Int
    let height: Int
    private let schedule: Schedule

    private enum Schedule {
        case direct(FixedPointRows)
        case pyramid(PyramidLevel, upsampled: WorkRows<UInt16>, weights: [UInt16])
    }

    init(sigma: Double, edges: EdgeMode, width: Int, height: Int) {
        self.width = width
        self.height = height
        if sigma < GaussianFastPath.pyramidThreshold {
            schedule = .direct(FixedPointRows(sigma: sigma, edges: edges, width: width, height: height))
        } else {
            let tables = GaussianStage.pyramids.plan(for: PyramidKey(sigma: sigma, edges: edges, width: width, height: height)) {
                let plan = PyramidPlan(sigma: sigma, edges: edges, width: width, height: height)
                return (PyramidTables(plan: plan, weights: plan.y.upsample.quantised), plan.bytes)
            }
            let level = PyramidLevel(plan: tables.plan, region: PixelRect(x: 0, y: 0, width: width, height: height))
            schedule = .pyramid(level, upsampled: WorkRows(length: width * 4), weights: tables.weights)
        }
    }

    /// The pyramid's tables for one σ, edge mode and size, and its upsampling's weights down in Q16:
    /// immutable, kept so that a blur drawn again at one size (a material behind a view, frame after
    /// frame) builds them once (about 2 ms at 6000×4000).
    private final class PyramidTables: Sendable {
        let plan: PyramidPlan
        let weights: [UInt16]
        init(plan: PyramidPlan, weights: [UInt16]) {
            self.plan = plan
            self.weights = weights
        }
    }

    private struct PyramidKey: Equatable, Sendable {
        let sigma: Double
        let edges: EdgeMode
        let width: Int
        let height: Int
    }

    /// The last pyramids built: up to 16, and 16 MiB of them.
    private static let pyramids = PlanCache<PyramidKey, PyramidTables>(capacity: 16, byteLimit: 16 << 20)

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        switch schedule {
        case let .direct(direct):
            let source = try input.rows(direct.inputRows(for: rows))!
            Parallel.forEachBand(count: rows.count, parts: parts) { part in
                var scratch = direct.makeScratch()
                let band = (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound)
                direct.rows(band, source: source, scratch: &scratch, into: output)
            }
        case let .pyramid(level, upsampled, weights):
            try producePyramid(rows, level: level, upsampled: upsampled, weights: weights, from: input, into: output, parts: parts)
        }
    }

    /// The pyramid's output rows: the coarse rows they reach made and upsampled across (once
    /// each, kept with 7 fractional bits), then each output row the B-spline of four of them in
    /// fixed point (``Kernels/fixedBlend(_:weights:count:into:)``), rounded to bytes.
    private func producePyramid(
        _ rows: Range<Int>, level: PyramidLevel, upsampled: WorkRows<UInt16>, weights: [UInt16], from input: RowWindow,
        into output: MutablePixelView, parts: Int?
    ) throws {
        let w = width, plan = level.plan, rowFloats = plan.x.blurredCount * 4
        try upsampled.ensure(plan.coarseRows(for: rows)) { new, target in
            try level.ensure(new, from: input, parts: parts)
            // The blurred coarse rows lie one after another in the level's window.
            let blurred = SharedPointer(level.row(new.lowerBound)), lines = SharedPointer(target)
            Parallel.forEachBand(count: new.count, parts: parts) { band in
                var line = [Float].unfilled(count: w * 4)
                line.withUnsafeMutableBufferPointer { line in
                    for i in band {
                        Kernels.resamplePixels(blurred.base + i * rowFloats, taps: plan.x.upsample, into: line.baseAddress!)
                        Kernels.fixedLine(line.baseAddress!, count: w * 4, into: lines.base + i * w * 4)
                    }
                }
            }
        }
        let taps = plan.y.upsample.width
        let lines = SharedPointer(upsampled.row(upsampled.first)), firstLine = upsampled.first
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var sources = [UnsafePointer<UInt16>](repeating: UnsafePointer(lines.base), count: taps)
            var splat = [SIMD16<UInt16>](repeating: .zero, count: taps)
            for y in rows.lowerBound + part.lowerBound..<rows.lowerBound + part.upperBound {
                let start = plan.y.upsample.starts[y] - firstLine
                for t in 0..<taps {
                    sources[t] = UnsafePointer(lines.base + (start + t) * w * 4)
                    splat[t] = SIMD16(repeating: weights[y * taps + t])
                }
                sources.withUnsafeBufferPointer { sources in
                    splat.withUnsafeBufferPointer { splat in
                        Kernels.fixedBlend(sources, weights: splat, count: w * 4, into: .bytes(output.row(y)))
                    }
                }
            }
        }
    }

    /// The first input row that producing output `row` first (before any other) reads.
    func firstInputRow(for row: Int) -> Int {
        switch schedule {
        case let .direct(direct): return direct.inputRows(for: row..<(row + 1)).lowerBound
        case let .pyramid(level, _, _): return level.plan.firstInputRow(forCoarse: level.plan.coarseRows(for: row..<(row + 1)).lowerBound)
        }
    }

    func inputBytes(bandRows: Int) -> Int {
        switch schedule {
        case let .direct(direct):
            return direct.inputRows(for: 0..<min(bandRows, height)).count * width * 4
        case let .pyramid(level, _, _):
            return level.inputBytes
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        switch schedule {
        case .direct:
            return 0
        case let .pyramid(level, upsampled, _):
            // The coarse rows one band reaches: upsampled, blurred, and blurred across (with the
            // rows blurring down reads); or what the windows hold, if more.
            let plan = level.plan, coarse = bandRows / plan.factor + plan.y.upsample.width + 1
            let estimate = coarse * width * 8 + (2 * coarse + 2 * plan.coarseRadius) * plan.x.blurredCount * 16
            return max(estimate, level.heldBytes + upsampled.heldBytes)
        }
    }
}

extension FilterTaps {
    /// The input samples that outputs `outputs` read.
    func inputs(for outputs: Range<Int>) -> Range<Int> {
        var lo = Int.max, hi = Int.min
        for o in outputs {
            lo = min(lo, starts[o])
            hi = max(hi, starts[o] + width)
        }
        return lo..<hi
    }
}
