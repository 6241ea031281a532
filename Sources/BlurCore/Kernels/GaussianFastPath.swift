/// The fast Gaussian blur, held to ``GaussianBlur/reference(_:)`` by the tests.
///
/// Two schedules, chosen by σ:
/// - **direct** (σ < ``pyramidThreshold``): for each output row, a vertical pass over the rows in
///   reach (u8 → float) and a horizontal pass with the symmetric kernel (float → u8). One trip
///   through memory; the kernel reaches ±3σ.
/// - **pyramid** (larger σ): decimate by an integer factor k with a Gaussian prefilter (σd = 0.8k,
///   so nothing aliases), blur the small image with the remaining σc, and upsample with a cubic
///   B-spline. Variances add: σ² = σd² + k²(σc² + ⅓). k grows with σ, so the cost per pixel is
///   constant: about 6 multiply-adds to decimate and 4 to upsample, per channel.
/// Every weight is positive and every channel goes through the same operations in the same order,
/// so premultiplied colour never exceeds alpha; each output row is computed the same way whatever
/// band it falls in, so the bytes do not depend on the thread count.
struct GaussianFastPath {
    let sigma: Double
    let edges: EdgeMode

    /// Direct convolution below this σ (pixels), the pyramid from it on.
    static let pyramidThreshold = 4.0
    /// σ ÷ k: how coarse the pyramid may go. Smaller is faster and less exact.
    static let sigmaPerFactor = 2.0
    /// The decimation prefilter: σd = k × this.
    static let prefilterPerFactor = 0.8
    /// The direct kernel's reach in σ.
    static let directReach = 3.0

    func run(_ image: Bitmap, parts: Int?) -> Bitmap {
        let w = image.width, h = image.height
        var out = image.makeUninitializedLike()
        image.withPixels { source in
            let rows = GaussianRows(sigma: sigma, edges: edges, source: source, rows: 0..<h, parts: parts)
            out.withMutablePixels { target in
                Parallel.forEachBand(count: h, parts: parts) { band in
                    var scratch = rows.makeScratch()
                    var line = [Float].unfilled(count: w * 4)
                    line.withUnsafeMutableBufferPointer { line in
                        for y in band {
                            rows.row(y, source: source, scratch: &scratch, into: line.baseAddress!)
                            Kernels.storeBytes(line.baseAddress!, count: w * 4, into: target.row(y))
                        }
                    }
                }
            }
        }
        return out
    }
}

/// Rows of an image blurred by a Gaussian, produced one at a time as floats, for any subset of rows
/// chosen up front: the uniform blur writes every row, the variable blur only the rows that use
/// a given σ. A row's values do not depend on which other rows were asked for.
struct GaussianRows: Sendable {
    private enum Schedule: Sendable {
        /// `kernels`: the horizontal half-kernel, one for all rows or one per row.
        case direct(radius: Int, kernels: [[Float]], rows: FilterTaps, edges: EdgeMode)
        case pyramid(x: PyramidAxis, y: PyramidAxis, blurred: [Float], firstBlurred: Int)
    }

    private let schedule: Schedule
    private let width: Int

    /// Per-thread working memory for ``row(_:source:scratch:into:)``.
    struct Scratch {
        fileprivate var line: [Float]
        fileprivate var held = [-1, -1, -1, -1]
    }

    /// Prepares the rows in `rows` of `source` blurred by `sigma` (pixels). The same view is passed
    /// to ``row(_:source:scratch:into:)`` and must stay valid while rows are produced.
    init(sigma: Double, edges: EdgeMode, source: PixelView, rows: Range<Int>, parts: Int?) {
        width = source.width
        let h = source.height
        if sigma < GaussianFastPath.pyramidThreshold {
            let radius = GaussianRows.directRadius(sigma)
            let taps = FilterTaps(
                inputCount: h, positions: (0..<h).map(Double.init), support: Double(radius),
                edges: edges, normalise: true
            ) { gaussian($0, sigma: sigma) }
            schedule = .direct(radius: radius, kernels: [GaussianRows.halfKernel(sigma)], rows: taps, edges: edges)
            return
        }
        let factor = max(2, Int(sigma / GaussianFastPath.sigmaPerFactor))
        let k = Double(factor), sigmaD = GaussianFastPath.prefilterPerFactor * k
        let sigmaC = ((sigma * sigma - sigmaD * sigmaD) / (k * k) - 1.0 / 3).squareRoot()
        let coarseRadius = max(1, Int((4 * sigmaC).rounded(.up)))
        let coarse = (-coarseRadius...coarseRadius).map { gaussian(Double($0), sigma: sigmaC) }
        let coarseSum = coarse.reduce(0, +)
        let coarseKernel = coarse.map { Float($0 / coarseSum) }
        let ax = PyramidAxis(count: source.width, factor: factor, sigmaD: sigmaD, coarseRadius: coarseRadius, edges: edges)
        let ay = PyramidAxis(count: h, factor: factor, sigmaD: sigmaD, coarseRadius: coarseRadius, edges: edges)

        // The blurred coarse rows the requested rows read, and the decimated rows those read.
        let firstBlurred = ay.upsample.starts[rows.lowerBound]
        let lastBlurred = ay.upsample.starts[rows.upperBound - 1] + ay.upsample.width - 1
        let decimatedRows = lastBlurred - firstBlurred + 1 + 2 * coarseRadius
        let blurredRows = lastBlurred - firstBlurred + 1
        let rowFloats = ax.blurredCount * 4, w = source.width

        // 1. Decimate: rows, then columns.
        var decimated = [Float].unfilled(count: decimatedRows * ax.decimatedCount * 4)
        decimated.withUnsafeMutableBufferPointer { d in
            let target = SharedPointer(d.baseAddress!)
            Parallel.forEachBand(count: decimatedRows, parts: parts) { band in
                var row = [Float].unfilled(count: w * 4)
                row.withUnsafeMutableBufferPointer { row in
                    for r in band {
                        Kernels.accumulateRows(
                            ay.decimate, output: firstBlurred + r, source: source, into: row.baseAddress!, count: w * 4)
                        Kernels.resamplePixels(row.baseAddress!, taps: ax.decimate, into: target.base + r * ax.decimatedCount * 4)
                    }
                }
            }
        }
        // 2. Blur the small image: rows, then columns. No edge cases: the decimated image reaches
        //    `coarseRadius` beyond every sample the upsampling reads.
        var across = [Float].unfilled(count: decimatedRows * rowFloats)
        var blurred = [Float].unfilled(count: blurredRows * rowFloats)
        decimated.withUnsafeBufferPointer { d in
            across.withUnsafeMutableBufferPointer { e in
                let source = SharedPointer(UnsafeMutablePointer(mutating: d.baseAddress!)), target = SharedPointer(e.baseAddress!)
                Parallel.forEachBand(count: decimatedRows, parts: parts) { band in
                    for r in band {
                        let from = source.base + r * ax.decimatedCount * 4
                        let sources = coarseKernel.indices.map { UnsafePointer(from + $0 * 4) }
                        Kernels.convolve(count: rowFloats, kernel: coarseKernel, sources: sources, into: target.base + r * rowFloats)
                    }
                }
            }
        }
        across.withUnsafeBufferPointer { e in
            blurred.withUnsafeMutableBufferPointer { b in
                let source = SharedPointer(UnsafeMutablePointer(mutating: e.baseAddress!)), target = SharedPointer(b.baseAddress!)
                Parallel.forEachBand(count: blurredRows, parts: parts) { band in
                    for r in band {
                        let sources = coarseKernel.indices.map { UnsafePointer(source.base + (r + $0) * rowFloats) }
                        Kernels.convolve(count: rowFloats, kernel: coarseKernel, sources: sources, into: target.base + r * rowFloats)
                    }
                }
            }
        }
        schedule = .pyramid(x: ax, y: ay, blurred: blurred, firstBlurred: firstBlurred)
    }

    /// Direct rows whose σ (pixels, each below ``GaussianFastPath/pyramidThreshold``) changes from
    /// row to row: row y is blurred across by σ[y] and gathers its column neighbours with σ[y]. A
    /// σ of 0.2 or less leaves the row as it is.
    init(sigmas: [Double], edges: EdgeMode, width: Int) {
        self.width = width
        let radii = sigmas.map { $0 > GaussianBlur.identityThreshold ? GaussianRows.directRadius($0) : 0 }
        let taps = FilterTaps(
            inputCount: sigmas.count, positions: sigmas.indices.map(Double.init), supports: radii.map(Double.init),
            edges: edges, normalise: true
        ) { row, offset in radii[row] == 0 ? (offset == 0 ? 1 : 0) : gaussian(offset, sigma: sigmas[row]) }
        let kernels = sigmas.map { $0 > GaussianBlur.identityThreshold ? GaussianRows.halfKernel($0) : [1] }
        schedule = .direct(radius: max(1, radii.max() ?? 1), kernels: kernels, rows: taps, edges: edges)
    }

    static func directRadius(_ sigma: Double) -> Int {
        max(1, Int((GaussianFastPath.directReach * sigma).rounded(.up)))
    }

    /// The normalised sampled Gaussian from the centre out: k[0], k[1] … k[radius].
    static func halfKernel(_ sigma: Double) -> [Float] {
        let half = (0...directRadius(sigma)).map { gaussian(Double($0), sigma: sigma) }
        let total = half[0] + 2 * half.dropFirst().reduce(0, +)
        return half.map { Float($0 / total) }
    }

    func makeScratch() -> Scratch {
        switch schedule {
        case let .direct(radius, _, _, _): return Scratch(line: [Float](repeating: 0, count: (width + 2 * radius) * 4))
        case .pyramid: return Scratch(line: [Float].unfilled(count: 4 * width * 4))
        }
    }

    /// Writes row `y` (one of the rows prepared for) as `width × 4` floats into `out`.
    func row(_ y: Int, source: PixelView, scratch: inout Scratch, into out: UnsafeMutablePointer<Float>) {
        let w = width
        switch schedule {
        case let .direct(radius, kernels, rows, edges):
            scratch.line.withUnsafeMutableBufferPointer { line in
                let centre = line.baseAddress! + radius * 4
                Kernels.accumulateRows(rows, output: y, source: source, into: centre, count: w * 4)
                Kernels.pad(line.baseAddress!, width: w, padding: radius, edges: edges)
                Kernels.convolveSymmetric(centre, count: w * 4, kernel: kernels[kernels.count == 1 ? 0 : y], into: out)
            }
        case let .pyramid(ax, ay, blurred, firstBlurred):
            // Upsample: columns of each coarse row as needed (a ring of the last four: the B-spline
            // reads at most four consecutive coarse rows), then rows.
            let start = ay.upsample.starts[y], rowFloats = ax.blurredCount * 4
            var held = scratch.held
            scratch.line.withUnsafeMutableBufferPointer { ring in
                blurred.withUnsafeBufferPointer { b in
                    let base = ring.baseAddress!, taps = ay.upsample.width
                    var lines: [UnsafePointer<Float>] = []
                    for t in 0..<taps {
                        let j = start + t, slot = j & 3
                        let line = base + slot * w * 4
                        if held[slot] != j {
                            Kernels.resamplePixels(b.baseAddress! + (j - firstBlurred) * rowFloats, taps: ax.upsample, into: line)
                            held[slot] = j
                        }
                        lines.append(UnsafePointer(line))
                    }
                    let weights = Array(ay.upsample.weights[(y * taps)..<(y * taps + taps)])
                    Kernels.convolve(count: w * 4, kernel: weights, sources: lines, into: out)
                }
            }
            scratch.held = held
        }
    }
}

/// One axis of the pyramid: which coarse samples exist and how they map to and from the line.
///
/// Coarse sample j sits at line position j·k + (k − 1)/2. The upsampling reads blurred samples
/// u0…u1; the blur reads `coarseRadius` more on each side, so decimation makes u0 − r … u1 + r.
struct PyramidAxis: Sendable {
    let decimate: FilterTaps
    let upsample: FilterTaps
    let blurredCount: Int
    let decimatedCount: Int

    init(count n: Int, factor: Int, sigmaD: Double, coarseRadius: Int, edges: EdgeMode) {
        let k = Double(factor), offset = (k - 1) / 2
        let u0 = Int((-offset / k).rounded(.down)) - 1
        let u1 = Int(((Double(n - 1) - offset) / k).rounded(.down)) + 2
        blurredCount = u1 - u0 + 1
        decimatedCount = blurredCount + 2 * coarseRadius
        let first = u0 - coarseRadius
        decimate = FilterTaps(
            inputCount: n, positions: (0..<decimatedCount).map { Double(first + $0) * k + offset },
            support: 3.5 * sigmaD, edges: edges, normalise: true
        ) { gaussian($0, sigma: sigmaD) }
        upsample = FilterTaps(
            inputCount: blurredCount, positions: (0..<n).map { (Double($0) - offset) / k - Double(u0) },
            support: 1.999_999, edges: .clamp, normalise: false, kernel: cubicBSpline)
    }
}
