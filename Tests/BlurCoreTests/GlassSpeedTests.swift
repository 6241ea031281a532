import BlurCore
import BlurTestSupport
import Foundation
import Testing

/// The glass's cost against a Gaussian blur of the same regions at the same σ: a measurement, not a
/// test (nothing is asserted), run only when asked, in a release build, one thread:
///
///     BLURKIT_GLASS_BENCH=1 swift test -c release -Xcc -mavx2 --skip-build --filter GlassSpeed
///
/// A 1170×2532 noise "screenshot", a capsule 300×64 pt and a card 350×220 pt at 3 px/pt. Prints the
/// median of `BLURKIT_GLASS_RUNS` runs (default 15) of each: the two blurs, the two glasses drawn in
/// place (``GlassEffect/draw(in:frame:scale:threads:)``) and through the value API (which copies the
/// whole image once per call), and the ratios. `BLURKIT_GLASS_VARIANT=regular` (or `clear`) runs one.
@Suite(.serialized) struct GlassSpeedTests {
    static let enabled = ProcessInfo.processInfo.environment["BLURKIT_GLASS_BENCH"] != nil
    static let scale = 3.0
    static let shapes: [(GlassShape, Rect)] = [
        (.capsule, Rect(x: 45, y: 120, width: 300, height: 64)),
        (.roundedRectangle, Rect(x: 20, y: 400, width: 350, height: 220)),
    ]

    static func median(_ runs: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let d = clock.measure(body)
            times.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
        }
        return times.sorted()[runs / 2]
    }

    @Test(.enabled(if: enabled), arguments: [GlassVariant.regular, .clear])
    func glassAgainstTheGaussianOfTheSameRegions(_ variant: GlassVariant) throws {
        let environment = ProcessInfo.processInfo.environment
        if let only = environment["BLURKIT_GLASS_VARIANT"], only != "\(variant)" { return }
        let runs = Int(environment["BLURKIT_GLASS_RUNS"] ?? "") ?? 15
        let screen = TestImages.noise(width: 1170, height: 2532, seed: 7, opaque: true)
        let effects = Self.shapes.map { GlassEffect(variant, shape: $0.0) }
        var blurs: [(GaussianBlur, Bitmap)] = []
        for ((_, frame), effect) in zip(Self.shapes, effects) {
            let sigma = effect.blurSigma(frame: frame, scale: Self.scale)!
            let f = frame.scaled(by: Self.scale).outerPixelRect!
            blurs.append((try GaussianBlur(sigma: sigma), try screen.cropped(x: f.x, y: f.y, width: f.width, height: f.height)))
        }
        var image = screen
        let blur = Self.median(runs) { for (b, region) in blurs { withExtendedLifetime(b.apply(to: region, threads: 1)) {} } }
        let inPlace = Self.median(runs) {
            for ((_, frame), effect) in zip(Self.shapes, effects) { effect.draw(in: &image, frame: frame, scale: Self.scale, threads: 1) }
        }
        let value = Self.median(runs) {
            for ((_, frame), effect) in zip(Self.shapes, effects) {
                withExtendedLifetime(effect.render(over: screen, frame: frame, scale: Self.scale, threads: 1)) {}
            }
        }
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        print(
            "glass speed \(variant): blur \(f(blur)) ms, glass in place \(f(inPlace)) ms (\(f(inPlace / blur))×),"
                + " value API \(f(value)) ms (\(f(value / blur))×), median of \(runs), one thread")
    }
}
