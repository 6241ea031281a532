/// The region decimated once for every level of a progressive blur: by the factor f of its finest
/// level, with that factor's prefilter (σd = 0.8 f, as ``PyramidPlan`` has it), on the lattice
/// i·f + (f − 1)/2 of both axes — samples `first ..< first + count`, enough for every level's reach.
/// Each level is made from these samples (``LevelSamples``) instead of from the region's pixels, so
/// the full-resolution rows are decimated once, not once a level.
struct DecimationPlan: Sendable {
    let factor: Int
    /// From the region's columns (rows) to the samples, clamped at the region's edges.
    let x: FilterTaps
    let y: FilterTaps
    /// The lattice index of sample 0 on each axis.
    let firstX: Int
    let firstY: Int
    /// The region's width, in pixels.
    let width: Int

    /// About how many bytes the tables hold.
    var bytes: Int { x.bytes + y.bytes }

    /// Samples `xs` × `ys` (lattice indices) of a `width × height` region decimated by `factor`.
    init(factor: Int, width: Int, height: Int, xs: Range<Int>, ys: Range<Int>) {
        self.factor = factor
        self.width = width
        (firstX, firstY) = (xs.lowerBound, ys.lowerBound)
        x = PyramidAxis.decimation(count: width, factor: factor, samples: xs, edges: .clamp)
        y = PyramidAxis.decimation(count: height, factor: factor, samples: ys, edges: .clamp)
    }

    /// The decimation for the levels `levels` (their plans over the same region, nil for a level no
    /// line computes on): by the smallest of their factors, over every sample their own reach asks
    /// for. Nil without a level.
    init?(levels: [PyramidPlan?], width: Int, height: Int) {
        let used = levels.compactMap { $0 }
        guard let factor = used.map({ $0.factor }).min() else { return nil }
        var xs = (lo: Int.max, hi: Int.min), ys = (lo: Int.max, hi: Int.min)
        for level in used {
            let x = Self.reach(of: level.x, factor: level.factor, onto: factor)
            let y = Self.reach(of: level.y, factor: level.factor, onto: factor)
            xs = (min(xs.lo, x.lowerBound), max(xs.hi, x.upperBound))
            ys = (min(ys.lo, y.lowerBound), max(ys.hi, y.upperBound))
        }
        self.init(factor: factor, width: width, height: height, xs: xs.lo..<xs.hi, ys: ys.lo..<ys.hi)
    }

    /// The lattice indices (factor `base`) that a level's axis (factor `factor`) reads: its own
    /// samples on the same lattice, or for a coarser one the further prefilter's support around them.
    private static func reach(of axis: PyramidAxis, factor: Int, onto base: Int) -> Range<Int> {
        if factor == base { return axis.firstSample..<(axis.firstSample + axis.decimatedCount) }
        let support = 3.5 * LevelSamples.furtherSigma(factor: factor, base: base)
        let (k, b) = (Double(factor), Double(base))
        let first = Double(axis.firstSample) * k + (k - 1) / 2 - support,
            last = Double(axis.firstSample + axis.decimatedCount - 1) * k + (k - 1) / 2 + support
        return Int(((first - (b - 1) / 2) / b).rounded(.down))..<(Int(((last - (b - 1) / 2) / b).rounded(.up)) + 1)
    }

    /// Sample rows `rows`, decimated from `source` (which holds the region rows they read) into
    /// `target`: `x.count × 4` floats a row.
    func decimate(_ rows: Range<Int>, from source: PixelView, into target: SharedPointer<Float>, parts: Int?) {
        let w = width, rowFloats = x.count * 4
        Parallel.forEachBand(count: rows.count, parts: parts) { band in
            var line = [Float].unfilled(count: w * 4)
            line.withUnsafeMutableBufferPointer { line in
                for r in band {
                    Kernels.decimate(
                        row: rows.lowerBound + r, y: y, x: x, from: source, line: line.baseAddress!, into: target.base + r * rowFloats, width: w)
                }
            }
        }
    }
}
