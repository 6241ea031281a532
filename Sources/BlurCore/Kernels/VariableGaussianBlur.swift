/// A Gaussian blur whose σ changes along one axis: every row (or column) has its own σ.
///
/// The blur is a continuous blend of uniform blurs on a ladder of σ levels anchored at the largest
/// σ asked for: σ₀ = σmax, σₖ₊₁ = σₖ / √2, down to 0.25 px, then the image itself. A line whose σ
/// lies between two levels mixes them with the weight that matches the variance,
/// w = (σ² − σₖ₊₁²) / (σₖ² − σₖ₊₁²), so the blur grows continuously with no steps. Where σ equals
/// σmax (a constant region at full blur) the result is the uniform Gaussian, held to the same bound
/// as ``GaussianBlur``. Each level is computed only for the lines that use it (plus a margin of 4σ),
/// so the cost is about two uniform blurs, whatever the gradient.
///
/// Edges are ``EdgeMode/clamp``. Byte-identical for any thread count.
struct VariableGaussianBlur {
    /// σ in pixels for each row (`vertical`) or column, all finite and ≥ 0.
    let sigmas: [Double]
    let vertical: Bool

    static let ratio = 2.0.squareRoot()
    static let smallestLevel = 0.25

    func apply(to image: Bitmap, threads: Int?) -> Bitmap {
        let count = vertical ? image.height : image.width
        precondition(sigmas.count == count, "one σ per line")
        let top = sigmas.max() ?? 0
        if top <= GaussianBlur.identityThreshold { return image }
        var levels: [Double] = [top]
        while levels.last! / VariableGaussianBlur.ratio >= VariableGaussianBlur.smallestLevel {
            levels.append(levels.last! / VariableGaussianBlur.ratio)
        }
        levels.append(0)  // the image itself

        // Which two levels each line mixes, and how.
        var upper = [Int](repeating: 0, count: count), weight = [Float](repeating: 1, count: count)
        for (line, sigma) in sigmas.enumerated() {
            var k = 0
            while k + 1 < levels.count && levels[k + 1] > sigma { k += 1 }
            if k + 1 == levels.count { k -= 1 }  // σ below every level above 0
            let hi = levels[k], lo = levels[k + 1]
            upper[line] = k
            weight[line] = sigma >= hi ? 1 : Float((sigma * sigma - lo * lo) / (hi * hi - lo * lo))
        }

        // Each level, over the span of lines that use it.
        var rendered: [Int: (first: Int, image: Bitmap)] = [:]
        for k in levels.indices {
            let users = (0..<count).filter { upper[$0] == k || (upper[$0] + 1 == k && weight[$0] < 1) }
            guard let first = users.first, let last = users.last else { continue }
            if levels[k] == 0 {
                rendered[k] = (0, image)
                continue
            }
            let margin = Int((4 * levels[k]).rounded(.up)) + 2
            let from = max(0, first - margin), to = min(count, last + 1 + margin)
            let band = vertical
                ? try! image.cropped(x: 0, y: from, width: image.width, height: to - from)
                : try! image.cropped(x: from, y: 0, width: to - from, height: image.height)
            let blurred = try! GaussianBlur(sigma: levels[k], edges: .clamp).apply(to: band, threads: threads)
            rendered[k] = (from, blurred)
        }

        // Mix, one pair of levels at a time.
        let (levelOf, weightOf) = (upper, weight)
        var out = image.makeUninitializedLike()
        let w = image.width, h = image.height, stride = out.bytesPerRow, vertical = self.vertical
        out.withUnsafeMutablePixels { dst in
            let target = SharedPointer(dst.baseAddress!)
            for k in levels.indices {
                let lines = (0..<count).filter { levelOf[$0] == k }
                guard let a = rendered[k], let firstLine = lines.first, let lastLine = lines.last else { continue }
                let b = rendered[k + 1] ?? a
                a.image.withUnsafePixels { pa in
                    b.image.withUnsafePixels { pb in
                        let sa = SharedPointer(UnsafeMutablePointer(mutating: pa.baseAddress!))
                        let sb = SharedPointer(UnsafeMutablePointer(mutating: pb.baseAddress!))
                        let (strideA, strideB) = (a.image.bytesPerRow, b.image.bytesPerRow)
                        if vertical {
                            Parallel.forEachBand(count: lines.count, parts: threads) { band in
                                for line in lines[band] {
                                    Kernels.mix(
                                        sa.base + (line - a.first) * strideA, sb.base + (line - b.first) * strideB,
                                        weight: weightOf[line], count: w * 4, into: target.base + line * stride)
                                }
                            }
                        } else {
                            Parallel.forEachBand(count: h, parts: threads) { band in
                                for y in band {
                                    for x in firstLine...lastLine where levelOf[x] == k {
                                        Kernels.mix(
                                            sa.base + y * strideA + (x - a.first) * 4, sb.base + y * strideB + (x - b.first) * 4,
                                            weight: weightOf[x], count: 4, into: target.base + y * stride + x * 4)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
