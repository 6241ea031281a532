/// How a layer's colour combines with what lies beneath it: the separable blend modes of W3C
/// Compositing and Blending Level 1, plus Apple's plus-lighter and plus-darker.
///
/// Compositing is source-over with the blend function B (W3C §5.8, premultiplied output):
/// `co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)`, `αo = αs + αb·(1 − αs)`, where `cs`, `cb` are
/// premultiplied and `Cs`, `Cb` the same colours unpremultiplied. `plusLighter` and `plusDarker` are
/// not of that form: `co = min(αo, cs + cb)` and `co = max(0, αo − (αs − cs) − (αb − cb))` with
/// `αo = min(1, αs + αb)`.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    /// The source alone: plain source-over.
    case normal
    /// Cb × Cs: never lighter; a white source leaves the backdrop as it is.
    case multiply
    /// Cb + Cs − Cb × Cs: never darker; a black source leaves the backdrop as it is.
    case screen
    /// Hard light with the roles swapped: multiplies where the backdrop is ≤ 0.5, screens where it is lighter.
    case overlay
    /// Brightens the backdrop towards the source: Cb ÷ (1 − Cs), capped at 1; a black backdrop stays black.
    case colorDodge
    /// Darkens the backdrop towards the source: 1 − (1 − Cb) ÷ Cs, floored at 0; a white backdrop stays white.
    case colorBurn
    /// A softer hard light: a source ≤ 0.5 darkens the backdrop, a lighter one lightens it (W3C's formula).
    case softLight
    /// Multiplies where the source is ≤ 0.5, screens where it is lighter.
    case hardLight
    /// Apple's plus-lighter: premultiplied colours added, `co = min(αo, cs + cb)` (see above).
    case plusLighter
    /// Apple's plus-darker: what each layer lacks of full added, `co = max(0, αo − (αs − cs) − (αb − cb))`.
    case plusDarker

    /// The parameter table entry: `blend-mode`, default `normal`.
    public static let spec = ChoiceSpec<BlendMode>(name: "blend-mode", defaultValue: .normal, summary: "how a layer blends with what is beneath")

    /// B(Cb, Cs) for one channel, unpremultiplied values 0…1.
    @inline(__always)
    public func blend(_ cb: Double, _ cs: Double) -> Double {
        switch self {
        case .normal, .plusLighter, .plusDarker: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return BlendMode.hardLight.blend(cs, cb)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? cb * 2 * cs : BlendMode.screen.blend(cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        }
    }

    /// One premultiplied pixel (0…1 each) composited: `source` over `backdrop`.
    public func composite(source s: SIMD4<Double>, over b: SIMD4<Double>) -> SIMD4<Double> {
        let (sa, ba) = (s[3], b[3])
        switch self {
        case .plusLighter:
            let a = min(1, sa + ba)
            return SIMD4(min(a, s[0] + b[0]), min(a, s[1] + b[1]), min(a, s[2] + b[2]), a)
        case .plusDarker:
            let a = min(1, sa + ba)
            func c(_ i: Int) -> Double { max(0, a - (sa - s[i]) - (ba - b[i])) }
            return SIMD4(c(0), c(1), c(2), a)
        default:
            var out = SIMD4<Double>(0, 0, 0, sa + ba * (1 - sa))
            for i in 0..<3 {
                let cs = sa > 0 ? s[i] / sa : 0, cb = ba > 0 ? b[i] / ba : 0
                out[i] = s[i] * (1 - ba) + b[i] * (1 - sa) + sa * ba * blend(cb, cs)
            }
            return out
        }
    }
}

extension BlendMode {
    /// One premultiplied source (0…1 per channel) over the premultiplied pixel at `px`, rounded.
    @inline(__always)
    func composite(_ source: SIMD4<Double>, onto px: UnsafeMutablePointer<UInt8>) {
        let backdrop = SIMD4<Double>(Double(px[0]), Double(px[1]), Double(px[2]), Double(px[3])) / 255
        let out = composite(source: source, over: backdrop)
        let a = (min(1, max(0, out[3])) * 255).rounded()
        px[3] = UInt8(a)
        for c in 0..<3 { px[c] = UInt8(min(a, max(0, (out[c] * 255).rounded()))) }
    }

    /// What compositing `color` in this mode does to each byte value of each channel of an opaque
    /// premultiplied pixel (which stays opaque): 3 × 256 bytes, red then green then blue. The same
    /// formula and rounding as ``Bitmap/composite(_:mode:in:coverage:)``.
    public func opaqueTable(for color: Color) -> [UInt8] {
        let straight = SIMD4<Double>(color.red, color.green, color.blue, 1)
        var table = [UInt8](repeating: 0, count: 3 * 256)
        for v in 0..<256 {
            let b = Double(v) / 255
            let out = composite(source: straight * color.alpha, over: SIMD4(b, b, b, 1))
            let a = (min(1, max(0, out[3])) * 255).rounded()
            for c in 0..<3 { table[c * 256 + v] = UInt8(min(a, max(0, (out[c] * 255).rounded()))) }
        }
        return table
    }
}

extension Bitmap {
    /// Composites a solid `color` (straight alpha) over `rect` (pixels) with `mode`, scaled per pixel
    /// by `coverage` when given (a row-major mask of `rect.width × rect.height` values 0…1).
    public mutating func composite(_ color: Color, mode: BlendMode, in rect: PixelRect, coverage: [Float]? = nil) {
        precondition(coverage == nil || coverage!.count == rect.width * rect.height, "one coverage per pixel")
        requireInside(rect)
        guard color.alpha > 0 else { return }
        let straight = SIMD4<Double>(color.red, color.green, color.blue, 1)
        // Where coverage is full, over an opaque pixel the result of each channel depends on that
        // channel alone: a table of the same formula for every byte value; over a clear pixel it is a
        // constant. Partial coverage takes the formula itself.
        let opaque = mode.opaqueTable(for: color)
        let out = mode.composite(source: straight * color.alpha, over: .zero)
        let a = (min(1, max(0, out[3])) * 255).rounded()
        func byte(_ v: Double) -> UInt8 { UInt8(min(a, max(0, (v * 255).rounded()))) }
        let constant = (byte(out[0]), byte(out[1]), byte(out[2]), UInt8(a))
        guard rect.width > 0, rect.height > 0 else { return }
        withMutablePixels { whole in
            let target = whole.region(rect)
            Parallel.forEachBand(count: rect.height, parts: rect.width * rect.height < 65536 ? 1 : nil) { rows in
                opaque.withUnsafeBufferPointer { table in
                    for row in rows {
                        let base = target.row(row)
                        for column in 0..<rect.width {
                            let px = base + column * 4
                            let cover = coverage?[row * rect.width + column] ?? 1
                            if cover == 1, px[3] == 255 {
                                px[0] = table[Int(px[0])]
                                px[1] = table[256 + Int(px[1])]
                                px[2] = table[512 + Int(px[2])]
                                continue
                            }
                            if cover == 1, px[3] == 0, px[0] == 0, px[1] == 0, px[2] == 0 {
                                (px[0], px[1], px[2], px[3]) = constant
                                continue
                            }
                            let alpha = color.alpha * Double(cover)
                            if alpha <= 0 { continue }
                            mode.composite(straight * alpha, onto: px)
                        }
                    }
                }
            }
        }
    }
}
