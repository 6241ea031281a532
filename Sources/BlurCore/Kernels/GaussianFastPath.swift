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
        if sigma < GaussianFastPath.pyramidThreshold { return direct(image, parts: parts) }
        return pyramid(image, parts: parts)
    }

    // MARK: Direct

    private func direct(_ image: Bitmap, parts: Int?) -> Bitmap {
        let w = image.width, h = image.height, stride = image.bytesPerRow
        let radius = max(1, Int((GaussianFastPath.directReach * sigma).rounded(.up)))
        let half = (0...radius).map { gaussian(Double($0), sigma: sigma) }
        let total = half[0] + 2 * half.dropFirst().reduce(0, +)
        let kernel = half.map { Float($0 / total) }
        let rows = FilterTaps(
            inputCount: h, positions: (0..<h).map(Double.init), support: Double(radius),
            edges: edges, normalise: true) { gaussian($0, sigma: sigma) }
        let edges = self.edges

        var out = image.makeUninitializedLike()
        image.withUnsafePixels { src in
            out.withUnsafeMutablePixels { dst in
                let source = SharedPointer(UnsafeMutablePointer(mutating: src.baseAddress!))
                let target = SharedPointer(dst.baseAddress!)
                Parallel.forEachBand(count: h, parts: parts) { band in
                    var line = [Float](repeating: 0, count: (w + 2 * radius) * 4)
                    var scratch = [Float](repeating: 0, count: Kernels.chunk)
                    line.withUnsafeMutableBufferPointer { line in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            let centre = line.baseAddress! + radius * 4
                            for y in band {
                                Kernels.accumulateRows(
                                    rows, output: y, source: source.base, bytesPerRow: stride,
                                    into: centre, count: w * 4)
                                Kernels.pad(line.baseAddress!, width: w, padding: radius, edges: edges)
                                Kernels.convolveSymmetric(
                                    centre, count: w * 4, kernel: kernel,
                                    into: target.base + y * stride, scratch: scratch.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    // MARK: Pyramid

    private func pyramid(_ image: Bitmap, parts: Int?) -> Bitmap {
        let w = image.width, h = image.height, stride = image.bytesPerRow
        let factor = max(2, Int(sigma / GaussianFastPath.sigmaPerFactor))
        let sigmaD = GaussianFastPath.prefilterPerFactor * Double(factor)
        let k = Double(factor)
        let sigmaC = ((sigma * sigma - sigmaD * sigmaD) / (k * k) - 1.0 / 3).squareRoot()
        let coarseRadius = max(1, Int((4 * sigmaC).rounded(.up)))
        let coarse = (-coarseRadius...coarseRadius).map { gaussian(Double($0), sigma: sigmaC) }
        let coarseSum = coarse.reduce(0, +)
        let coarseKernel = coarse.map { Float($0 / coarseSum) }

        let ax = PyramidAxis(count: w, factor: factor, sigmaD: sigmaD, coarseRadius: coarseRadius, edges: edges)
        let ay = PyramidAxis(count: h, factor: factor, sigmaD: sigmaD, coarseRadius: coarseRadius, edges: edges)

        // 1. Decimate: rows, then columns, into D (ay.decimated × ax.decimated pixels).
        var decimated = [Float].unfilled(count: ay.decimatedCount * ax.decimatedCount * 4)
        image.withUnsafePixels { src in
            decimated.withUnsafeMutableBufferPointer { d in
                let source = SharedPointer(UnsafeMutablePointer(mutating: src.baseAddress!))
                let target = SharedPointer(d.baseAddress!)
                Parallel.forEachBand(count: ay.decimatedCount, parts: parts) { band in
                    var row = [Float](repeating: 0, count: w * 4)
                    row.withUnsafeMutableBufferPointer { row in
                        for j in band {
                            Kernels.accumulateRows(
                                ay.decimate, output: j, source: source.base, bytesPerRow: stride,
                                into: row.baseAddress!, count: w * 4)
                            Kernels.resamplePixels(
                                row.baseAddress!, taps: ax.decimate,
                                into: target.base + j * ax.decimatedCount * 4)
                        }
                    }
                }
            }
        }

        // 2. Blur the small image: rows (D → E), then columns (E → B). No edge cases: D reaches
        //    `coarseRadius` beyond every sample the upsampling reads.
        let rowFloats = ax.blurredCount * 4
        var across = [Float].unfilled(count: ay.decimatedCount * rowFloats)
        var blurred = [Float].unfilled(count: ay.blurredCount * rowFloats)
        decimated.withUnsafeBufferPointer { d in
            across.withUnsafeMutableBufferPointer { e in
                let source = SharedPointer(UnsafeMutablePointer(mutating: d.baseAddress!))
                let target = SharedPointer(e.baseAddress!)
                Parallel.forEachBand(count: ay.decimatedCount, parts: parts) { band in
                    for j in band {
                        let from = source.base + j * ax.decimatedCount * 4, to = target.base + j * rowFloats
                        let sources = coarseKernel.indices.map { UnsafePointer(from + $0 * 4) }
                        Kernels.convolve(count: rowFloats, kernel: coarseKernel, sources: sources, into: to)
                    }
                }
            }
        }
        across.withUnsafeBufferPointer { e in
            blurred.withUnsafeMutableBufferPointer { b in
                let source = SharedPointer(UnsafeMutablePointer(mutating: e.baseAddress!))
                let target = SharedPointer(b.baseAddress!)
                Parallel.forEachBand(count: ay.blurredCount, parts: parts) { band in
                    for j in band {
                        let sources = coarseKernel.indices.map { UnsafePointer(source.base + (j + $0) * rowFloats) }
                        Kernels.convolve(count: rowFloats, kernel: coarseKernel, sources: sources, into: target.base + j * rowFloats)
                    }
                }
            }
        }

        // 3. Upsample: columns of each coarse row as needed (a ring of the last four), then rows.
        var out = image.makeUninitializedLike()
        blurred.withUnsafeBufferPointer { b in
            out.withUnsafeMutablePixels { dst in
                let source = SharedPointer(UnsafeMutablePointer(mutating: b.baseAddress!))
                let target = SharedPointer(dst.baseAddress!)
                Parallel.forEachBand(count: h, parts: parts) { band in
                    var ring = [Float](repeating: 0, count: 4 * w * 4)
                    var held = [-1, -1, -1, -1]
                    var scratch = [Float](repeating: 0, count: Kernels.chunk)
                    ring.withUnsafeMutableBufferPointer { ring in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            for y in band {
                                let start = ay.upsample.starts[y]
                                var lines = (ring.baseAddress!, ring.baseAddress!, ring.baseAddress!, ring.baseAddress!)
                                var weights = SIMD4<Float>()
                                for t in 0..<min(4, ay.upsample.width) {
                                    let j = start + t, slot = j & 3
                                    let line = ring.baseAddress! + slot * w * 4
                                    if held[slot] != j {
                                        Kernels.resamplePixels(source.base + j * rowFloats, taps: ax.upsample, into: line)
                                        held[slot] = j
                                    }
                                    weights[t] = ay.upsample.weights[y * ay.upsample.width + t]
                                    switch t {
                                    case 0: lines.0 = line
                                    case 1: lines.1 = line
                                    case 2: lines.2 = line
                                    default: lines.3 = line
                                    }
                                }
                                Kernels.blendFour(
                                    lines, weights: weights, count: w * 4, into: target.base + y * stride,
                                    scratch: scratch.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        return out
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
            support: 3.5 * sigmaD, edges: edges, normalise: true) { gaussian($0, sigma: sigmaD) }
        upsample = FilterTaps(
            inputCount: blurredCount, positions: (0..<n).map { (Double($0) - offset) / k - Double(u0) },
            support: 1.999_999, edges: .clamp, normalise: false, kernel: cubicBSpline)
    }
}
