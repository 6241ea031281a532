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
    // Any angle: the ramp from start 0 to stop 1, every direction through the σ field's ladder.
    let piece = try photo(width: 160, height: 120, from: tile)
    let pieceFrame = Rect(x: 0, y: 0, width: 160, height: 120)
    emit("")
    emit(
        "Progressive blur at any angle (`--angle`, start 0, stop 1: the σ field's ladder), maximum σ 24 px, no dimming, against a uniform σ 24 blur of the frame; accuracy against its float64 reference (each pixel the Gaussian of its own σ) over a 160×120 photo."
    )
    emit("")
    emit("| image | angle | uniform σ 24 ms | progressive ms | ratio | accuracy |")
    emit("|---|---|---|---|---|---|")
    for (w, h, image) in images {
        let frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        let u = median(runs: runs) { blackHole(uniform.apply(to: image)) }
        for angle in [0.0, 30, 45, 90, 135, 270] {
            var ramp = effect(.down, radius: 24)
            ramp.ramp = ProgressiveRamp(angle: angle)
            let p = median(runs: runs) { blackHole(ramp.render(over: image, frame: frame)) }
            let d = ImageDifference(ramp.render(over: piece, frame: pieceFrame), ramp.reference(over: piece, frame: pieceFrame))
            emit("| \(w)×\(h) | \(fmt(angle))° | \(fmt(u)) | \(fmt(p)) | \(fmt(p / u, 2))× | \(fmt(d.psnr)) dB, ≤ \(d.maximum) |")
            Targets.atMost("progressive \(w)×\(h) at \(fmt(angle))° ÷ uniform σ 24", p / u, 1.5)
            if w == images[0].0 { Targets.accuracy("progressive at \(fmt(angle))° against its reference", psnr: d.psnr, maximum: d.maximum) }
        }
    }
    try benchAreas(images: images, tile: tile, runs: runs, emit: emit)

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

/// Blur areas against a uniform blur of each area's bounding box (its feather included), same run:
/// eight faces' worth of ellipses and rectangles over the frame, σ 24 px with a 12-px feather.
@MainActor func benchAreas(images: [(Int, Int, Bitmap)], tile: Bitmap, runs: Int, emit: (String) -> Void) throws {
    emit("")
    emit(
        "Blur areas (`blur-areas`): eight ellipses and rectangles, each 12 % × 15 % of the frame, σ 24 px, feather 12 px, against a uniform σ 24 blur of each area's bounding box (feather included) cropped out of the frame; accuracy against the float64 reference over a 160×120 photo."
    )
    emit("")
    emit("| image | uniform blur of the boxes ms | blur areas ms | ratio | accuracy |")
    emit("|---|---|---|---|---|")
    let boxes = [(0.05, 0.1), (0.3, 0.12), (0.55, 0.08), (0.8, 0.15), (0.1, 0.6), (0.35, 0.7), (0.6, 0.55), (0.82, 0.75)]
    let text = boxes.enumerated().map { i, box in
        "\(i % 2 == 0 ? "ellipse" : "rect"):\(fmt(box.0 * 100, 1))%,\(fmt(box.1 * 100, 1))%,12%,15%:24:12"
    }.joined(separator: ";")
    let operation = BlurOperation(BlurAreasOperation.self)
    let effect = try BlurAreasOperation.effect(try operation.read([(BlurAreasOperation.areas.name, text)], as: .key, in: .javascript))
    let uniform = try GaussianBlur(sigma: 24)
    let piece = try photo(width: 160, height: 120, from: tile)
    for (w, h, image) in images {
        let crops = try boxes.map { box -> Bitmap in
            let x = Int((box.0 * Double(w) - 12).rounded(.down)), y = Int((box.1 * Double(h) - 12).rounded(.down))
            return try image.cropped(x: max(0, x), y: max(0, y), width: Int(0.12 * Double(w)) + 26, height: Int(0.15 * Double(h)) + 26)
        }
        let u = median(runs: runs) { for crop in crops { blackHole(uniform.apply(to: crop)) } }
        let a = median(runs: runs) { blackHole(try! effect.render(image, threads: nil, checkpoint: {})) }
        let d = ImageDifference(
            try effect.render(piece, threads: nil, checkpoint: {}), FieldBlur.reference(piece, field: effect.field(width: 160, height: 120, scale: 1))
        )
        emit("| \(w)×\(h) | \(fmt(u)) | \(fmt(a)) | \(fmt(a / u, 2))× | \(fmt(d.psnr)) dB, ≤ \(d.maximum) |")
        Targets.atMost("blur areas \(w)×\(h) ÷ uniform σ 24 of their boxes", a / u, 1.2)
        if w == images[0].0 { Targets.accuracy("blur areas against their reference", psnr: d.psnr, maximum: d.maximum) }
    }
}
