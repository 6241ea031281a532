import BlurKit
import Foundation

/// The progressive blur against the uniform blur of its maximum σ, same run: at full frame in every
/// direction (maximum σ 24 px), and over a header at BlurUIKit's defaults (3.5 pt at 3× over a
/// 390×120-pt header of a 1170×2532 screenshot); with its accuracy against its float64 reference
/// (`VariableBlurEffect.reference`) on a 600×400 photo, where the reference takes seconds, not hours.
@MainActor func benchProgressive(images: [(Int, Int, Bitmap)], tile: Bitmap, runs: Int, emit: (String) -> Void) throws {
    func effect(_ direction: GradientDirection, radius: Double) -> VariableBlurEffect {
        var effect = VariableBlurEffect(direction: direction)
        effect.maximumBlurRadius = radius
        effect.dimmingTintColor = nil
        return effect
    }
    let small = try photo(width: 600, height: 400, from: tile)
    let smallFrame = Rect(x: 0, y: 0, width: 600, height: 400)
    emit("")
    emit(
        "Progressive blur, full frame, maximum σ 24 px (radius 24 pt at scale 1), no dimming, against a uniform σ 24 blur; accuracy against its float64 reference over a 600×400 photo (PSNR, largest byte difference)."
    )
    emit("")
    emit("| image | direction | uniform σ 24 ms | progressive ms | ratio | accuracy |")
    emit("|---|---|---|---|---|---|")
    let uniform = try GaussianBlur(sigma: 24)
    for (w, h, image) in images {
        let frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        let u = median(runs: runs) { blackHole(uniform.apply(to: image)) }
        for direction in GradientDirection.allCases {
            let plain = effect(direction, radius: 24)
            let p = median(runs: runs) { blackHole(plain.render(over: image, frame: frame)) }
            let d = ImageDifference(plain.render(over: small, frame: smallFrame), plain.reference(over: small, frame: smallFrame))
            emit("| \(w)×\(h) | \(direction) | \(fmt(u)) | \(fmt(p)) | \(fmt(p / u, 2))× | \(fmt(d.psnr)) dB, ≤ \(d.maximum) |")
            Targets.atMost("progressive \(w)×\(h) \(direction) ÷ uniform σ 24", p / u, 1.5)
        }
    }
    // BlurUIKit's defaults: the header of a phone screenshot.
    var screen = try photo(width: 1170, height: 2532, from: tile)
    screen.scale = 3
    var header = try screen.cropped(x: 0, y: 0, width: 1170, height: 360)
    header.scale = 3
    let defaults = VariableBlurEffect(direction: .down)
    let headerFrame = Rect(x: 0, y: 0, width: 390, height: 120)
    let sigma = defaults.maximumBlurRadius * 3
    let headerUniform = try GaussianBlur(sigma: sigma)
    let u = median(runs: runs) { blackHole(headerUniform.apply(to: header)) }
    let p = median(runs: runs) { blackHole(defaults.render(over: header, frame: headerFrame)) }
    let onScreen = median(runs: runs) { blackHole(defaults.render(over: screen, frame: headerFrame)) }
    let d = ImageDifference(
        effect(.down, radius: defaults.maximumBlurRadius).render(over: header, frame: headerFrame),
        effect(.down, radius: defaults.maximumBlurRadius).reference(over: header, frame: headerFrame))
    emit("")
    emit(
        "At BlurUIKit's defaults (maximum radius 3.5 pt, σ \(fmt(sigma)) px at 3×, with its dimming) over a 390×120-pt header (1170×360 px), against a uniform σ \(fmt(sigma)) blur of the header; and over the header of the whole 1170×2532 screenshot (the rest copied)."
    )
    emit("")
    emit("| uniform σ \(fmt(sigma)) ms | progressive ms | ratio | over the screenshot ms | accuracy (no dimming) |")
    emit("|---|---|---|---|---|")
    emit("| \(fmt(u, 2)) | \(fmt(p, 2)) | \(fmt(p / u, 2))× | \(fmt(onScreen, 2)) | \(fmt(d.psnr)) dB, ≤ \(d.maximum) |")
    Targets.atMost("BlurUIKit's header ÷ uniform σ \(fmt(sigma))", p / u, 1.3)
}
