/// Rows of an image blurred by a Gaussian by the direct schedule, in fixed point: one σ for every
/// row (the uniform blur below the pyramid's range), or one per row (the progressive blur's direct
/// rows, row y blurred across by σ[y] and gathering its column neighbours with σ[y]). For each
/// output row, a vertical pass over the input rows within ±3σ into a line that stays in cache, then
/// a horizontal pass from it straight to the output bytes. One trip through memory a band; a row's
/// bytes do not depend on which other rows were asked for.
///
/// Integers in 16-bit lanes throughout, so the bytes are the same on every machine, with or without
/// AVX2, and in WebAssembly (the arithmetic: `Kernels+FixedPoint.swift`):
/// - the half-kernel is quantised to Q15 (`w[0] + 2·Σ w[t] = 2¹⁵`) and kept as multipliers, the
///   centre's `w[0]` and each side's `2·w[t]`: symmetric taps are paired before the multiply, and a
///   product is rounded, `(x · m + 2¹⁴) >> 15`;
/// - the vertical pass pairs input bytes as `(a + b) · 2⁶` and keeps 7 fractional bits (a line of
///   `UInt16`, at most 255 × 2⁷ plus half a unit a product); the horizontal pass pairs two line
///   values by their mean rounded up and rounds the 7 bits away at the end. Each rounded product is
///   off by at most half a unit of 2⁻⁷, so a flat image stays flat and an opaque one opaque.
/// Every weight is positive and every operation is monotonic, so premultiplied colour never exceeds
/// alpha. Rows outside the image are the edge row (``EdgeMode/clamp``) or zeros
/// (``EdgeMode/transparent``), and so are pixels beyond either end of a line.
struct FixedPointRows: Sendable {
    /// The largest row's reach, in pixels.
    let radius: Int
    /// Per row, or one for all: the ``multipliers(_:)`` for offsets ±t, in every lane (a vector in
    /// memory is what the AVX2 and SIMD128 blocks load). Empty: the row as it is.
    private let kernels: [[SIMD16<UInt16>]]
    private let edges: EdgeMode
    private let width: Int
    private let height: Int

    /// About how many bytes the kernels hold.
    var bytes: Int { kernels.reduce(0) { $0 + 32 + $1.count * 32 } }

    /// Fractional bits the line between the two passes keeps.
    static let lineBits = 7

    /// Per-thread working memory for ``rows(_:source:scratch:into:)``.
    struct Scratch {
        fileprivate var line: [UInt16]
        fileprivate var zeros: [UInt8]
        fileprivate var rows: [UnsafePointer<UInt8>?]
    }

    /// Direct rows of a `width × height` image blurred by `sigma` (pixels, above
    /// ``GaussianBlur/identityThreshold`` and below ``GaussianFastPath/pyramidThreshold``).
    init(sigma: Double, edges: EdgeMode, width: Int, height: Int) {
        self.init(kernels: [FixedPointRows.kernel(sigma)], edges: edges, width: width, height: height)
    }

    /// Direct rows whose σ (pixels, each below the pyramid's range) changes from row to row, of a
    /// `width × sigmas.count` image. A σ of 0.2 or less leaves the row as it is.
    init(sigmas: [Double], edges: EdgeMode, width: Int) {
        let kernels = sigmas.map { $0 > GaussianBlur.identityThreshold ? FixedPointRows.kernel($0) : [] }
        self.init(kernels: kernels, edges: edges, width: width, height: sigmas.count)
    }

    private init(kernels: [[SIMD16<UInt16>]], edges: EdgeMode, width: Int, height: Int) {
        self.kernels = kernels
        self.edges = edges
        self.width = width
        self.height = height
        radius = max(1, kernels.map { $0.count - 1 }.max() ?? 1)
        // The line's values (255 × 2⁷ plus half a unit a product) must stay below 2¹⁵, the range
        // every instruction set's rounded product agrees on.
        precondition(radius < 200, "a radius of \(radius) px is beyond the direct schedule")
    }

    private static func kernel(_ sigma: Double) -> [SIMD16<UInt16>] {
        multipliers(sigma).map { SIMD16(repeating: $0) }
    }

    /// ``GaussianFastPath/halfKernel(_:)`` in Q15 as the passes multiply by it: the centre's weight
    /// `w[0]`, taking what rounding leaves so that the whole kernel sums to 2¹⁵ (less one where that
    /// is the centre alone: σ just above the identity threshold), then `2·w[t]` for each pair of
    /// sides, which the passes apply to a pair's mean (or its sum at half the scale). Each is below
    /// 2¹⁵: a side weighs less than half.
    static func multipliers(_ sigma: Double) -> [UInt16] {
        let sides = GaussianFastPath.halfKernel(sigma).dropFirst().map { Int(($0 * 32_768).rounded()) }
        return [UInt16(min(32_767, 32_768 - 2 * sides.reduce(0, +)))] + sides.map { UInt16(2 * $0) }
    }

    private func kernel(ofRow y: Int) -> [SIMD16<UInt16>] { kernels[kernels.count == 1 ? 0 : y] }

    /// The input rows that rows `rows` read.
    func inputRows(for rows: Range<Int>) -> Range<Int> {
        if kernels.count == 1 { return max(0, rows.lowerBound - radius)..<min(height, rows.upperBound + radius) }
        var lo = Int.max, hi = Int.min
        for y in rows {
            let r = max(0, kernels[y].count - 1)
            lo = min(lo, max(0, y - r))
            hi = max(hi, min(height, y + r + 1))
        }
        return lo..<hi
    }

    func makeScratch() -> Scratch {
        Scratch(
            line: [UInt16](repeating: 0, count: (width + 2 * radius) * 4),
            zeros: [UInt8](repeating: 0, count: edges == .transparent ? width * 4 : 0),
            rows: [UnsafePointer<UInt8>?](repeating: nil, count: 2 * radius + 1))
    }

    /// Writes rows `rows` into `output`, reading the rows they reach from `source`.
    func rows(_ rows: Range<Int>, source: PixelView, scratch: inout Scratch, into output: MutablePixelView) {
        for y in rows { row(y, source: source, scratch: &scratch, into: output.row(y)) }
    }

    /// Writes row `y` as `width × 4` bytes into `out` (which may lie in another image: the
    /// progressive blur's region), reading the rows it reaches from `source`.
    func row(_ y: Int, source: PixelView, scratch: inout Scratch, into out: UnsafeMutablePointer<UInt8>) {
        let kernel = kernel(ofRow: y), r = kernel.count - 1, height = height, edges = edges
        guard r >= 0 else { return out.copyBytes(from: source.row(y), count: width * 4) }
        scratch.zeros.withUnsafeBufferPointer { zeros in
            scratch.rows.withUnsafeMutableBufferPointer { rows in
                for t in 0...(2 * r) {
                    let i = y + t - r
                    if i >= 0 && i < height {
                        rows[t] = source.row(i)
                    } else {
                        rows[t] = edges == .clamp ? source.row(min(max(i, 0), height - 1)) : zeros.baseAddress!
                    }
                }
            }
        }
        kernel.withUnsafeBufferPointer { w in
            scratch.rows.withUnsafeBufferPointer { rows in
                scratch.line.withUnsafeMutableBufferPointer { line in
                    let centre = line.baseAddress! + r * 4
                    Kernels.fixedVertical(rows: UnsafeBufferPointer(rebasing: rows[0...(2 * r)]), weights: w, count: width * 4, into: centre)
                    Kernels.pad(line.baseAddress!, width: width, left: r, right: r, edges: edges)
                    Kernels.fixedHorizontal(UnsafePointer(centre), weights: w, count: width * 4, into: .bytes(out))
                }
            }
        }
    }
}
