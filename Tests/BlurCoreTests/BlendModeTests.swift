import BlurCore
import Foundation
import Testing

/// Blend modes against a float64 transcription of the W3C formulas written here, independently.
@Suite struct BlendModeTests {
    /// W3C Compositing and Blending Level 1, §10 (separable modes), straight values 0…1.
    static func w3c(_ mode: BlendMode, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case .normal, .plusLighter, .plusDarker: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return w3c(.hardLight, cs, cb)
        case .colorDodge: return cb == 0 ? 0 : (cs == 1 ? 1 : min(1, cb / (1 - cs)))
        case .colorBurn: return cb == 1 ? 1 : (cs == 0 ? 0 : 1 - min(1, (1 - cb) / cs))
        case .hardLight: return cs <= 0.5 ? 2 * cs * cb : w3c(.screen, cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : sqrt(cb)
            return cb + (2 * cs - 1) * (d - cb)
        }
    }

    /// Source `s` (straight colour, alpha) over premultiplied backdrop `b`, 0…1, premultiplied result.
    static func reference(_ mode: BlendMode, source s: SIMD3<Double>, alpha sa: Double, over b: SIMD4<Double>) -> SIMD4<Double> {
        let ba = b[3]
        switch mode {
        case .plusLighter:
            let a = min(1, sa + ba)
            return SIMD4((0..<3).map { min(a, s[$0] * sa + b[$0]) } + [a])
        case .plusDarker:
            let a = min(1, sa + ba)
            return SIMD4((0..<3).map { max(0, a - (sa - s[$0] * sa) - (ba - b[$0])) } + [a])
        default:
            let a = sa + ba * (1 - sa)
            let rgb = (0..<3).map { i -> Double in
                let cb = ba > 0 ? b[i] / ba : 0
                return s[i] * sa * (1 - ba) + b[i] * (1 - sa) + sa * ba * w3c(mode, cb, s[i])
            }
            return SIMD4(rgb + [a])
        }
    }

    @Test(arguments: BlendMode.allCases)
    func matchesTheFormulas(_ mode: BlendMode) throws {
        var state: UInt64 = 99
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Double(state >> 40) / Double(1 << 24)
        }
        let colours = [
            Color(red: 0.9, green: 0.2, blue: 0.5, alpha: 0.7), Color(white: 0.05), Color(white: 0.6, alpha: 0.3),
            Color(red: 0, green: 1, blue: 0.25, alpha: 1),
            // Just below ½, where soft light and hard light change formula: a threshold moved to 0.45
            // is levels away here (up to 2.7 at a dark backdrop).
            Color(red: 0.455, green: 0.47, blue: 0.49, alpha: 1), Color(red: 0.46, green: 0.3, blue: 0.48, alpha: 0.8),
        ]
        for colour in colours {
            var bytes: [UInt8] = []
            for _ in 0..<64 {
                let a = UInt8(unit() < 0.3 ? 255 : unit() * 255)
                bytes += (0..<3).map { _ in UInt8(unit() * Double(a)) } + [a]
            }
            let backdrop = try Bitmap(width: 8, height: 8, premultipliedRGBA: bytes)
            var out = backdrop
            out.composite(colour, mode: mode, in: PixelRect(x: 0, y: 0, width: 8, height: 8))
            for y in 0..<8 {
                for x in 0..<8 {
                    let p = backdrop[x, y]
                    let b = SIMD4<Double>(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) / 255
                    let expected = Self.reference(mode, source: SIMD3(colour.red, colour.green, colour.blue), alpha: colour.alpha, over: b) * 255
                    let got = out[x, y]
                    for (g, e) in zip([got.r, got.g, got.b, got.a], [expected[0], expected[1], expected[2], expected[3]]) {
                        #expect(abs(Double(g) - e) <= 1, "\(mode) \(colour) over \(p): \(got) vs \(expected)")
                    }
                }
            }
        }
    }

    /// Coverage c at a pixel is the colour's alpha × c there, to the byte: full coverage over opaque
    /// or clear pixels (the table and constant fast paths) included.
    @Test(arguments: [BlendMode.normal, .multiply, .softLight, .plusDarker])
    func coverageScalesTheColoursAlphaExactly(_ mode: BlendMode) throws {
        var bytes: [UInt8] = []
        for i in 0..<64 {
            let a: UInt8 = [255, 0, 128, 255][i % 4]
            bytes += [UInt8(i * 3 % 256), UInt8(i * 7 % 256), UInt8(i * 11 % 256)].map { min($0, a) } + [a]
        }
        let backdrop = try Bitmap(width: 8, height: 8, premultipliedRGBA: bytes)
        let coverage: [Float] = (0..<64).map { [1, 0, 0.5, 1, 0.25, 1, 0.999][$0 % 7] }
        let colour = Color(red: 0.9, green: 0.2, blue: 0.5, alpha: 0.7)
        var out = backdrop
        out.composite(colour, mode: mode, in: PixelRect(x: 0, y: 0, width: 8, height: 8), coverage: coverage)
        for y in 0..<8 {
            for x in 0..<8 {
                var one = try Bitmap(
                    width: 1, height: 1, premultipliedRGBA: [backdrop[x, y].r, backdrop[x, y].g, backdrop[x, y].b, backdrop[x, y].a])
                let c = Double(coverage[y * 8 + x])
                one.composite(
                    Color(red: colour.red, green: colour.green, blue: colour.blue, alpha: colour.alpha * c),
                    mode: mode, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
                #expect(out[x, y] == one[0, 0], "\(mode) at \(x),\(y), coverage \(c)")
            }
        }
    }

    @Test func saturationIsAColourMatrixThatKeepsGrey() throws {
        var image = try Bitmap(width: 2, height: 1, straightRGBA: [200, 100, 50, 255, 90, 90, 90, 255])
        image.saturate(PixelRect(x: 0, y: 0, width: 2, height: 1), by: 0)
        let lum = 0.2126 * 200 + 0.7152 * 100 + 0.0722 * 50
        #expect(abs(Double(image[0, 0].r) - lum) <= 1 && image[0, 0].r == image[0, 0].g)
        #expect(image[1, 0] == RGBA8(r: 90, g: 90, b: 90, a: 255))
        var boosted = try Bitmap(width: 1, height: 1, straightRGBA: [150, 120, 110, 255])
        boosted.saturate(PixelRect(x: 0, y: 0, width: 1, height: 1), by: 1.8)
        let l = 0.2126 * 150 + 0.7152 * 120 + 0.0722 * 110
        #expect(abs(Double(boosted[0, 0].r) - (l + 1.8 * (150 - l))) <= 1)
    }
}
