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

/// `BlurBench --accuracy`: the fast path against the reference on the fixture photo, σ 0.5…100,
/// both edge modes; prints each result and the worst.
func accuracySweep(tile: Bitmap) throws {
    var worst = (psnr: Double.infinity, maximum: 0)
    for edges in EdgeMode.allCases {
        for sigma in [0.5, 0.8, 1, 1.5, 2, 2.5, 3, 3.5, 3.9, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32, 40, 50, 64, 80, 100] {
            let blur = try GaussianBlur(sigma: sigma, edges: edges)
            let d = ImageDifference(blur.reference(tile), blur.apply(to: tile))
            print(edges, sigma, d)
            worst = (min(worst.psnr, d.psnr), max(worst.maximum, d.maximum))
        }
    }
    print("worst: PSNR \(String(format: "%.1f", worst.psnr)) dB, max \(worst.maximum)")
}

/// `BlurBench --profile-progressive`: a full-frame progressive blur of 6000×4000 (or the size
/// `BENCH_SIZE` names, such as `1920x1080`) in a loop, for perf,
/// alternating with the uniform blur of its maximum σ (the machine's speed drifts); every direction,
/// or the one `BENCH_DIRECTION` names (down, up, left, right). Prints the best and the median of each,
/// and of building a stage for a geometry not seen before (what the first frame of a view pays; its plan
/// is kept after that, so the loop's first run pays it once).
@MainActor func profileProgressive(tile: Bitmap, threads: Int?) throws {
    let size = (ProcessInfo.processInfo.environment["BENCH_SIZE"] ?? "6000x4000").split(separator: "x").compactMap { Int($0) }
    let (w, h) = size.count == 2 && size.allSatisfy({ $0 > 0 && $0 <= 20_000 }) ? (size[0], size[1]) : (6000, 4000)
    let image = try photo(width: w, height: h, from: tile)
    let frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
    let uniform = try GaussianBlur(sigma: 24)
    let clock = ContinuousClock()
    func summary(_ times: [Double]) -> String {
        let sorted = times.sorted()
        return "best \(String(format: "%.1f", sorted[0])) ms, median \(String(format: "%.1f", sorted[sorted.count / 2])) ms"
    }
    // `BENCH_AREAS=1`: the blur-areas table's eight areas against a uniform blur of their boxes.
    if ProcessInfo.processInfo.environment["BENCH_AREAS"] == "1" {
        try benchAreas(images: [(w, h, image)], tile: tile, runs: 7) { print($0) }
        return
    }
    for direction in GradientDirection.allCases where ProcessInfo.processInfo.environment["BENCH_DIRECTION"].map({ $0 == "\(direction)" }) ?? true {
        var effect = VariableBlurEffect(direction: direction)
        effect.maximumBlurRadius = 24
        effect.dimmingTintColor = nil
        // `BENCH_ANGLE=30`: the ramp at that angle (the σ field's ladder) instead of the direction.
        if let angle = ProcessInfo.processInfo.environment["BENCH_ANGLE"].flatMap(Double.init) { effect.ramp = ProgressiveRamp(angle: angle) }
        var progressive: [Double] = [], plain: [Double] = []
        for _ in 0..<(w * h >= 10_000_000 ? 8 : 40) {
            progressive.append(milliseconds(clock.measure { blackHole(effect.render(over: image, frame: frame, threads: threads)) }))
            plain.append(milliseconds(clock.measure { blackHole(uniform.apply(to: image, threads: threads)) }))
        }
        // A stage's plan is cached by geometry: each of these frames is new.
        let setUp = (0..<8).map { i in
            let frame = Rect(x: 0, y: 0, width: Double(w - i - 1), height: Double(h - i - 1))
            return milliseconds(clock.measure { blackHole(effect.stage(width: w, height: h, scale: 1, frame: frame)) })
        }
        print("progressive \(direction) σ 24: \(summary(progressive)) (set-up \(summary(setUp))); uniform σ 24: \(summary(plain))")
    }
}

/// `BlurBench --profile-header`: BlurUIKit's header (its defaults over 390×120 pt of a 3× screenshot,
/// 1170×360 px) in a loop, for perf, alternating with the uniform blur of its maximum σ over the
/// header; the best and the median of each.
func profileHeader(tile: Bitmap, threads: Int?) throws {
    var header = try photo(width: 1170, height: 360, from: tile)
    header.scale = 3
    let effect = VariableBlurEffect(direction: .down), frame = Rect(x: 0, y: 0, width: 390, height: 120)
    let uniform = try GaussianBlur(sigma: effect.maximumBlurRadius * 3)
    let clock = ContinuousClock()
    var progressive: [Double] = [], plain: [Double] = []
    for _ in 0..<400 {
        progressive.append(milliseconds(clock.measure { blackHole(effect.render(over: header, frame: frame, threads: threads)) }))
        plain.append(milliseconds(clock.measure { blackHole(uniform.apply(to: header, threads: threads)) }))
    }
    let (p, u) = (progressive.sorted(), plain.sorted())
    print(
        "header: best \(fmt(p[0], 2)) ms, median \(fmt(p[p.count / 2], 2)) ms; uniform σ \(fmt(effect.maximumBlurRadius * 3)): best \(fmt(u[0], 2)) ms, median \(fmt(u[u.count / 2], 2)) ms"
    )
}

/// `BlurBench --profile-material`: a full-screen material in a loop, for perf.
func profileMaterial(tile: Bitmap) throws {
    var screen = try photo(width: 1170, height: 2532, from: tile)
    screen.scale = 3
    let clock = ContinuousClock()
    for radius in [nil, 12, 6, 3] as [Double?] {
        var best = Double.infinity
        for _ in 0..<(radius == nil ? 40 : 10) {
            best = min(
                best,
                milliseconds(
                    clock.measure {
                        blackHole(
                            Material(style: .systemMaterial, blurEffectRadius: radius, dimmingAlpha: 0.5)
                                .render(over: screen, frame: Rect(x: 0, y: 0, width: 390, height: 844)))
                    }))
        }
        let blur = try GaussianBlur(sigma: 3 * (radius ?? 24))
        let b = median(runs: 5) { blackHole(blur.apply(to: screen)) }
        print(
            "material radius \(radius.map { "\($0)" } ?? "default"): best \(String(format: "%.1f", best)) ms; blur alone \(String(format: "%.1f", b)) ms"
        )
    }
}
