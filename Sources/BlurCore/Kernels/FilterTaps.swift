/// A 1-D linear map from a line of `inputCount` samples to `count` samples, precomputed:
/// output `o` is `Σ weights[o·width + t] · input[starts[o] + t]` for `t < width`, and every read
/// lies inside `0..<inputCount`. Edge behaviour is baked into the weights (folded onto the edge
/// sample for ``EdgeMode/clamp``, dropped for ``EdgeMode/transparent``), so the loops that apply
/// a table have no edge cases.
struct FilterTaps: Sendable {
    /// Taps per output (the same for every output; unused ones weigh 0).
    let width: Int
    let starts: [Int]
    let weights: [Float]
    var count: Int { starts.count }

    /// - Parameters:
    ///   - positions: where each output sits, in input-sample coordinates (may lie outside the line).
    ///   - support: the kernel is zero beyond ±support.
    ///   - normalise: scale each output's full (unfolded) weights to sum 1.
    ///   - kernel: the weight for an offset `input index − position`.
    init(
        inputCount n: Int, positions: [Double], support: Double, edges: EdgeMode, normalise: Bool,
        kernel: (Double) -> Double
    ) {
        self.init(
            inputCount: n, positions: positions, supports: [Double](repeating: support, count: positions.count),
            edges: edges, normalise: normalise
        ) { _, offset in kernel(offset) }
    }

    /// The same with a kernel and support of its own for each output (`kernel(output, offset)`).
    init(
        inputCount n: Int, positions: [Double], supports: [Double], edges: EdgeMode, normalise: Bool,
        kernel: (Int, Double) -> Double
    ) {
        var spans: [(lo: Int, weights: [Double])] = []
        spans.reserveCapacity(positions.count)
        var width = 1
        for (o, p) in positions.enumerated() {
            let support = supports[o]
            let first = Int((p - support).rounded(.up)), last = Int((p + support).rounded(.down))
            var raw = (first...max(first, last)).map { kernel(o, Double($0) - p) }
            if normalise {
                let sum = raw.reduce(0, +)
                if sum > 0 { raw = raw.map { $0 / sum } }
            }
            // Fold (clamp) or drop (transparent) what falls outside 0..<n.
            let lo = min(max(first, 0), n - 1), hi = max(min(last, n - 1), 0)
            var folded = [Double](repeating: 0, count: hi - lo + 1)
            for (offset, weight) in raw.enumerated() {
                let i = first + offset
                if i >= 0 && i < n {
                    folded[i - lo] += weight
                } else if edges == .clamp {
                    folded[(i < 0 ? 0 : n - 1) - lo] += weight
                }
            }
            spans.append((lo, folded))
            width = max(width, folded.count)
        }
        width = min(width, n)
        var starts = [Int](), weights = [Float](repeating: 0, count: positions.count * width)
        starts.reserveCapacity(positions.count)
        for (o, span) in spans.enumerated() {
            let start = max(0, min(span.lo, n - width))
            starts.append(start)
            for (t, weight) in span.weights.enumerated() {
                weights[o * width + span.lo - start + t] = Float(weight)
            }
        }
        self.width = width
        self.starts = starts
        self.weights = weights
    }
}

/// The cubic B-spline: smooth, positive, support ±2, sums to 1 over integer shifts, variance 1/3.
func cubicBSpline(_ x: Double) -> Double {
    let a = abs(x)
    if a < 1 { return (4 - 6 * a * a + 3 * a * a * a) / 6 }
    if a < 2 { let b = 2 - a; return b * b * b / 6 }
    return 0
}
