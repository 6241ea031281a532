import BlurCore
import Foundation
import Testing

/// The look reproduced: iOS 27.0's Liquid Glass, measured as Haze's ADR-0007 measures it. A grid of
/// 1-pt light lines every 8 pt on near-black at 3 px/pt (3-px lines, a 24-px period, both axes) is
/// rendered under the glass; the retention is the mean |Δ| of linear-light luminance between
/// neighbouring pixels (both axes) inside the shape inset by 16 pt (capsule) or 24 pt (card, panel),
/// divided by the same on the grid itself. iOS 27.0 keeps, within ±0.05: Clear 0.23 / 0.27 / 0.28
/// on a 240×64 capsule, a 280×176 card and a 320×220 panel, light and dark alike; Regular 0.24 on
/// the capsule and at most 0.03 on the card and the panel.
@Suite struct GlassFidelityTests {
    static let scale = 3.0
    static let margin = 16.0

    struct Case: Sendable, CustomStringConvertible {
        let name: String, shape: GlassShape, width: Double, height: Double, inset: Double
        var description: String { name }
    }

    static let cases = [
        Case(name: "capsule", shape: .capsule, width: 240, height: 64, inset: 16),
        Case(name: "card", shape: .roundedRectangle, width: 280, height: 176, inset: 24),
        Case(name: "panel", shape: .roundedRectangle, width: 320, height: 220, inset: 24),
    ]

    /// iOS 27.0's retention, per variant and case.
    static let targets: [GlassVariant: [String: ClosedRange<Double>]] = [
        .clear: ["capsule": 0.18...0.28, "card": 0.22...0.32, "panel": 0.23...0.33],
        .regular: ["capsule": 0.19...0.29, "card": 0...0.03, "panel": 0...0.03],
    ]

    /// The grid: light (240) lines 3 px wide every 24 px on near-black (16), opaque, with a margin
    /// around the frame.
    static func grid(_ c: Case) -> Bitmap {
        let w = Int(((c.width + 2 * margin) * scale).rounded()), h = Int(((c.height + 2 * margin) * scale).rounded())
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let v: UInt8 = y % 24 < 3 || x % 24 < 3 ? 240 : 16
                for i in 0..<3 { bytes[(y * w + x) * 4 + i] = v }
            }
        }
        return try! Bitmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    /// Mean |Δ| of linear luminance between neighbours (both axes), both inside the shape inset by `inset` points.
    static func contrast(_ image: Bitmap, _ c: Case) -> Double {
        let surface = GlassSurface([(c.shape, Rect(x: margin, y: margin, width: c.width, height: c.height))], scale: scale, k: 0)
        let linear = (0..<256).map { v -> Double in
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let (w, h) = (image.width, image.height)
        var luma = [Double](repeating: 0, count: w * h), inside = [Bool](repeating: false, count: w * h)
        let bytes = image.premultipliedRGBA
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let r = linear[Int(bytes[i])], g = linear[Int(bytes[i + 1])], b = linear[Int(bytes[i + 2])]
                luma[y * w + x] = 0.2126 * r + 0.7152 * g + 0.0722 * b
                inside[y * w + x] = surface.distance(Double(x) + 0.5, Double(y) + 0.5) <= -c.inset * scale
            }
        }
        var sum = 0.0, count = 0
        for y in 0..<h {
            for x in 0..<w where inside[y * w + x] {
                if x + 1 < w && inside[y * w + x + 1] { sum += abs(luma[y * w + x + 1] - luma[y * w + x]); count += 1 }
                if y + 1 < h && inside[(y + 1) * w + x] { sum += abs(luma[(y + 1) * w + x] - luma[y * w + x]); count += 1 }
            }
        }
        return sum / Double(max(count, 1))
    }

    static func retention(_ effect: GlassEffect, _ c: Case) -> Double {
        let grid = grid(c)
        var effect = effect
        effect.shape = c.shape
        let out = effect.render(over: grid, frame: Rect(x: margin, y: margin, width: c.width, height: c.height), scale: scale)
        return contrast(out, c) / contrast(grid, c)
    }

    @Test(arguments: [GlassVariant.clear, .regular])
    func gridRetentionMatchesIOS27(_ variant: GlassVariant) {
        for appearance in Appearance.allCases {
            for c in Self.cases {
                let r = Self.retention(GlassEffect(variant, appearance: appearance), c)
                print("glass fidelity \(variant) \(appearance) \(c): \(r)")
                #expect(Self.targets[variant]![c.name]!.contains(r), "\(variant) \(appearance) \(c): \(r)")
            }
        }
    }
}
