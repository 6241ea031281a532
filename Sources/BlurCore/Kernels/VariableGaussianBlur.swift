/// A Gaussian blur whose σ changes along one axis: every row (or column) has its own σ.
///
/// - Rows whose σ is below the pyramid's range (σ < 4 px, or below the lowest level) are exact:
///   each is blurred across by its own σ and gathers its column neighbours with the same σ.
/// - Larger σ is a continuous blend of uniform pyramid blurs on a ladder anchored at the largest σ
///   asked for: σ₀ = σmax, σₖ₊₁ = σₖ / √2, while σₖ ≥ 4 px. A row whose σ lies between two levels
///   mixes them with the weight that matches the variance, w = (σ² − σₖ₊₁²) / (σₖ² − σₖ₊₁²), so the
///   blur grows continuously with no steps. Where σ equals σmax (a constant region at full blur)
///   the result is the uniform Gaussian, within the same bound as ``GaussianBlur``.
/// Each level produces only the lines that use it, in floats, and a mix is rounded once. Edges are
/// ``EdgeMode/clamp``. The stages run it: ``VariableBlurStage`` for rows, ``VariableBlurColumnStage``
/// for columns (its direct columns are ``GaussianColumns``). Byte-identical for any thread count.
enum VariableGaussianBlur {
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
}
