/// ``GlassTone`` tabulated for bytes: the fast path's tone, held to the formula by the tests.
///
/// An opaque pixel whose chroma is not boosted (a grey, or a multiplier of 1) goes through one
/// 256-entry table a channel. Another opaque pixel is linearised by table, boosted in `Float` eight
/// pixels at a time, and re-encoded through a table indexed by the boosted linear light's bit
/// pattern: its exponent and the top 10 bits of its mantissa (steps of 2⁻¹⁰ of the value, at most
/// 0.06 of a byte in sRGB; values under 2⁻¹⁷ count as 2⁻¹⁷, under 0.03 of a byte). No square root
/// and no float-to-integer conversion: integer shifts, eight lanes at once. Translucent pixels take
/// the float64 formula.
struct GlassToneTable: Sendable {
    let tone: GlassTone
    /// sRGB byte → linear light.
    let linear: [Float]
    /// Per channel (256 each): byte → toned byte, no chroma boost.
    let direct: [UInt8]
    /// Index of the linear light's bit pattern → toned byte: one table (``count`` entries) a distinct
    /// tint component, so one alone (17 KB, within a core's first-level cache) without a tint.
    let encoded: [UInt8]
    /// Where each channel's table starts in ``encoded``.
    let offsets: (red: Int32, green: Int32, blue: Int32)

    /// The bit pattern of the least linear light told apart (2⁻¹⁷), of 1, and how many low mantissa
    /// bits an index drops.
    static let lowBits: Int32 = 0x3700_0000, oneBits: Int32 = 0x3F80_0000, shift: Int32 = 13
    /// Entries of ``encoded`` a channel: 17 octaves of 1024 steps, and 1 itself.
    static let count = Int((oneBits - lowBits) >> shift) + 1

    /// sRGB byte → linear light, and index i → the sRGB value of its step's centre: the same for
    /// every tone, made once.
    static let decoded: [Float] = (0..<256).map { Float(GlassTone.decode(Double($0) / 255)) }
    static let centres: [Double] = (0..<count).map { i in
        let bits = lowBits + Int32(i) << shift + (i == count - 1 ? 0 : 1 << (shift - 1))
        return GlassTone.encode(Double(Float(bitPattern: UInt32(bits))))
    }

    init(_ tone: GlassTone) {
        self.tone = tone
        linear = GlassToneTable.decoded
        let tints = [tone.tint.x, tone.tint.y, tone.tint.z]
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded(.toNearestOrEven)))) }
        direct = tints.flatMap { t in (0..<256).map { byte(tone.finish(Double($0) / 255, tint: t)) } }
        // One table a distinct tint component (all three alike without a tint).
        var made: [Double] = [], encoded: [UInt8] = [], starts: [Int32] = []
        for t in tints {
            if let i = made.firstIndex(of: t) {
                starts.append(Int32(i * GlassToneTable.count))
            } else {
                starts.append(Int32(made.count * GlassToneTable.count))
                made.append(t)
                encoded += GlassToneTable.centres.map { byte(tone.finish($0, tint: t)) }
            }
        }
        self.encoded = encoded
        offsets = (starts[0], starts[1], starts[2])
    }

    /// Tones `count` premultiplied pixels at `row` in place; true when all of them are opaque.
    /// Pixels go eight at a time (the last group fewer) through ``boost(_:_:linear:direct:encoded:)``
    /// when the chroma is boosted; each pixel's bytes are the same whatever its group.
    @discardableResult
    func apply(_ row: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        let boosting = tone.chroma != 1
        var opaque = true
        linear.withUnsafeBufferPointer { linear in
            direct.withUnsafeBufferPointer { direct in
                encoded.withUnsafeBufferPointer { encoded in
                    // (The tables are never empty.)
                    guard let linear = linear.baseAddress, let direct = direct.baseAddress, let encoded = encoded.baseAddress else { return }
                    var x = 0
                    while x < count {
                        let n = min(8, count - x), p = row + x * 4
                        x += n
                        var alpha: UInt8 = 255
                        for i in 0..<n { alpha &= p[i * 4 + 3] }
                        if boosting { boost(p, n, linear: linear, direct: direct, encoded: encoded) }
                        guard alpha != 255 || !boosting else { continue }
                        for i in 0..<n {
                            let q = p + i * 4
                            if q[3] != 255 {
                                opaque = false
                                let v = tone.pixel(SIMD4(Double(q[0]), Double(q[1]), Double(q[2]), Double(q[3])))
                                for c in 0..<4 { q[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                            } else if !boosting {
                                q[0] = direct[Int(q[0])]
                                q[1] = direct[256 + Int(q[1])]
                                q[2] = direct[512 + Int(q[2])]
                            }
                        }
                    }
                }
            }
        }
        return opaque
    }

    /// The chroma boost and the rest of the tone for the opaque pixels among the `count` (1…8) at
    /// `p`, eight lanes at a time; greys through ``direct``; translucent pixels are left as they are.
    @inline(__always)
    private func boost(
        _ p: UnsafeMutablePointer<UInt8>, _ count: Int, linear: UnsafePointer<Float>, direct: UnsafePointer<UInt8>, encoded: UnsafePointer<UInt8>
    ) {
        var lr = SIMD8<Float>(), lg = SIMD8<Float>(), lb = SIMD8<Float>()
        for i in 0..<count {
            lr[i] = linear[Int(p[i * 4])]
            lg[i] = linear[Int(p[i * 4 + 1])]
            lb[i] = linear[Int(p[i * 4 + 2])]
        }
        let luma = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let k = Float(tone.chroma)
        var s = SIMD8<Float>(repeating: k)
        if k > 1 {
            // Capped so that no channel leaves 0…1 (comparisons and selects: no generic min or max).
            var high = lr.replacing(with: lg, where: lg .> lr)
            high = high.replacing(with: lb, where: lb .> high)
            var low = lr.replacing(with: lg, where: lg .< lr)
            low = low.replacing(with: lb, where: lb .< low)
            let up = (1 - luma) / (high - luma), down = luma / (luma - low)
            s = s.replacing(with: up, where: (high .> luma) .& (up .< s))
            s = s.replacing(with: down, where: (low .< luma) .& (down .< s))
        }
        let least = SIMD8<Int32>(repeating: GlassToneTable.lowBits), one = SIMD8<Int32>(repeating: GlassToneTable.oneBits)
        /// The table index of boosted linear light: its bit pattern (ordered as the value for
        /// non-negative floats, negative for negative ones) clamped to 2⁻¹⁷…1, less 2⁻¹⁷'s, shifted.
        @inline(__always) func index(_ l: SIMD8<Float>) -> SIMD8<Int32> {
            var bits = unsafeBitCast(luma + s * (l - luma), to: SIMD8<Int32>.self)
            bits = bits.replacing(with: least, where: bits .< least)
            bits = bits.replacing(with: one, where: bits .> one)
            return (bits &- least) &>> GlassToneTable.shift
        }
        let ir = index(lr) &+ offsets.red, ig = index(lg) &+ offsets.green, ib = index(lb) &+ offsets.blue
        for i in 0..<count {
            let q = p + i * 4
            let (r, g, b) = (q[0], q[1], q[2])
            guard q[3] == 255 else { continue }
            if r == g && g == b {
                q[0] = direct[Int(r)]
                q[1] = direct[256 + Int(g)]
                q[2] = direct[512 + Int(b)]
            } else {
                q[0] = encoded[Int(ir[i])]
                q[1] = encoded[Int(ig[i])]
                q[2] = encoded[Int(ib[i])]
            }
        }
    }
}
