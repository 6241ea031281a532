import BlurKit
import Foundation

/// The seed demos the gallery shows in motion, built on the scene model.
enum GalleryDemos {
    /// Seed 000's `demoPhoto(size:)`: "Mountains at dusk" drawn as the seed draws it — a vertical
    /// gradient indigo → purple → orange, the sun a white ellipse at 0.85 opacity 22 % of the width
    /// across, and the ridge a cubic Bézier in dark blue — at `width × height` pixels.
    static func mountainsAtDusk(width: Int, height: Int) throws -> Bitmap {
        let (w, h) = (Double(width), Double(height))
        let scene = Scene(width: w, height: h, backgroundColor: .clear)
        let indigo = Color(hex: "#5856D6")!, purple = Color(hex: "#AF52DE")!, orange = Color(hex: "#FF9500")!
        let photo = Layer(
            frame: Rect(x: 0, y: 0, width: w, height: h), content: .linearGradient(colors: [indigo, purple, orange], start: (0, 0), end: (0, 1)))
        let sun = w * 0.22
        photo.addSublayer(
            Layer(
                frame: Rect(x: 0, y: 0, width: w, height: h),
                content: .shape(Path(ellipseIn: Rect(x: w * 0.6, y: h * 0.18, width: sun, height: sun)), fill: Color(white: 1, alpha: 0.85))))
        var ridge = Path()
        ridge.move(to: Point(0, h))
        ridge.addLine(to: Point(0, h * 0.63))
        ridge.addCurve(to: Point(w, h * 0.55), control1: Point(w / 3, h * 0.4), control2: Point(w * 0.66, h * 0.85))
        ridge.addLine(to: Point(w, h))
        ridge.closeSubpath()
        photo.addSublayer(
            Layer(frame: Rect(x: 0, y: 0, width: w, height: h), content: .shape(ridge, fill: Color(red: 0.12, green: 0.12, blue: 0.32))))
        scene.addLayer(photo)
        return try scene.render(at: 0)
    }

    /// Seed 000's demo: `BlurUpImage(preview: 18×24, image: isLoaded ? 900×1200 : nil)` at 3:4 with
    /// 24-pt rounded corners and 16-pt padding, the full image arriving after 1.3 s and leaving after
    /// 2.3 s, over and over — recorded over one period (3.6 s) so that the animation loops seamlessly.
    /// With Reduce Motion the demo loads once, at once, and the image fades in over 0.2 s.
    static func blurUpScene(preview: Bitmap, full: Bitmap, reduceMotion: Bool) -> (scene: Scene, start: Double, duration: Double) {
        let scene = Scene(width: 300 + 32, height: 400 + 32, backgroundColor: .white)
        let view = BlurUpImage(
            preview: preview, label: "Mountains at dusk", reduceMotion: reduceMotion, frame: Rect(x: 16, y: 16, width: 300, height: 400))
        view.layer.cornerRadius = 24
        scene.addLayer(view.layer)
        if reduceMotion {
            view.setImage(full, at: 0)
            return (scene, 0, 1)
        }
        // Loads at 1.3 s, leaves at 3.6 s, loads at 4.9, leaves at 7.2…: record 3.6 … 7.2.
        var t = 0.0
        for _ in 0..<3 {
            view.setImage(full, at: t + 1.3)
            view.setImage(nil, at: t + 3.6)
            t += 3.6
        }
        return (scene, 3.6, 3.6)
    }

    /// Seed 004's view blur on a card and dialog dismissal over `photo`, and its progressive header,
    /// as scenes in points.
    static func dialogScene(over photo: Bitmap) -> Scene {
        let (w, h) = (390.0, 844.0)
        let scene = Scene(width: w, height: h)
        scene.addLayer(Layer(name: "content", frame: Rect(x: 0, y: 0, width: w, height: h), content: .bitmap(photo, mode: .fill)))
        let backdrop = Layer(name: "backdrop", frame: Rect(x: 0, y: 0, width: w, height: h))
        backdrop.backdropFilter = .material(Material(style: .systemMaterial, blurEffectRadius: 6, dimmingAlpha: 0.5))
        scene.addLayer(backdrop)
        let dialog = Layer(name: "dialog", frame: Rect(x: 55, y: 330, width: 280, height: 184))
        dialog.backgroundColor = .white
        dialog.cornerRadius = 14
        for (y, width, height, hex) in [(28.0, 232.0, 22.0, "#1C1C1E"), (64, 200, 14, "#8E8E93"), (130, 232, 36, "#007AFF")] {
            dialog.addSublayer(
                Layer(
                    frame: Rect(x: 24, y: y, width: width, height: height),
                    content: .shape(Path(roundedRect: Rect(x: 0, y: 0, width: width, height: height), cornerRadius: 6), fill: Color(hex: hex)!)))
        }
        scene.addLayer(dialog)
        scene.animate(at: 0.5, duration: 0.5) {
            dialog.opacity = 0
            backdrop.setBackdropParameter(MaterialOperation.blurEffectRadius, to: 0)
            backdrop.setBackdropParameter(MaterialOperation.dimmingAlpha, to: 0)
        }
        return scene
    }

    static func viewBlurScene(over photo: Bitmap) -> Scene {
        let scene = Scene(width: 390, height: 500)
        scene.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 390, height: 500), content: .bitmap(photo, mode: .fill)))
        let card = Layer(name: "card", frame: Rect(x: 45, y: 120, width: 300, height: 260))
        card.backgroundColor = Color(white: 1, alpha: 0.9)
        card.cornerRadius = 24
        card.addSublayer(Layer(frame: Rect(x: 24, y: 24, width: 252, height: 150), content: .bitmap(photo, mode: .fill)))
        card.addSublayer(
            Layer(
                frame: Rect(x: 24, y: 194, width: 180, height: 18),
                content: .shape(Path(roundedRect: Rect(x: 0, y: 0, width: 180, height: 18), cornerRadius: 6), fill: Color(hex: "#1C1C1E")!)))
        card.blurRadius = 20
        scene.addLayer(card)
        card.setBlurRadiusAnimated(radius: 0, duration: 0.45, delay: 0.3, at: 0)
        return scene
    }

    static func progressiveHeaderScene(over photo: Bitmap) -> Scene {
        let scene = Scene(width: 390, height: 600)
        scene.addLayer(Layer(frame: Rect(x: 0, y: 0, width: 390, height: 600), content: .bitmap(photo, mode: .fill)))
        let header = Layer(frame: Rect(x: 0, y: 0, width: 390, height: 140))
        var effect = VariableBlurEffect(direction: .down)
        effect.maximumBlurRadius = 20
        effect.blurMaximumRadiusInset = .relative(fraction: 0.4)
        header.backdropFilter = .progressive(effect)
        scene.addLayer(header)
        return scene
    }

    /// Records `scene` over `start ..< start + duration` into `path` (format by suffix).
    static func record(_ scene: Scene, to path: String, start: Double = 0, duration: Double, fps: Double = 30, scale: Double = 1) throws {
        let recording = try SceneRecording(start: start, duration: duration, frameRate: fps, scale: scale)
        let writer = try AnimationWriter(
            path: path, width: Int((scene.width * scale).rounded()), height: Int((scene.height * scale).rounded()),
            frameRate: fps, quality: 85, opaque: scene.backgroundColor.alpha >= 1)
        try recording.record(scene, to: writer)
    }
}
