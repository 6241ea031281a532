import BlurCore
import BlurScene
import BlurTestSupport
import Testing

/// Liquid Glass in scenes: a layer's `glassEffect(_:in:)`, a container whose close shapes merge, and
/// the scene file's glass backdrop with its tint animating.
@Suite struct GlassSceneTests {
    /// A striped opaque backdrop layer, `width × height` points.
    static func stripes(_ width: Double, _ height: Double) -> Layer {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
        layer.content = .linearGradient(colors: [.black, .white, .black, .white, .black], start: (0, 0), end: (1, 0))
        return layer
    }

    @Test func aLayersGlassIsGlassEffectsOverItsFrame() throws {
        let scene = Scene(width: 120, height: 80, backgroundColor: .white)
        scene.addLayer(Self.stripes(120, 80))
        let capsule = Layer(frame: Rect(x: 20, y: 20, width: 80, height: 30))
        capsule.glassEffect(GlassEffect(.clear))
        scene.addLayer(capsule)
        let frame = try scene.render(at: 0, scale: 2)
        let backdrop = Scene(width: 120, height: 80, backgroundColor: .white)
        backdrop.addLayer(Self.stripes(120, 80))
        let expected = GlassEffect(.clear).render(
            over: try backdrop.render(at: 0, scale: 2), frame: Rect(x: 20, y: 20, width: 80, height: 30), scale: 2)
        #expect(frame == expected)
    }

    @Test func closeShapesMergeInAContainerAndNotOtherwise() throws {
        func render(spacing: Double) throws -> Bitmap {
            let scene = Scene(width: 160, height: 60, backgroundColor: .white)
            scene.addLayer(Self.stripes(160, 60))
            let container = GlassEffectContainer(frame: Rect(x: 0, y: 0, width: 160, height: 60), spacing: spacing)
            container.glassEffect(in: .capsule, frame: Rect(x: 10, y: 15, width: 64, height: 30))
            container.glassEffect(in: .capsule, frame: Rect(x: 82, y: 15, width: 64, height: 30))
            scene.addLayer(container.layer)
            return try scene.render(at: 0, scale: 1)
        }
        let apart = try render(spacing: 0), merged = try render(spacing: 24)
        // The 8-pt gap between the two capsules is glass when they merge, the backdrop when not.
        #expect(apart[78, 30] != merged[78, 30], "\(apart[78, 30]) \(merged[78, 30])")
        // Far from the gap the two agree within the glass's blur of the other shape's neighbourhood.
        #expect(apart[2, 2] == merged[2, 2])
    }

    @Test func aSceneFilesGlassBackdropAnimatesItsTint() throws {
        let json = """
            {"width": 120, "height": 80, "appearance": "dark",
             "layers": [{"frame": [0, 0, 120, 80], "content": {"gradient": {"from": "white", "to": "black", "start": [0, 0], "end": [1, 0]}}},
                        {"name": "bar", "frame": [10, 20, 100, 40], "backdrop": {"glass": {"variant": "regular"}}}],
             "animations": [{"at": 0, "duration": 1, "curve": "linear", "layer": "bar", "set": {"tint": "#FF000080"}}]}
            """
        let file = try SceneFile.parse(Array(json.utf8))
        let start = try file.scene.render(at: 0, scale: 1)[60, 40], end = try file.scene.render(at: 1, scale: 1)[60, 40]
        #expect(Int(end.r) - Int(end.g) > Int(start.r) - Int(start.g) + 20, "\(start) → \(end)")
        // A number or a word is the blur's and the material's short form, not glass's (it was drawn
        // as a blur or a material).
        for value in ["1", "\"thin\""] {
            let short = json.replacingOccurrences(of: "{\"variant\": \"regular\"}", with: value)
            #expect(throws: SceneFileError.self, "glass: \(value)") { _ = try SceneFile.parse(Array(short.utf8)) }
        }
        // A key glass does not have is refused.
        let bad = json.replacingOccurrences(of: "\"variant\": \"regular\"", with: "\"variantt\": \"regular\"")
        #expect(throws: SceneFileError.self) { _ = try SceneFile.parse(Array(bad.utf8)) }
    }
}
