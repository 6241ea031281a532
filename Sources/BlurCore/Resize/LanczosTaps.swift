/// The Lanczos-3 kernel: sinc(t) · sinc(t / 3) for |t| < 3, else 0.
package func lanczos3(_ t: Double) -> Double {
    let a = abs(t)
    if a < 1e-12 { return 1 }
    if a >= 3 { return 0 }
    let x = Double.pi * t
    return 3 * Elementary.sin(x) * Elementary.sin(x / 3) / (x * x)
}

/// One axis of a Lanczos-3 resample: for each output index, the first source index it reads, how
/// many, and their weights (summing to 1). The kernel's support grows with the reduction (3 source
/// pixels a side at 1:1, 3 × the factor when shrinking), so every source pixel counts; source
/// indices past the edges are the edge's (weights of repeated indices added). An output index
/// outside the scaled image (a `contain` margin) reads nothing.
package struct LanczosTaps: Sendable {
    /// Per output index: the first source index, and how many (0: outside the image).
    package let start: [Int], count: [Int]
    /// `stride` weights per output index, the first `count` used.
    package let weights: [Float]
    package let stride: Int
    /// The weights in double precision, for the reference.
    package let exact: [Double]

    /// `outputs` indices of a source `source` long scaled to `scaled`, the first output index at
    /// `offset` on the scaled axis.
    /// The most source indices one output index may read for `source` scaled to `scaled`: the
    /// stride of the weights.
    package static func widest(scaled: Int, source: Int) -> Int {
        let support = 3 / min(1, Double(scaled) / Double(source))
        return Int(2 * support.rounded(.up)) + 2
    }

    package init(outputs: Int, offset: Int, scaled: Int, source: Int) {
        let factor = Double(scaled) / Double(source)
        let shrink = min(1, factor), support = 3 / shrink
        let widest = LanczosTaps.widest(scaled: scaled, source: source)
        var start = [Int](repeating: 0, count: outputs), count = [Int](repeating: 0, count: outputs)
        var exact = [Double](repeating: 0, count: outputs * widest)
        var used = 1
        for o in 0..<outputs {
            let u = o + offset
            guard u >= 0 && u < scaled else { continue }
            let centre = (Double(u) + 0.5) / factor - 0.5
            let lo = Int((centre - support).rounded(.up)), hi = Int((centre + support).rounded(.down))
            let first = min(max(lo, 0), source - 1), last = max(min(hi, source - 1), 0)
            let n = last - first + 1
            var total = 0.0
            for j in lo...hi {
                let w = lanczos3((Double(j) - centre) * shrink)
                let at = min(max(j, 0), source - 1) - first
                exact[o * widest + at] += w
                total += w
            }
            for k in 0..<n { exact[o * widest + k] /= total }
            start[o] = first
            count[o] = n
            used = max(used, n)
        }
        self.start = start
        self.count = count
        self.stride = widest
        self.exact = exact
        self.weights = exact.map { Float($0) }
    }

    /// The source indices output indices `outputs` read (empty when none reads any).
    package func sources(_ outputs: Range<Int>) -> Range<Int> {
        var lo = Int.max, hi = Int.min
        for o in outputs where count[o] > 0 {
            lo = min(lo, start[o])
            hi = max(hi, start[o] + count[o])
        }
        return lo < hi ? lo..<hi : 0..<0
    }

    /// The most source indices one output index reads.
    package var widest: Int { count.max() ?? 0 }
}
