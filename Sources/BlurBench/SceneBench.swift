import BlurKit
import Foundation

// Seed 004's dialog dismissal at 390×844 pt @3×: one composited frame against the same effect alone
// (the material backdrop at that moment's radius and dimming over the same region), and 60 frames
// rendered and encoded per format.
func benchScene(tile: Bitmap, runs: Int, emit: (String) -> Void) throws {
    // The example scene file, its photo replaced by a 1170×2532 one (placed pixel for pixel at 3×).
    let screen = try photo(width: 1170, height: 2532, from: tile)
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/scenes/dialog-dismissal.json").path
    let file = try SceneFile.parse(try AtomicFile.read(path), imageLoader: { _ in screen })
    let scene = file.scene, backdrop = file.layers["backdrop"]!
    var retina = screen
    retina.scale = 3
    emit("")
    emit(
        "Compositor: seed 004's dialog dismissal, 390×844 pt at 3× (1170×2532 px), one frame against its effect alone (the material at that moment's radius and dimming over the same full-screen region)."
    )
    emit("")
    emit("| time s | frame ms | effect alone ms | ratio |")
    emit("|---|---|---|---|")
    for t in [0.0, 0.75] {
        let radius = backdrop.backdropValue(MaterialOperation.blurEffectRadius, at: t)
        let dimming = backdrop.backdropValue(MaterialOperation.dimmingAlpha, at: t) ?? Material.dimmingSpec.defaultValue!
        let f = median(runs: runs) { blackHole(try! scene.render(at: t, scale: 3)) }
        let e = median(runs: runs) {
            blackHole(
                Material(style: .systemMaterial, blurEffectRadius: radius, dimmingAlpha: dimming)
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
