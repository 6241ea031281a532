/// The fast Gaussian blur, held to ``GaussianBlur/reference(_:)`` by the tests.
///
/// Two schedules, chosen by σ:
/// - **direct** (σ < ``pyramidThreshold``): for each output row, a vertical pass over the rows in
///   reach into a line and a horizontal pass from it to the output, in 16-bit fixed point
///   (``FixedPointRows``). One trip through memory; the kernel reaches ±3σ.
/// - **pyramid** (larger σ): decimate by an integer factor k with a Gaussian prefilter (σd = 0.8k,
///   so nothing aliases), blur the small image with the remaining σc, and upsample with a cubic
///   B-spline. Variances add: σ² = σd² + k²(σc² + ⅓). k grows with σ, so the cost per pixel is
///   constant: about 6 multiply-adds to decimate and 4 to upsample, per channel.
/// Every weight is positive and every channel goes through the same operations in the same order,
/// so premultiplied colour never exceeds alpha; each output row is computed the same way whatever
/// band it falls in, so the bytes do not depend on the thread count or the band size. Both run as
/// a stage of the streaming chain (``GaussianStage``).
enum GaussianFastPath {
    /// Direct convolution below this σ (pixels), the pyramid from it on. Measured on 6000×4000, one
    /// thread (`BlurBench --threads 1 --profile σ`, best of 14+ runs): the fixed-point direct
    /// kernel 189 ms against the pyramid's 307 at σ 5 (a factor of 2, whose decimation costs
    /// nearly what it saves), 232 against 172 at σ 6 (a factor of 3).
    static let pyramidThreshold = 6.0
    /// σ ÷ k: how coarse the pyramid may go. Smaller is faster and less exact.
    static let sigmaPerFactor = 2.0
    /// The decimation prefilter: σd = k × this.
    static let prefilterPerFactor = 0.8
    /// The direct kernel's reach in σ.
    static let directReach = 3.0

    /// The direct kernel's radius for `sigma`, in pixels (at least 1).
    static func directRadius(_ sigma: Double) -> Int {
        max(1, Int((directReach * sigma).rounded(.up)))
    }

    /// The normalised sampled Gaussian from the centre out: k[0], k[1] … k[radius].
    static func halfKernel(_ sigma: Double) -> [Double] {
        let half = (0...directRadius(sigma)).map { gaussian(Double($0), sigma: sigma) }
        let total = half[0] + 2 * half.dropFirst().reduce(0, +)
        return half.map { $0 / total }
    }
}

/// The pyramid for one σ: the factor, the coarse blur and both axes, with the steps that make its
/// coarse rows. Coarse row j is decimated (down, then across) and blurred across; blurring it
/// down reads coarse rows j … j + 2 × ``coarseRadius``.
struct PyramidPlan: Sendable {
    let factor: Int
    let coarseRadius: Int
    let coarseKernel: [Float]
    let x: PyramidAxis
    let y: PyramidAxis
    let width: Int

    /// - Parameters:
    ///   - margin: blurred coarse samples made beyond those the upsampling reads, on each side of both
    ///     axes: room for a further blur of that reach at the coarse level (the variable blur's residual).
    ///   - decimatesRegion: false for a level of the progressive blur, whose samples come from the
    ///     shared decimation (``LevelSamples``): its tables from the region are left empty.
    init(sigma: Double, edges: EdgeMode, width: Int, height: Int, margin: Int = 0, decimatesRegion: Bool = true) {
        (factor, coarseRadius) = PyramidPlan.shape(sigma)
        let sigmaC = PyramidPlan.coarseSigma(sigma, factor: factor)
        let coarse = (-coarseRadius...coarseRadius).map { gaussian(Double($0), sigma: sigmaC) }
        let coarseSum = coarse.reduce(0, +)
        coarseKernel = coarse.map { Float($0 / coarseSum) }
        x = PyramidAxis(
            count: width, factor: factor, coarseRadius: coarseRadius, margin: margin, edges: edges, decimates: decimatesRegion)
        y = PyramidAxis(
            count: height, factor: factor, coarseRadius: coarseRadius, margin: margin, edges: edges, decimates: decimatesRegion)
        self.width = width
    }

    /// The decimation factor k for `sigma` and the coarse blur's radius, in coarse samples.
    static func shape(_ sigma: Double) -> (factor: Int, coarseRadius: Int) {
        let factor = max(2, Int(sigma / GaussianFastPath.sigmaPerFactor))
        return (factor, max(1, Int((4 * coarseSigma(sigma, factor: factor)).rounded(.up))))
    }

    /// The coarse blur's σc: what σ² leaves once the prefilter and the B-spline have taken theirs.
    static func coarseSigma(_ sigma: Double, factor: Int) -> Double {
        let k = Double(factor), sigmaD = GaussianFastPath.prefilterPerFactor * k
        return ((sigma * sigma - sigmaD * sigmaD) / (k * k) - 1.0 / 3).squareRoot()
    }

    /// Input pixels either side of an output pixel that the pyramid for `sigma` may read along an
    /// axis: the prefilter's support, the coarse blur's radius and the B-spline's two coarse
    /// samples, all in pixels.
    static func reach(_ sigma: Double, margin: Int = 0) -> Int {
        let (factor, radius) = shape(sigma)
        let prefilter = 3.5 * GaussianFastPath.prefilterPerFactor * Double(factor)
        return Int((Double(factor * (radius + margin + 2)) + prefilter).rounded(.up)) + 1
    }

    /// The first input row that making blurred coarse row `j` first reads.
    func firstInputRow(forCoarse j: Int) -> Int { y.decimate.starts[j] }

    /// About how many bytes the plan's tables hold.
    var bytes: Int { x.bytes + y.bytes + coarseKernel.count * 4 }

    /// The blurred coarse rows that output rows `rows` are upsampled from.
    func coarseRows(for rows: Range<Int>) -> Range<Int> {
        y.upsample.starts[rows.lowerBound]..<(y.upsample.starts[rows.upperBound - 1] + y.upsample.width)
    }

    /// Coarse rows `rows`, decimated from `source` (which holds the rows they read) and blurred
    /// across, into `target`: `x.blurredCount × 4` floats a row, from `target.base` on.
    func decimate(_ rows: Range<Int>, from source: PixelView, into target: SharedPointer<Float>, parts: Int?) {
        let w = width, decimatedFloats = x.decimatedCount * 4, rowFloats = x.blurredCount * 4
        let kernel = coarseKernel
        Parallel.forEachBand(count: rows.count, parts: parts) { band in
            var line = [Float].unfilled(count: w * 4), decimated = [Float].unfilled(count: decimatedFloats)
            line.withUnsafeMutableBufferPointer { line in
                decimated.withUnsafeMutableBufferPointer { d in
                    let from = d.baseAddress!
                    let sources = kernel.indices.map { UnsafePointer(from + $0 * 4) }
                    for r in band {
                        Kernels.decimate(
                            row: rows.lowerBound + r, y: y.decimate, x: x.decimate, from: source, line: line.baseAddress!, into: from, width: w)
                        Kernels.convolve(count: rowFloats, kernel: kernel, sources: sources, into: target.base + r * rowFloats)
                    }
                }
            }
        }
    }

    /// One blurred coarse row from the `2 × coarseRadius + 1` rows of decimated-and-blurred-across
    /// coarse rows that start at `across` (`x.blurredCount × 4` floats each, consecutive).
    func blurDown(across: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let rowFloats = x.blurredCount * 4
        let sources = coarseKernel.indices.map { UnsafePointer(across + $0 * rowFloats) }
        Kernels.convolve(count: rowFloats, kernel: coarseKernel, sources: sources, into: out)
    }

    /// Coarse rows `rows` blurred down from `across` (which holds the rows they read) into `target`:
    /// `x.blurredCount × 4` floats a row.
    func blurDown(_ rows: Range<Int>, across: FloatRows, into target: SharedPointer<Float>, parts: Int?) {
        let rowFloats = x.blurredCount * 4
        let first = SharedPointer(across.row(rows.lowerBound))
        Parallel.forEachBand(count: rows.count, parts: parts) { band in
            for r in band { blurDown(across: first.base + r * rowFloats, into: target.base + r * rowFloats) }
        }
    }
}

/// One axis of the pyramid: which coarse samples exist and how they map to and from the line.
///
/// Coarse sample j sits at line position j·k + (k − 1)/2. The upsampling reads blurred samples
/// u0…u1; blurring makes `margin` more on each side (u0 − m … u1 + m) and reads `coarseRadius`
/// more, so decimation makes u0 − m − r … u1 + m + r.
struct PyramidAxis: Sendable {
    /// From the line to the decimated samples (empty for a progressive level: see `decimates`).
    let decimate: FilterTaps
    /// From the blurred samples u0…u1 (the margin not counted: index 0 is u0) to the line.
    let upsample: FilterTaps
    /// Blurred samples, the margin on both sides included.
    let blurredCount: Int
    let decimatedCount: Int
    let margin: Int
    /// Where decimated sample 0 sits on the lattice: sample i at line position (first + i)·k + (k − 1)/2.
    let firstSample: Int

    /// About how many bytes the axis's tables hold.
    var bytes: Int { decimate.bytes + upsample.bytes }

    /// The decimation by `factor` of a line of `count` samples: lattice samples `samples` (sample i
    /// at line position i·k + (k − 1)/2), prefiltered by the Gaussian of σd = 0.8k cut at ±3.5σd.
    /// The pyramid's own axes and the progressive blur's shared decimation (``DecimationPlan``) both
    /// build it here, so a level on the shared lattice reads exactly the samples it would make.
    static func decimation(count: Int, factor: Int, samples: Range<Int>, edges: EdgeMode) -> FilterTaps {
        let k = Double(factor), offset = (k - 1) / 2, sigmaD = GaussianFastPath.prefilterPerFactor * k
        return FilterTaps(
            inputCount: count, positions: samples.map { Double($0) * k + offset }, support: 3.5 * sigmaD, edges: edges, normalise: true
        ) { gaussian($0, sigma: sigmaD) }
    }

    /// - Parameter decimates: false leaves ``decimate`` empty (a progressive level's samples come from
    ///   the shared decimation).
    init(count n: Int, factor: Int, coarseRadius: Int, margin: Int = 0, edges: EdgeMode, decimates: Bool = true) {
        let k = Double(factor), offset = (k - 1) / 2
        let u0 = Int((-offset / k).rounded(.down)) - 1
        let u1 = Int(((Double(n - 1) - offset) / k).rounded(.down)) + 2
        self.margin = margin
        blurredCount = u1 - u0 + 1 + 2 * margin
        decimatedCount = blurredCount + 2 * coarseRadius
        let first = u0 - margin - coarseRadius
        firstSample = first
        decimate = Self.decimation(count: n, factor: factor, samples: decimates ? first..<(first + decimatedCount) : first..<first, edges: edges)
        upsample = FilterTaps(
            inputCount: u1 - u0 + 1, positions: (0..<n).map { (Double($0) - offset) / k - Double(u0) },
            support: 1.999_999, edges: .clamp, normalise: false, kernel: cubicBSpline)
    }
}
