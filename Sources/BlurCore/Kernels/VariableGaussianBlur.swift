/// A Gaussian blur whose σ changes from row to row (columns are rows of the image turned): every
/// row has its own σ, and each is the Gaussian of that σ — no line is a blend of two blurs.
///
/// - Lines whose σ is below the pyramid's range (σ < ``lowestRowLevel``, or below the lowest level)
///   are direct: each is blurred across by its own σ and gathers its neighbours down with the same σ.
/// - Larger σ is computed on a ladder of pyramid levels anchored at the largest σ asked for:
///   σ₀ = σmax, σₖ₊₁ = σₖ / √2, while σₖ is at least that lowest level. Level k is the image decimated by its
///   factor fₖ and blurred both ways, so that it stands for the uniform blur of σₖ (``PyramidPlan``).
///   A line computes on the highest level below its σ and adds, at that level's resolution, the
///   **residual** blur r = √(σ² − σₖ²) / fₖ (coarse samples) both ways before it is upsampled once:
///   the variances add up to exactly σ². As r < σₖ / fₖ ≤ 3, the residual is a short kernel.
/// Edges are ``EdgeMode/clamp``. ``VariableBlurStage`` runs it, for columns over the image turned
/// (``VariableBlurTransposedStage``). Byte-identical for any thread count.
enum VariableGaussianBlur {
    static let ratio = 2.0.squareRoot()
    /// The smallest σ (pixels) a level may have; below it lines are direct. Measured (`BlurBench
    /// --progressive-only`, 1920×1080 at maximum σ 24 and BlurUIKit's header at σ 10.5): a level at a
    /// factor of 2 or 3 costs more than direct rows of the same σ, so rows are direct up to σ 8 (full
    /// frame 23.2 → 17.4 ms, header 5.0 → 4.5 ms against a lowest level of 4).
    static let lowestRowLevel = 8.0

    /// How each line is made: the levels' σ (largest first), per line the level it computes on
    /// (−1: a direct line) and its residual σ in that level's coarse samples.
    struct Plan {
        let levels: [Double]
        let levelOf: [Int]
        let residual: [Double]

        /// Per level, the reach of its largest residual kernel, in coarse samples.
        var margins: [Int] {
            levels.indices.map { k in
                levelOf.indices.filter { levelOf[$0] == k }.map { VariableGaussianBlur.residualRadius(residual[$0]) }.max() ?? 0
            }
        }
    }

    /// The plan for lines of σ `sigmas` (pixels), with levels down to `lowest`.
    static func plan(_ sigmas: [Double], lowest: Double) -> Plan {
        var levels: [Double] = []
        var level = sigmas.max() ?? 0
        while level >= lowest {
            levels.append(level)
            level /= VariableGaussianBlur.ratio
        }
        var levelOf = [Int](repeating: -1, count: sigmas.count), residual = [Double](repeating: 0, count: sigmas.count)
        for (line, sigma) in sigmas.enumerated() {
            guard let k = levels.firstIndex(where: { $0 <= sigma }) else { continue }
            levelOf[line] = k
            let factor = Double(PyramidPlan.shape(levels[k]).factor)
            residual[line] = max(0, sigma * sigma - levels[k] * levels[k]).squareRoot() / factor
        }
        return Plan(levels: levels, levelOf: levelOf, residual: residual)
    }

    /// A residual below this (coarse samples) is left out: its kernel would be [1, ~0, …].
    static let negligibleResidual = 0.05

    /// The residual kernel's reach (coarse samples) for residual σ `r`.
    static func residualRadius(_ r: Double) -> Int {
        r < negligibleResidual ? 0 : GaussianFastPath.directRadius(r)
    }

    /// The residual's half-kernel (centre first), normalised; [1] for a negligible residual.
    static func residualKernel(_ r: Double) -> [Float] {
        r < negligibleResidual ? [1] : GaussianFastPath.halfKernel(r).map(Float.init)
    }

    /// The composite of the B-spline upsampling taps `bspline` (4 weights from blurred inner sample
    /// `start`) and the residual of σ `r`: `4 + 2 × margin` weights over the blurred samples from
    /// index `start` on (the margin counted: inner sample i is blurred sample i + margin).
    static func composite(bspline: ArraySlice<Float>, residual r: Double, margin: Int) -> [Float] {
        let kernel = residualKernel(r), radius = kernel.count - 1
        var weights = [Float](repeating: 0, count: bspline.count + 2 * margin)
        for (m, b) in zip(0..., bspline) where b != 0 {
            for d in -radius...radius { weights[m + margin + d] += b * kernel[abs(d)] }
        }
        return weights
    }
}
