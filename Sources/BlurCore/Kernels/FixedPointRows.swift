/// Rows of an image blurred by one Gaussian by the direct schedule, in fixed point: for each output
/// row, a vertical pass over the input rows within ±3σ into a line that stays in cache, then a
/// horizontal pass from it straight to the output bytes. One trip through memory a band.
///
/// Integers in 16-bit lanes throughout, so the bytes are the same on every machine and in
/// WebAssembly:
/// - the half-kernel is quantised to Q16 (`w[0] + 2·Σ w[t] = 2¹⁶`); symmetric taps are added
///   before the multiply, and a product is the high half of `u16 × u16`;
/// - the vertical pass keeps 7 fractional bits (a line of `UInt16`, at most 255 × 2⁷ + bias), the
///   horizontal pass rounds them away. Each truncated product loses less than one unit of 2⁻⁷, half
///   a unit on average, which the bias of each pass gives back: a flat image stays flat and an
///   opaque one opaque (the error stays below 0.1 of a level at the largest direct radius).
/// Every weight is positive and every channel goes through the same operations, so premultiplied
/// colour never exceeds alpha. Rows outside the image are the edge row (``EdgeMode/clamp``) or
/// zeros (``EdgeMode/transparent``), and so are pixels beyond either end of a line.
struct FixedPointRows: Sendable {
    let radius: Int
    /// `weights[t]` for offsets ±t, Q16, in every lane (a vector in memory keeps the compiler from
    /// widening the multiply to 32 bits).
    private let weights: [SIMD16<UInt16>]
    private let edges: EdgeMode
    private let width: Int
    private let height: Int

    /// Fractional bits the line between the two passes keeps.
    static let lineBits = 7

    /// What a pass adds back for the truncation of its `radius + 1` products: half a unit each.
    static func bias(radius: Int) -> UInt16 { UInt16((radius + 1) / 2) }

    /// Per-thread working memory for ``rows(_:source:scratch:into:)``.
    struct Scratch {
        fileprivate var line: [UInt16]
        fileprivate var zeros: [UInt8]
        fileprivate var rows: [UnsafePointer<UInt8>?]
    }

    /// Direct rows of a `width × height` image blurred by `sigma` (pixels, above
    /// ``GaussianBlur/identityThreshold`` and below ``GaussianFastPath/pyramidThreshold``).
    init(sigma: Double, edges: EdgeMode, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.edges = edges
        weights = FixedPointRows.quantisedHalfKernel(sigma).map { SIMD16(repeating: $0) }
        radius = weights.count - 1
        // The line's values (255 × 2⁷ plus the bias) must stay below 2¹⁵, so that two add up in 16 bits.
        precondition(radius < 200, "σ \(sigma) is beyond the direct schedule")
    }

    /// The half-kernel of ``GaussianRows/halfKernel(_:)`` in Q16, its centre taking what rounding
    /// leaves so that the whole kernel sums to 2¹⁶ (less one where that is the centre alone: σ just
    /// above the identity threshold).
    static func quantisedHalfKernel(_ sigma: Double) -> [UInt16] {
        let half = GaussianRows.halfKernel(sigma).map { Double($0) }
        let total = half[0] + 2 * half.dropFirst().reduce(0, +)
        let sides = half.dropFirst().map { Int(($0 / total * 65_536).rounded()) }
        return [UInt16(min(65_535, 65_536 - 2 * sides.reduce(0, +)))] + sides.map { UInt16($0) }
    }

    /// The input rows that rows `rows` read.
    func inputRows(for rows: Range<Int>) -> Range<Int> {
        max(0, rows.lowerBound - radius)..<min(height, rows.upperBound + radius)
    }

    func makeScratch() -> Scratch {
        Scratch(
            line: [UInt16](repeating: 0, count: (width + 2 * radius) * 4),
            zeros: [UInt8](repeating: 0, count: edges == .transparent ? width * 4 : 0),
            rows: [UnsafePointer<UInt8>?](repeating: nil, count: 2 * radius + 1))
    }

    /// Writes rows `rows` into `output`, reading the rows they reach from `source`.
    func rows(_ rows: Range<Int>, source: PixelView, scratch: inout Scratch, into output: MutablePixelView) {
        for y in rows { strip(0..<width, of: y, source: source, scratch: &scratch, into: output.row(y)) }
    }

    /// Writes `columns` of row `y` into `out` (the row's first byte).
    private func strip(
        _ columns: Range<Int>, of y: Int, source: PixelView, scratch: inout Scratch, into out: UnsafeMutablePointer<UInt8>
    ) {
        let r = radius, height = height, edges = edges
        // The columns the strip reads across, inside the image; the rest of its reach is padding.
        let first = max(0, columns.lowerBound - r), end = min(width, columns.upperBound + r)
        let left = first - (columns.lowerBound - r), right = columns.upperBound + r - end
        scratch.zeros.withUnsafeBufferPointer { zeros in
            scratch.rows.withUnsafeMutableBufferPointer { rows in
                for t in 0...(2 * r) {
                    let i = y + t - r
                    if i >= 0 && i < height {
                        rows[t] = source.row(i) + first * 4
                    } else {
                        rows[t] = edges == .clamp ? source.row(min(max(i, 0), height - 1)) + first * 4 : zeros.baseAddress! + first * 4
                    }
                }
            }
        }
        weights.withUnsafeBufferPointer { w in
            scratch.rows.withUnsafeBufferPointer { rows in
                scratch.line.withUnsafeMutableBufferPointer { line in
                    let start = line.baseAddress!
                    Kernels.fixedVertical(rows: rows, weights: w, count: (end - first) * 4, into: start + left * 4)
                    Kernels.pad(start, width: end - first, left: left, right: right, edges: edges)
                    Kernels.fixedHorizontal(
                        UnsafePointer(start + r * 4), weights: w, count: columns.count * 4, into: out + columns.lowerBound * 4)
                }
            }
        }
    }
}
