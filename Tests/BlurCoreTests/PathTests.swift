import BlurCore
import Foundation
import Testing

/// The vector fill against a plain supersampled reference: 16 × 16 samples per pixel, each inside or
/// not by the non-zero winding number of the flattened outline.
@Suite struct PathTests {
    static func reference(_ polygons: [[Point]], width: Int, height: Int) -> [Float] {
        func winding(_ x: Double, _ y: Double) -> Int {
            var w = 0
            for polygon in polygons {
                for i in polygon.indices {
                    let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                    if a.y <= y, b.y > y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { w += 1 }
                    if a.y > y, b.y <= y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 { w -= 1 }
                }
            }
            return w
        }
        var out = [Float](repeating: 0, count: width * height)
        for py in 0..<height {
            for px in 0..<width {
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 where winding(Double(px) + (Double(sx) + 0.5) / 16, Double(py) + (Double(sy) + 0.5) / 16) != 0 { inside += 1 }
                }
                out[py * width + px] = Float(inside) / 256
            }
        }
        return out
    }

    static func fill(_ path: Path, _ w: Int, _ h: Int) -> [Float] {
        path.coverage(in: PixelRect(x: 0, y: 0, width: w, height: h)) { $0 }
    }

    @Test func aRectangleCoversExactlyItsArea() {
        let coverage = Self.fill(Path(rect: Rect(x: 1.5, y: 2, width: 3, height: 2.25)), 8, 6)
        #expect(coverage[2 * 8 + 1] == 0.5)  // half of the left edge column
        #expect(coverage[2 * 8 + 2] == 1)
        #expect(coverage[4 * 8 + 2] == 0.25)  // a quarter of the bottom row
        #expect(coverage[0] == 0 && coverage[2 * 8 + 5] == 0)
        #expect(abs(coverage.reduce(0, +) - 3 * 2.25) < 1e-5)
    }

    @Test(arguments: [
        "M 2 3 L 29 9 L 7 27 Z",  // a triangle
        "M 4 4 C 40 0 -10 20 28 28 L 4 28 Z",  // a cubic that bends both ways
        "M 2 2 H 28 V 28 H 2 Z M 8 8 V 22 H 22 V 8 Z",  // a square with a hole (reversed)
        "M 2 2 H 20 V 20 H 2 Z M 10 10 H 28 V 28 H 10 Z",  // overlapping, same direction: one
        "M 16 2 Q 30 16 16 30 T 16 2 Z",  // quadratics, smooth
    ])
    func theFillMatchesASupersampledReference(_ svg: String) throws {
        let path = try Path(svg: svg)
        let (w, h) = (32, 32)
        let fast = Self.fill(path, w, h)
        let exact = Self.reference(path.polygons { $0 }, width: w, height: h)
        let worst = zip(fast, exact).map { abs($0 - $1) }.max()!
        #expect(worst <= 0.07, "worst pixel differs by \(worst)")
        #expect(abs(fast.reduce(0, +) - exact.reduce(0, +)) < 0.5)
    }

    @Test func anEllipseHasTheAreaOfAnEllipse() {
        let coverage = Self.fill(Path(ellipseIn: Rect(x: 3, y: 5, width: 50, height: 30)), 60, 40)
        let area = Double(coverage.reduce(0, +)), expected = Double.pi * 25 * 15
        #expect(abs(area - expected) / expected < 0.002)
    }

    @Test func aWindowOfTheImageIsThatPartOfTheWholeFill() throws {
        let path = try Path(svg: "m 5 5 l 40 3 l -10 30 c -20 0 -30 -10 -30 -33 z")
        let whole = Self.fill(path, 48, 40)
        let window = PixelRect(x: 13, y: 7, width: 20, height: 25)
        let part = path.coverage(in: window) { $0 }
        for y in 0..<window.height {
            for x in 0..<window.width {
                let a = part[y * window.width + x], b = whole[(y + 7) * 48 + x + 13]
                #expect(abs(a - b) < 1e-5)
            }
        }
    }

    @Test func absurdCoordinatesNeitherCrashNorSpill() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            var path = Path()
            path.move(to: Point(1, 1)); path.addLine(to: Point(value, 3)); path.addLine(to: Point(5, value)); path.closeSubpath()
            let coverage = Self.fill(path, 8, 8)
            #expect(coverage.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    /// Every SVG path the fuzzer kept (`Tests/Fuzz/regressions/path-*`) parses or throws, and fills.
    @Test func keptFuzzerFindingsNeitherCrashNorSpill() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fuzz/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("path-") }
        #expect(!names.isEmpty)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            guard let path = try? Path(svg: text) else { continue }
            let coverage = path.coverage(in: PixelRect(x: -3, y: -3, width: 40, height: 30)) { Point($0.x * 0.5, $0.y * 0.5) }
            #expect(coverage.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    @Test func svgErrorsSayWhereAndWhat() {
        #expect(throws: PathSyntaxError.noCommand) { try Path(svg: "10 10 L 3 3") }
        #expect(throws: PathSyntaxError.unexpected("A", offset: 8)) { try Path(svg: "M 10 10 A 1 1 0 0 0 3 3") }
        #expect(throws: PathSyntaxError.missingNumbers(command: "C", offset: 8)) { try Path(svg: "M 10 10 C 1 2 3") }
        #expect(throws: PathSyntaxError.missingNumbers(command: "L", offset: 0)) { try Path(svg: "M 1 1 2") }
        #expect(throws: (any Error).self) { try Path(svg: "M 1e999 0") }
    }

    @Test func relativeAndAbsoluteCommandsAgree() throws {
        let absolute = try Path(svg: "M10,10 L20,10 H30 V20 C30,30 20,30 10,20 Z")
        let relative = try Path(svg: "m10 10 l10 0 h10 v10 c0 10 -10 10 -20 0 z")
        #expect(absolute == relative)
    }
}
