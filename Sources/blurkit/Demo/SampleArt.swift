import BlurKit
import Foundation

/// The built-in sample picture: gradients, soft and hard shapes, and fine detail (a checkerboard,
/// a zone plate, hairlines), drawn procedurally so the demo needs no files. Everything is computed
/// per pixel from its coordinates; edges are anti-aliased with a one-pixel coverage ramp.
enum SampleArt {
    /// The scene at `width × height` (default 960 × 640). With `background: false` the sky and
    /// ground are left transparent, which shows what `.transparent` edges do.
    static func render(width: Int = 960, height: Int = 640, background: Bool = true) throws -> Bitmap {
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let s = Double(width) / 960  // everything is laid out for 960 wide
        for y in 0..<height {
            for x in 0..<width {
                let px = (Double(x) + 0.5) / s, py = (Double(y) + 0.5) / s
                var colour = background ? sky(px, py, height: Double(height) / s) : SIMD4<Double>(0, 0, 0, 0)
                // Sun with a soft glow.
                let sun = distance(px, py, 700, 170)
                colour = over(colour, SIMD3(255, 226, 170), coverage: 0.35 * max(0, 1 - (sun - 80) / 60) * (sun > 80 ? 1 : 0))
                colour = over(colour, SIMD3(255, 244, 214), coverage: ramp(80 - sun, s))
                // Zone plate: rings that get finer towards the rim.
                let zone = distance(px, py, 250, 200)
                if zone < 130 {
                    let v = 0.5 + 0.5 * cos(zone * zone / 130 * .pi / 2.2)
                    colour = over(colour, SIMD3(repeating: 255 * v), coverage: ramp(130 - zone, s))
                }
                // Ridge of hills.
                let ridge = 440 + 36 * sin(px / 70) + 18 * sin(px / 23 + 1)
                if background {
                    colour = over(colour, SIMD3(28, 31, 78), coverage: ramp(py - ridge, s))
                }
                // Checkerboard, 6-pt squares.
                if px > 500, px < 620, py > 300, py < 420 {
                    let on = (Int(px / 6) + Int(py / 6)) % 2 == 0
                    colour = over(colour, on ? SIMD3(250, 250, 250) : SIMD3(20, 20, 20), coverage: 1)
                }
                // Three rounded cards.
                for (i, fill) in [SIMD3<Double>(235, 64, 52), SIMD3(52, 168, 83), SIMD3(66, 133, 244)].enumerated() {
                    let d = roundedRect(px, py, x: 80 + Double(i) * 150, y: 480, w: 120, h: 110, r: 22)
                    colour = over(colour, fill, coverage: ramp(-d, s))
                }
                // Hairlines fanning out, one pixel wide.
                if px > 660, px < 920, py > 330, py < 600 {
                    for k in 0..<9 {
                        let angle = Double(k) * .pi / 18
                        let d = abs((px - 660) * sin(angle) + (py - 600) * cos(angle))
                        colour = over(colour, SIMD3(255, 255, 255), coverage: max(0, 1 - d * s) * 0.9)
                    }
                }
                let i = (y * width + x) * 4
                for c in 0..<4 { straight[i + c] = UInt8(max(0, min(255, colour[c].rounded()))) }
            }
        }
        return try Bitmap(width: width, height: height, straightRGBA: straight)
    }

    private static func sky(_ x: Double, _ y: Double, height: Double) -> SIMD4<Double> {
        let t = min(1, max(0, y / height * 0.9 + x / 960 * 0.1))
        let top = SIMD3<Double>(59, 42, 140), middle = SIMD3<Double>(142, 68, 173), bottom = SIMD3<Double>(242, 140, 56)
        let c = t < 0.5 ? top + (middle - top) * (t * 2) : middle + (bottom - middle) * (t * 2 - 1)
        return SIMD4(c.x, c.y, c.z, 255)
    }

    /// Straight-alpha source-over of an opaque colour with a coverage 0…1.
    private static func over(_ base: SIMD4<Double>, _ colour: SIMD3<Double>, coverage: Double) -> SIMD4<Double> {
        let a = min(1, max(0, coverage))
        if a == 0 { return base }
        let baseA = base.w / 255
        let outA = a + baseA * (1 - a)
        let rgb = (colour * a + SIMD3(base.x, base.y, base.z) * baseA * (1 - a)) / outA
        return SIMD4(rgb.x, rgb.y, rgb.z, outA * 255)
    }

    /// Coverage of a signed distance (positive inside) over a one-pixel ramp.
    private static func ramp(_ inside: Double, _ scale: Double) -> Double {
        min(1, max(0, inside * scale + 0.5))
    }

    private static func distance(_ x: Double, _ y: Double, _ cx: Double, _ cy: Double) -> Double {
        ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot()
    }

    /// Signed distance to a rounded rectangle (negative inside).
    private static func roundedRect(_ px: Double, _ py: Double, x: Double, y: Double, w: Double, h: Double, r: Double) -> Double {
        let qx = abs(px - (x + w / 2)) - (w / 2 - r), qy = abs(py - (y + h / 2)) - (h / 2 - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - r
    }
}
