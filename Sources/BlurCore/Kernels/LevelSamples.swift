/// How one level of a progressive blur takes its decimated samples from the shared decimation
/// (``DecimationPlan``) rather than from the region's pixels.
///
/// A level whose factor is the decimation's reads its samples where they lie. A coarser level
/// (factor fₖ > f) needs the region prefiltered by σd = 0.8 fₖ on its own lattice: that is the
/// decimation's samples (prefiltered by 0.8 f) filtered further by the Gaussian of
/// √(σdₖ² − σd²) — variances add — sampled at the level's positions, both ways. Exact but for
/// the decimation's aliasing, which the level's own blur then removes (against the float64
/// reference the progressive blur moved by at most 0.8 dB, to 65.0–73.2 dB, with this).
enum LevelSamples: Sendable {
    /// The same lattice: the level's sample (i, j) is the decimation's (i + x, j + y).
    case offset(x: Int, y: Int)
    /// A coarser lattice: the further prefilter from the decimation's samples to the level's, down
    /// (`y`, over sample rows) and across (`x`, over sample columns).
    case filtered(x: FilterTaps, y: FilterTaps)

    /// The further prefilter's σ, in pixels, from a decimation by `base` to a level's by `factor`.
    static func furtherSigma(factor: Int, base: Int) -> Double {
        GaussianFastPath.prefilterPerFactor * Double(factor * factor - base * base).squareRoot()
    }

    init(level: PyramidPlan, from decimation: DecimationPlan) {
        let base = decimation.factor
        guard level.factor != base else {
            self = .offset(x: level.x.firstSample - decimation.firstX, y: level.y.firstSample - decimation.firstY)
            return
        }
        let sigma = Self.furtherSigma(factor: level.factor, base: base) / Double(base)
        let (k, b) = (Double(level.factor), Double(base))
        func taps(_ axis: PyramidAxis, onto samples: FilterTaps, first: Int) -> FilterTaps {
            FilterTaps(
                inputCount: samples.count,
                positions: (0..<axis.decimatedCount).map {
                    (Double(axis.firstSample + $0) * k + (k - 1) / 2 - (b - 1) / 2) / b - Double(first)
                },
                support: 3.5 * sigma, edges: .clamp, normalise: true
            ) { gaussian($0, sigma: sigma) }
        }
        self = .filtered(
            x: taps(level.x, onto: decimation.x, first: decimation.firstX), y: taps(level.y, onto: decimation.y, first: decimation.firstY))
    }

    /// About how many bytes the tables hold.
    var bytes: Int {
        switch self {
        case .offset: 0
        case let .filtered(x, y): x.bytes + y.bytes
        }
    }

    /// The decimation's sample rows that the level's sample rows `rows` read.
    func sampleRows(for rows: Range<Int>) -> Range<Int> {
        switch self {
        case let .offset(_, y): (rows.lowerBound + y)..<(rows.upperBound + y)
        case let .filtered(_, y): y.inputs(for: rows)
        }
    }

    /// The first of the decimation's sample rows that the level's sample row `j` reads.
    func firstSampleRow(for j: Int) -> Int {
        switch self {
        case let .offset(_, y): j + y
        case let .filtered(_, y): y.starts[j]
        }
    }

    /// The level's sample rows `rows`, each blurred across by the level's coarse kernel, into
    /// `target` (`plan.x.blurredCount × 4` floats a row), from the decimation's rows
    /// ``sampleRows(for:)`` (`rows`) asks for: consecutive, `length` floats each, from `samples` on.
    func blurAcross(
        _ rows: Range<Int>, plan: PyramidPlan, samples: SharedPointer<Float>, length: Int, into target: SharedPointer<Float>, parts: Int?
    ) {
        let kernel = plan.coarseKernel, rowFloats = plan.x.blurredCount * 4, decimatedFloats = plan.x.decimatedCount * 4
        let first = sampleRows(for: rows).lowerBound, this = self
        /// The decimation's sample row `i`.
        @Sendable func row(_ i: Int) -> UnsafePointer<Float> { UnsafePointer(samples.base + (i - first) * length) }
        Parallel.forEachBand(count: rows.count, parts: parts) { band in
            switch this {
            case let .offset(dx, dy):
                for r in band {
                    let from = row(rows.lowerBound + r + dy) + dx * 4
                    Kernels.convolve(
                        count: rowFloats, kernel: kernel, sources: kernel.indices.map { from + $0 * 4 }, into: target.base + r * rowFloats)
                }
            case let .filtered(x, y):
                var line = [Float].unfilled(count: length), decimated = [Float].unfilled(count: decimatedFloats)
                line.withUnsafeMutableBufferPointer { line in
                    decimated.withUnsafeMutableBufferPointer { d in
                        let from = UnsafePointer(d.baseAddress!)
                        let across = kernel.indices.map { from + $0 * 4 }
                        for r in band {
                            let j = rows.lowerBound + r
                            let weights = Array(y.weights[(j * y.width)..<((j + 1) * y.width)])
                            let sources = (0..<y.width).map { row(y.starts[j] + $0) }
                            Kernels.convolve(count: length, kernel: weights, sources: sources, into: line.baseAddress!)
                            Kernels.resamplePixels(line.baseAddress!, taps: x, into: d.baseAddress!)
                            Kernels.convolve(count: rowFloats, kernel: kernel, sources: across, into: target.base + r * rowFloats)
                        }
                    }
                }
            }
        }
    }
}
