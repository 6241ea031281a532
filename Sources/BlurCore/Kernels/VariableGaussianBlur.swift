/// A Gaussian blur whose σ changes along one axis: every row (or column) has its own σ.
///
/// - Rows whose σ is below the pyramid's range (σ < 4 px, or below the lowest level) are exact:
///   each is blurred across by its own σ and gathers its column neighbours with the same σ.
/// - Larger σ is a continuous blend of uniform pyramid blurs on a ladder anchored at the largest σ
///   asked for: σ₀ = σmax, σₖ₊₁ = σₖ / √2, while σₖ ≥ 4 px. A row whose σ lies between two levels
///   mixes them with the weight that matches the variance, w = (σ² − σₖ₊₁²) / (σₖ² − σₖ₊₁²), so the
///   blur grows continuously with no steps. Where σ equals σmax (a constant region at full blur)
///   the result is the uniform Gaussian, within the same bound as ``GaussianBlur``.
/// Each level produces only the rows that use it (``GaussianRows``), in floats, and a mix is
/// rounded once.
///
/// Edges are ``EdgeMode/clamp``. Columns are handled by transposing. Byte-identical for any
/// thread count.
struct VariableGaussianBlur {
    /// σ in pixels for each row (`vertical`) or column, all finite and ≥ 0.
    let sigmas: [Double]
    let vertical: Bool

    static let ratio = 2.0.squareRoot()

    /// The pyramid levels for `sigmas` (σ₀ = the largest, each the one before ÷ √2, while ≥ 4 px),
    /// the upper of the two levels each line mixes (−1: a direct line) and the weight of that upper
    /// level (1: the level alone).
    static func ladder(_ sigmas: [Double]) -> (levels: [Double], levelOf: [Int], weightOf: [Float]) {
        var levels: [Double] = []
        var level = sigmas.max() ?? 0
        while level >= GaussianFastPath.pyramidThreshold {
            levels.append(level)
            level /= VariableGaussianBlur.ratio
        }
        let lowest = levels.last ?? .infinity
        var upper = [Int](repeating: -1, count: sigmas.count), weight = [Float](repeating: 1, count: sigmas.count)
        for (row, sigma) in sigmas.enumerated() where sigma >= lowest {
            var k = 0
            while k + 2 < levels.count && levels[k + 1] > sigma { k += 1 }
            upper[row] = k
            if sigma < levels[k], k + 1 < levels.count {
                let hi = levels[k], lo = levels[k + 1]
                weight[row] = Float((sigma * sigma - lo * lo) / (hi * hi - lo * lo))
            }
        }
        return (levels, upper, weight)
    }

    /// Whether line `y` reads level `k`.
    static func uses(_ k: Int, _ y: Int, levelOf: [Int], weightOf: [Float]) -> Bool {
        levelOf[y] == k || (levelOf[y] + 1 == k && weightOf[y] < 1)
    }

    func apply(to image: Bitmap, threads: Int?) -> Bitmap {
        if !vertical {
            let turned = VariableGaussianBlur(sigmas: sigmas, vertical: true)
            return turned.apply(to: image.oriented(.leftMirrored), threads: threads).oriented(.leftMirrored)
        }
        precondition(sigmas.count == image.height, "one σ per row")
        let top = sigmas.max() ?? 0
        if top <= GaussianBlur.identityThreshold { return image }
        let (levels, levelOf, weightOf) = VariableGaussianBlur.ladder(sigmas)

        let w = image.width, h = image.height
        var out = image.makeUninitializedLike()
        image.withPixels { source in
            // Each level, prepared for the span of rows that use it; the direct rows together.
            let plans: [GaussianRows?] = levels.indices.map { k in
                let users = (0..<h).filter { VariableGaussianBlur.uses(k, $0, levelOf: levelOf, weightOf: weightOf) }
                guard let first = users.first, let last = users.last else { return nil }
                return GaussianRows(
                    sigma: levels[k], edges: .clamp, source: source, rows: first..<(last + 1), parts: threads)
            }
            let directSigmas = sigmas.indices.map { levelOf[$0] < 0 ? sigmas[$0] : 0 }
            let direct = GaussianRows(sigmas: directSigmas, edges: .clamp, width: w)
            out.withMutablePixels { target in
                Parallel.forEachBand(count: h, parts: threads) { band in
                    var scratch = [GaussianRows.Scratch?](repeating: nil, count: plans.count)
                    var directScratch: GaussianRows.Scratch?
                    var a = [Float].unfilled(count: w * 4), b = [Float].unfilled(count: w * 4)
                    a.withUnsafeMutableBufferPointer { a in
                        b.withUnsafeMutableBufferPointer { b in
                            func produce(_ k: Int, _ y: Int, into line: UnsafeMutablePointer<Float>) {
                                let plan = plans[k]!
                                if scratch[k] == nil { scratch[k] = plan.makeScratch() }
                                plan.row(y, source: source, scratch: &scratch[k]!, into: line)
                            }
                            for y in band {
                                let k = levelOf[y], t = weightOf[y]
                                if k < 0 {
                                    if directScratch == nil { directScratch = direct.makeScratch() }
                                    direct.row(y, source: source, scratch: &directScratch!, into: a.baseAddress!)
                                } else {
                                    produce(k, y, into: a.baseAddress!)
                                    if t < 1 {
                                        produce(k + 1, y, into: b.baseAddress!)
                                        Kernels.mix(a.baseAddress!, b.baseAddress!, weight: t, count: w * 4)
                                    }
                                }
                                Kernels.storeBytes(a.baseAddress!, count: w * 4, into: target.row(y))
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
