import BlurKit
import Foundation

// Seed 004's dialog dismissal at 390×844 pt @3×: one composited frame against the same effect alone
// (the material backdrop at that moment's radius and dimming over the same region), and 60 frames
// rendered and encoded per format.
func benchScene(tile: Bitmap, runs: Int, emit: (String) -> Void) throws {
// Seed 004's dialog dismissal at 390×844 pt @3×: one composited frame against the same effect alone
// (the material backdrop at that moment's radius and dimming over the same region), and 60 frames
// rendered and encoded per format.
    let screen = try photo(width: 1170, height: 2532, from: tile)
    let scene = Scene(width: 390, height: 844)
    scene.addLayer(Layer(name: "content", frame: Rect(x: 0, y: 0, width: 390, height: 844), content: .bitmap(screen, mode: .fill)))
    let backdrop = Layer(name: "backdrop", frame: Rect(x: 0, y: 0, width: 390, height: 844))
    backdrop.backdropFilter = .material(Material(style: .systemMaterial))
    backdrop.blurEffectRadius = 6
    backdrop.dimmingAlpha = 0.5
    scene.addLayer(backdrop)
    let dialog = Layer(name: "dialog", frame: Rect(x: 55, y: 330, width: 280, height: 184))
    dialog.backgroundColor = .white
    dialog.cornerRadius = 14
    for (y, w, h, hex) in [(28.0, 232.0, 22.0, "#1C1C1E"), (64, 200, 14, "#8E8E93"), (130, 232, 36, "#007AFF")] {
        dialog.addSublayer(Layer(frame: Rect(x: 24, y: y, width: w, height: h),
                                 content: .shape(Path(roundedRect: Rect(x: 0, y: 0, width: w, height: h), cornerRadius: 6), fill: Color(hex: hex)!)))
    }
    scene.addLayer(dialog)
    scene.animate(at: 0.5, duration: 0.5) {
        dialog.opacity = 0
        backdrop.blurEffectRadius = 0
        backdrop.dimmingAlpha = 0
    }
    var retina = screen
    retina.scale = 3
    emit("")
    emit("Compositor: seed 004's dialog dismissal, 390×844 pt at 3× (1170×2532 px), one frame against its effect alone (the material at that moment's radius and dimming over the same full-screen region).")
    emit("")
    emit("| time s | frame ms | effect alone ms | ratio |")
    emit("|---|---|---|---|")
    for t in [0.0, 0.75] {
        let shown = backdrop.presentation(at: t)
        let radius = shown.blurEffectRadius, dimming = shown.dimmingAlpha
        let f = median(runs: runs) { blackHole(try! scene.render(at: t, scale: 3)) }
        let e = median(runs: runs) {
            blackHole(Material(style: .systemMaterial, blurEffectRadius: radius, dimmingAlpha: dimming)
                .render(over: retina, frame: Rect(x: 0, y: 0, width: 390, height: 844)))
        }
        emit("| \(fmt(t, 2)) | \(fmt(f)) | \(fmt(e)) | \(fmt(f / e, 2))× |")
    }
    if ProcessInfo.processInfo.environment["BLURBENCH_FRAMES_ONLY"] != nil { return }
    emit("")
    emit("60 frames of it (0.25…1.25 s at 60 fps), rendered in parallel and encoded in order:")
    emit("")
    emit("| format | total s | frames/s | file MB |")
    emit("|---|---|---|---|")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for suffix in ["webp", "gif", "png", "frames/"] {
        let path = folder + "/dialog." + suffix
        let recording = try SceneRecording(start: 0.25, duration: 1, frameRate: 60, scale: 3)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let writer = try AnimationWriter(path: path, width: 1170, height: 2532, frameRate: 60, quality: 90, opaque: true)
            try recording.record(scene, to: writer)
        }
        let seconds = milliseconds(elapsed) / 1000
        let bytes: Int
        if suffix.hasSuffix("/") {
            bytes = try FileManager.default.contentsOfDirectory(atPath: path).reduce(0) {
                $0 + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + $1)[.size] as? Int) ?? 0)
            }
        } else {
            bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        let name = ["webp": "WebP (lossy 90)", "gif": "GIF", "png": "APNG", "frames/": "PNG sequence"][suffix]!
        emit("| \(name) | \(fmt(seconds, 2)) | \(fmt(60 / seconds)) | \(fmt(Double(bytes) / 1e6)) |")
    }
}
