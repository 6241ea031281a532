/// ``GlassTone`` tabulated for bytes: the fast path's tone, held to the formula by the tests.
///
/// An opaque pixel whose chroma is not boosted (a grey, or a multiplier of 1) goes through one
/// 256-entry table a channel; another opaque pixel is linearised by table, boosted in `Float`, and
/// re-encoded through a table indexed by √(linear light) in 4096 steps (steps of at most 1/3000 of
/// the sRGB range, a tenth of a byte). Translucent pixels take the float64 formula.
struct GlassToneTable: Sendable {
    let tone: GlassTone
    /// sRGB byte → linear light.
    let linear: [Float]
    /// Per channel (256 each): byte → toned byte, no chroma boost.
    let direct: [UInt8]
    /// Per channel (`steps + 1` each): round(√linear × steps) → toned byte.
    let encoded: [UInt8]
    static let steps = 4096

    /// sRGB byte → linear light, and step i → sRGB of (i / steps)²: the same for every tone, made once.
    static let decoded: [Float] = (0..<256).map { Float(GlassTone.decode(Double($0) / 255)) }
    static let roots: [Double] = (0...steps).map { GlassTone.encode(Double($0 * $0) / Double(steps * steps)) }

    init(_ tone: GlassTone) {
        self.tone = tone
        linear = GlassToneTable.decoded
        let tints = [tone.tint.x, tone.tint.y, tone.tint.z]
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded(.toNearestOrEven)))) }
        direct = tints.flatMap { t in (0..<256).map { byte(tone.finish(Double($0) / 255, tint: t)) } }
        encoded = tints.flatMap { t in GlassToneTable.roots.map { byte(tone.finish($0, tint: t)) } }
    }

    /// Tones `count` premultiplied pixels at `row` in place; true when all of them are opaque.
    /// Eight opaque pixels whose chroma is boosted go through ``boost8(_:linear:encoded:)`` together.
    @discardableResult
    func apply(_ row: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        let k = Float(tone.chroma), boosting = tone.chroma != 1, n = Float(GlassToneTable.steps)
        var opaque = true
        linear.withUnsafeBufferPointer { linear in
            direct.withUnsafeBufferPointer { direct in
                encoded.withUnsafeBufferPointer { encoded in
                    var x = 0
                    while x < count {
                        if boosting && x + 8 <= count && GlassToneTable.boosts8(row + x * 4) {
                            boost8(row + x * 4, linear: linear, encoded: encoded)
                            x += 8
                            continue
                        }
                        let p = row + x * 4
                        x += 1
                        let (r, g, b) = (Int(p[0]), Int(p[1]), Int(p[2]))
                        if p[3] != 255 {
                            opaque = false
                            let v = tone.pixel(SIMD4(Double(r), Double(g), Double(b), Double(p[3])))
                            for c in 0..<4 { p[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                        } else if !boosting || (r == g && g == b) {
                            p[0] = direct[r]
                            p[1] = direct[256 + g]
                            p[2] = direct[512 + b]
                        } else {
                            let lr = linear[r], lg = linear[g], lb = linear[b]
                            let luma = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
                            let high = max(lr, max(lg, lb)), low = min(lr, min(lg, lb))
                            var s = k
                            if s > 1 {
                                if high > luma { s = min(s, (1 - luma) / (high - luma)) }
                                if low < luma { s = min(s, luma / (luma - low)) }
                            }
                            func index(_ l: Float) -> Int { Int((max(0, luma + s * (l - luma))).squareRoot() * n + 0.5) }
                            p[0] = encoded[min(index(lr), GlassToneTable.steps)]
                            p[1] = encoded[GlassToneTable.steps + 1 + min(index(lg), GlassToneTable.steps)]
                            p[2] = encoded[2 * (GlassToneTable.steps + 1) + min(index(lb), GlassToneTable.steps)]
                        }
                    }
                }
            }
        }
        return opaque
    }

    /// True when the eight pixels at `p` are opaque and none is grey.
    @inline(__always)
    private static func boosts8(_ p: UnsafeMutablePointer<UInt8>) -> Bool {
        var all = true
        for i in 0..<8 {
            let q = p + i * 4
            all = all && q[3] == 255 && !(q[0] == q[1] && q[1] == q[2])
        }
        return all
    }

    /// The scalar path's chroma boost for eight opaque, non-grey pixels at `p`, eight lanes at a time
    /// (the same operations in the same order, so the same bytes).
    @inline(__always)
    private func boost8(_ p: UnsafeMutablePointer<UInt8>, linear: UnsafeBufferPointer<Float>, encoded: UnsafeBufferPointer<UInt8>) {
        var lr = SIMD8<Float>(), lg = SIMD8<Float>(), lb = SIMD8<Float>()
        for i in 0..<8 {
            let q = p + i * 4
            lr[i] = linear[Int(q[0])]
            lg[i] = linear[Int(q[1])]
            lb[i] = linear[Int(q[2])]
        }
        let luma = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let k = Float(tone.chroma)
        var s = SIMD8<Float>(repeating: k)
        if k > 1 {
            let one = SIMD8<Float>(repeating: 1)
            var high = lr, low = lr
            for i in 0..<8 {
                high[i] = max(lr[i], max(lg[i], lb[i]))
                low[i] = min(lr[i], min(lg[i], lb[i]))
            }
            let up = (one - luma) / (high - luma), down = luma / (luma - low)
            for i in 0..<8 {
                if high[i] > luma[i] { s[i] = min(s[i], up[i]) }
                if low[i] < luma[i] { s[i] = min(s[i], down[i]) }
            }
        }
        let n = Float(GlassToneTable.steps), steps = GlassToneTable.steps
        func index(_ l: SIMD8<Float>) -> SIMD8<Float> {
            var v = luma + s * (l - luma)
            for i in 0..<8 { v[i] = max(0, v[i]) }
            return v.squareRoot() * n + 0.5
        }
        let ir = index(lr), ig = index(lg), ib = index(lb)
        for i in 0..<8 {
            let q = p + i * 4
            q[0] = encoded[min(Int(ir[i]), steps)]
            q[1] = encoded[steps + 1 + min(Int(ig[i]), steps)]
            q[2] = encoded[2 * (steps + 1) + min(Int(ib[i]), steps)]
        }
    }
}
