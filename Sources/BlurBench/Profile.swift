import BlurKit
import Foundation

/// `BlurBench --profile SIGMA [SECONDS]`: runs one blur of a 6000×4000 photo in a loop, for perf.
func profile(sigma: Double, seconds: Double, tile: Bitmap, threads: Int?) throws {
    let image = try photo(width: 6000, height: 4000, from: tile)
    let blur = try GaussianBlur(sigma: sigma)
    let clock = ContinuousClock()
    let end = clock.now + .milliseconds(Int(seconds * 1000))
    var count = 0
    var best = Double.infinity
    while clock.now < end {
        best = min(best, milliseconds(clock.measure { blackHole(blur.apply(to: image, threads: threads)) }))
        count += 1
    }
    print("σ \(sigma): \(count) runs, best \(String(format: "%.1f", best)) ms")
}
