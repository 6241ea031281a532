import BlurKit
import Foundation

/// Liquid Glass and the scroll-edge effect against a Gaussian blur of the same regions at the same σ,
/// one thread, same run (the bar: glass ≤ 1.5×): over a 1170×2532 screenshot at 3×, a
/// capsule 300×64 pt and a card 350×220 pt, drawn in place (`GlassEffect.draw(in:frame:scale:threads:)`)
/// and through the value API (which copies the image once per call); and the scroll edge's two
/// styles over a 64-pt band of the same screenshot. The browser's figures (the module's glass and
/// `glass.html`'s frames) are printed by `Tests/Web/test_glass.py`.
@MainActor func benchGlass(tile: Bitmap, runs: Int, emit: (String) -> Void) throws {
    var screen = try photo(width: 1170, height: 2532, from: tile)
    screen.scale = 3
    let shapes: [(GlassShape, Rect)] = [
        (.capsule, Rect(x: 45, y: 760, width: 300, height: 64)), (.roundedRectangle(cornerRadius: 28), Rect(x: 20, y: 100, width: 350, height: 220)),
    ]
    emit("")
    emit(
        "Liquid Glass, one thread, over a 1170×2532 screenshot at 3×: a capsule 300×64 pt and a card 350×220 pt, against a Gaussian blur of the same two regions at the glass's own σ (target ≤ 1.5×)."
    )
    emit("")
    emit("| variant | blur of the regions ms | glass in place ms | ratio | glass, value API ms | ratio |")
    emit("|---|---|---|---|---|---|")
    for variant in [GlassVariant.regular, .clear] {
        let effects = shapes.map { GlassEffect(variant, shape: $0.0) }
        var blurs: [(GaussianBlur, Bitmap)] = []
        for ((_, frame), effect) in zip(shapes, effects) {
            guard let sigma = effect.blurSigma(frame: frame, scale: 3), let f = frame.scaled(by: 3).outerPixelRect else { continue }
            blurs.append((try GaussianBlur(sigma: sigma), try screen.cropped(x: f.x, y: f.y, width: f.width, height: f.height)))
        }
        var image = screen
        let blur = median(runs: runs) { for (b, region) in blurs { blackHole(b.apply(to: region, threads: 1)) } }
        let inPlace = median(runs: runs) {
            for ((_, frame), effect) in zip(shapes, effects) { effect.draw(in: &image, frame: frame, scale: 3, threads: 1) }
        }
        let value = median(runs: runs) {
            for ((_, frame), effect) in zip(shapes, effects) { blackHole(effect.render(over: screen, frame: frame, scale: 3, threads: 1)) }
        }
        emit("| \(variant) | \(fmt(blur, 2)) | \(fmt(inPlace, 2)) | \(fmt(inPlace / blur, 2))× | \(fmt(value, 2)) | \(fmt(value / blur, 2))× |")
        Targets.atMost("Liquid Glass \(variant), in place ÷ the blur of its regions", inPlace / blur, 1.5)
    }
    emit("")
    emit("The scroll-edge effect over the top 64 pt of the same screenshot (all cores), against a uniform blur of that band at σ 6 pt × 3.")
    emit("")
    emit("| style | uniform blur of the band ms | scroll edge ms | ratio |")
    emit("|---|---|---|---|")
    let band = try screen.cropped(x: 0, y: 0, width: 1170, height: 192)
    let uniform = try GaussianBlur(sigma: ScrollEdgeEffect.maximumRadiusSpec.defaultValue! * 3)
    let u = median(runs: runs) { blackHole(uniform.apply(to: band)) }
    for style in [ScrollEdgeStyle.soft, .hard] {
        var edge = ScrollEdgeEffect()
        edge.style = style
        let frame = Rect(x: 0, y: 0, width: 390, height: 844)
        let s = median(runs: runs) { blackHole(edge.render(over: screen, frame: frame)) }
        emit("| \(style) | \(fmt(u, 2)) | \(fmt(s, 2)) | \(fmt(s / u, 2))× |")
    }
}
