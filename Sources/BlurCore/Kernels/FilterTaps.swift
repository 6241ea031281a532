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
    /// How many bytes the table holds.
    var bytes: Int { starts.count * 8 + weights.count * 4 }

    /// - Parameters:
    ///   - positions: where each output sits, in input-sample coordinates (may lie outside the line).
    ///   - support: the kernel is zero beyond ±support.
    ///   - normalise: scale each output's full (unfolded) weights to sum 1.
    ///   - kernel: the weight for an offset `input index − position`.
    init(
        inputCount n: Int, positions: [Double], support: Double, edges: EdgeMode, normalise: Bool,
        kernel: (Double) -> Double
    ) {
        /// The samples output `p` reaches, and those of them inside the line.
        func reach(_ p: Double) -> (first: Int, last: Int, lo: Int, hi: Int) {
            let first = Int((p - support).rounded(.up)), last = max(first, Int((p + support).rounded(.down)))
            return (first, last, min(max(first, 0), n - 1), max(min(last, n - 1), 0))
        }
        var width = 1
        for p in positions {
            let r = reach(p)
            width = max(width, r.hi - r.lo + 1)
        }
        width = min(width, n)
        var starts = [Int](), weights = [Float](repeating: 0, count: positions.count * width)
        starts.reserveCapacity(positions.count)
        // One output's kernel, then its weights folded (clamp) or dropped (transparent) onto the
        // samples inside 0..<n, in double precision; reused from output to output. Outputs evenly
        // spaced (the pyramid's decimation) see the same offsets again and again: the kernel is
        // evaluated once for each run of offsets (up to 64 kept), compared exactly, so the weights
        // are the same.
        var raw: [Double] = [], folded: [Double] = [], offsets: [Double] = []
        var seen: [(offsets: [Double], raw: [Double])] = [], recent = 0
        for (o, p) in positions.enumerated() {
            let (first, last, lo, hi) = reach(p)
            offsets.removeAll(keepingCapacity: true)
            for i in first...last { offsets.append(Double(i) - p) }
            // Evenly spaced outputs go through their runs in turn: the one after the last seen.
            let next = seen.isEmpty ? 0 : (recent + 1) % seen.count
            if next < seen.count, seen[next].offsets == offsets {
                recent = next
                raw = seen[next].raw
            } else {
                raw = offsets.map(kernel)
                if normalise {
                    let sum = raw.reduce(0, +)
                    if sum > 0 { for t in raw.indices { raw[t] /= sum } }
                }
                if seen.count < 64 {
                    seen.append((offsets, raw))
                    recent = seen.count - 1
                }
            }
            folded.removeAll(keepingCapacity: true)
            folded.append(contentsOf: repeatElement(0, count: hi - lo + 1))
            for (offset, weight) in raw.enumerated() {
                let i = first + offset
                if i >= 0 && i < n {
                    folded[i - lo] += weight
                } else if edges == .clamp {
                    folded[(i < 0 ? 0 : n - 1) - lo] += weight
                }
            }
            let start = max(0, min(lo, n - width))
            starts.append(start)
            for (t, weight) in folded.enumerated() { weights[o * width + lo - start + t] = Float(weight) }
        }
        self.width = width
        self.starts = starts
        self.weights = weights
    }

    /// Every output's weights in Q16 (``Kernels/quantise(_:into:)``): `width` an output, each
    /// output's summing to 2¹⁶.
    var quantised: [UInt16] {
        var all = [UInt16](repeating: 0, count: weights.count)
        weights.withUnsafeBufferPointer { weights in
            all.withUnsafeMutableBufferPointer { all in
                for o in 0..<count {
                    let row = (o * width)..<((o + 1) * width)
                    Kernels.quantise(UnsafeBufferPointer(rebasing: weights[row]), into: UnsafeMutableBufferPointer(rebasing: all[row]))
                }
            }
        }
        return all
    }
}

/// The cubic B-spline: smooth, positive, support ±2, sums to 1 over integer shifts, variance 1/3.
func cubicBSpline(_ x: Double) -> Double {
    let a = abs(x)
    if a < 1 { return (4 - 6 * a * a + 3 * a * a * a) / 6 }
    if a < 2 { let b = 2 - a; return b * b * b / 6 }
    return 0
}
