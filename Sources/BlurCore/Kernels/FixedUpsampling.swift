/// The pyramid's upsampling across (a ``FilterTaps`` table over RGBA pixels: the cubic B-spline's
/// four taps) in fixed point, four output pixels a vector: what turns each of the progressive
/// blur's coarse lines (7 fractional bits) into a row of bytes.
///
/// Four neighbouring outputs read at most a few neighbouring coarse pixels, so a group of four
/// reads `span` coarse pixels from its own `base`, each pixel's four channels in all four slots of
/// a vector, against a vector of the four outputs' weights (zero where an output does not read that
/// pixel). The B-spline's weights repeat with the output's phase, so the groups share a few weight
/// patterns, and one sweep over the line is a few loads, multiplies and adds a group.
///
/// Weights are Q16, each output's four summing to 2¹⁶ (its largest taking what rounding leaves,
/// at most 2¹⁶ − 1); a product is the high half of `u16 × u16`, truncated, and each output adds back
/// half a unit for each of its four products and half a byte's unit before the 7 bits are dropped.
struct FixedUpsampling: Sendable {
    /// Output pixels.
    let count: Int
    /// Coarse pixels every group reads.
    let span: Int
    /// Coarse pixels the line must have readable: the last group's reach.
    let readablePixels: Int
    /// Per group of four outputs: its first coarse pixel, and the index of its first weight vector.
    private let groups: [(base: Int, pattern: Int)]
    /// `span` weight vectors per pattern: lanes 4q … 4q + 3 weigh output q of the group.
    private let patterns: [SIMD16<UInt16>]

    /// How many bytes the tables hold.
    var bytes: Int { groups.count * 16 + patterns.count * 32 }

    init(_ taps: FilterTaps) {
        let count = taps.count, width = taps.width, starts = taps.starts, q16 = taps.quantised
        self.count = count
        let groupCount = (count + 3) / 4
        var bases = [Int](repeating: 0, count: groupCount), span = 1
        for g in 0..<groupCount {
            let outputs = (4 * g)..<min(count, 4 * g + 4)
            bases[g] = starts[outputs].min()!
            span = max(span, starts[outputs].max()! + width - bases[g])
        }
        self.span = span
        // Groups of the same phase weigh the same, and go through their phases in turn: a group
        // tries the pattern that followed the last group's pattern before, then (while there are
        // few) every pattern, else takes one of its own.
        var groups = [(base: Int, pattern: Int)](), patterns = [UInt16](), successor: [Int?] = [], recent: Int? = nil
        groups.reserveCapacity(groupCount)
        let lanes = span * 16
        var pattern = [UInt16](repeating: 0, count: lanes)
        for (g, base) in bases.enumerated() {
            for i in 0..<lanes { pattern[i] = 0 }
            for o in (4 * g)..<min(count, 4 * g + 4) {
                let shift = starts[o] - base
                for t in 0..<width {
                    let weight = q16[o * width + t], at = (shift + t) * 16 + 4 * (o - 4 * g)
                    for lane in 0..<4 { pattern[at + lane] = weight }
                }
            }
            let known = successor.count
            func matches(_ p: Int) -> Bool { patterns[(p * lanes)..<((p + 1) * lanes)].elementsEqual(pattern) }
            var chosen = recent.flatMap { successor[$0] }.flatMap { matches($0) ? $0 : nil }
            if chosen == nil && known <= 64 { chosen = (0..<known).first(where: matches) }
            let index = chosen ?? known
            if index == known {
                patterns += pattern
                successor.append(nil)
            }
            if let recent { successor[recent] = index }
            recent = index
            groups.append((base, index * span))
        }
        self.groups = groups
        self.patterns = stride(from: 0, to: patterns.count, by: 16).map { SIMD16(patterns[$0..<($0 + 16)]) }
        readablePixels = (bases.last ?? 0) + span
    }

    /// Writes the `count` output pixels (`4 × count` bytes) into `out` from `line`: coarse pixels
    /// with 7 fractional bits, at least ``readablePixels`` of them readable.
    func apply(_ line: UnsafePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>) {
        let span = span, bits = UInt16(FixedPointRows.lineBits)
        let offset = SIMD16<UInt16>(repeating: 2 &+ 1 &<< (bits - 1))
        let pixels = UnsafeRawPointer(line), target = UnsafeMutableRawPointer(out)
        groups.withUnsafeBufferPointer { groups in
            patterns.withUnsafeBufferPointer { patterns in
                for (g, group) in groups.enumerated() {
                    var acc = offset, at = group.base * 8
                    let weights = patterns.baseAddress! + group.pattern
                    for t in 0..<span {
                        // One coarse pixel (four channels, 8 bytes) in all four slots.
                        let pixel = SIMD4<UInt64>(repeating: pixels.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        acc &+= Kernels.mulhi(unsafeBitCast(pixel, to: SIMD16<UInt16>.self), weights[t])
                        at += 8
                    }
                    let bytes = Kernels.narrow(acc &>> bits)
                    if 4 * g + 4 <= count {
                        target.storeBytes(of: bytes, toByteOffset: g * 16, as: SIMD16<UInt8>.self)
                    } else {
                        for lane in 0..<(4 * (count - 4 * g)) { out[g * 16 + lane] = bytes[lane] }
                    }
                }
            }
        }
    }
}
