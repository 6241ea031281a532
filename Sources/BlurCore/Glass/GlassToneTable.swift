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

    /// Tones `count` premultiplied pixels at `row` in place.
    func apply(_ row: UnsafeMutablePointer<UInt8>, count: Int) {
        let k = Float(tone.chroma), boosting = tone.chroma != 1, n = Float(GlassToneTable.steps)
        linear.withUnsafeBufferPointer { linear in
            direct.withUnsafeBufferPointer { direct in
                encoded.withUnsafeBufferPointer { encoded in
                    for x in 0..<count {
                        let p = row + x * 4
                        let (r, g, b) = (Int(p[0]), Int(p[1]), Int(p[2]))
                        if p[3] != 255 {
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
    }
}
