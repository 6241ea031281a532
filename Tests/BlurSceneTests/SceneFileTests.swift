import BlurCore
import BlurIO
import BlurScene
import Foundation
import Testing

@Suite struct SceneFileTests {
    static func parse(_ text: String) throws -> SceneFile { try SceneFile.parse(Array(text.utf8)) }

    static func error(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return "\(error)" }
    }

    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")

    /// Every scene the fuzzer kept (`Tests/Fuzz/regressions/scene-*`) parses and renders as the fuzzer
    /// ran it (images from memory, a 1-MP pixel limit, at most 64 px a side) or throws: it never traps.
    @Test func keptFuzzerFindingsRenderOrThrow() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).filter { $0.hasPrefix("scene-") }
        #expect(!names.isEmpty)
        let tile = try Bitmap(width: 4, height: 3, premultipliedRGBA: [UInt8](repeating: 128, count: 48))
        for name in names {
            let bytes = try AtomicFile.read(Self.regressions.appendingPathComponent(name).path)
            guard let file = try? SceneFile.parse(bytes, baseDirectory: "/nonexistent", imageLoader: { _ in tile }) else { continue }
            let scale = max(0.01, min(1, 64 / max(1, max(file.scene.width, file.scene.height))))
            for t in [0, 0.3, file.lastAnimationEnd] {
                ImageLimits.withMaximumPixelCount(1 << 20) { _ = try? file.scene.render(at: t, scale: scale) }
            }
        }
    }

    /// A blurred layer's offscreen surface holds what the canvas needs: the canvas's pixels its blur
    /// reaches and the content within reach of those, not the blur's whole reach around the content
    /// (before: the 94×4 canvas below needed a surface of about 1,300×1,270 pixels, an error past
    /// 100,000; and a 200×150-pt scene at 3× with a blur of 2,000 pt one of 16,484×16,334).
    @Test func aBlurredLayersSurfaceIsWhatTheCanvasNeeds() throws {
        let file = try SceneFile.parse(AtomicFile.read(Self.regressions.appendingPathComponent("scene-blur-reach-over-limit.json").path))
        let wide = try SceneFile.parse(
            Array(
                ##"{"width": 200, "height": 150, "layers": [{"frame": [0, 0, 200, 150], "content": {"color": "#FF0000"}, "blurRadius": 2000}]}"##.utf8
            ))
        ImageLimits.withMaximumPixelCount(1_000_000) {
            #expect(throws: Never.self) { try file.scene.render(at: 0) }
            #expect(throws: Never.self) {
                let frame = try wide.scene.render(at: 0, scale: 3)
                #expect(frame.width == 600 && frame.height == 450)
            }
        }
        // Past the limit still, it is an error, not a trap.
        ImageLimits.withMaximumPixelCount(50_000) {
            #expect(throws: BitmapError.self) { try wide.scene.render(at: 0, scale: 3) }
        }
    }

    @Test func errorsNameThePathAndWhatWasExpected() {
        // A table, one (input, expected message) pair per case: kept as written.
        // swift-format-ignore
        let cases: [(String, String)] = [
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1]}, {"frame": [0,0,1,1]}, {"frame": {"x": 0, "y": 0, "width": "wide", "height": 3}}]}"#,
             #"layers[2].frame.width: expected a number, got "wide""#),
            (#"{"width": 10}"#, "height: missing"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "opacty": 1}]}"#, "layers[0].opacty: unknown key"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "opacity": 2}]}"#, "layers[0].opacity: must be from 0 to 1, got 2"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1]}]}"#, "layers[0].frame: expected [x, y, width, height], got 3 numbers"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"color": "pink-ish"}}]}"#, #"layers[0].content.color: expected a colour"#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"shape": {"path": "M 0 0 X"}, "fill": "white"}}]}"#,
             #"layers[0].content.shape.path: unexpected "X" at character 6"#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"color": "white", "image": "a.png"}}]}"#,
             "layers[0].content: only one of"),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,1,1]}], "animations": [{"layer": "b", "set": {}}]}"#,
             #"animations[0].layer: no layer is called "b" (layers: a)"#),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,1,1]}], "animations": [{"layer": "a", "curve": "bouncy", "set": {}}]}"#,
             "animations[0].curve: expected one of linear, easeIn, easeOut, easeInOut, default, got \"bouncy\""),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"material": "frosted"}}]}"#,
             "layers[0].backdrop.material: expected one of ultrathin, thin, regular, thick, chrome, systemUltraThinMaterial,"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"image": "/nonexistent/x.png"}}]}"#,
             "layers[0].content.image: cannot read /nonexistent/x.png: No such file"),
            ("{\"width\": 10,\n  \"height\": 10,,}", "line 2, column 16: expected a key in double quotes"),
            (#"{"width": 1e999, "height": 1}"#, "line 1, column 11: the number is out of range"),
            (#"[1, 2"#, "line 1, column 6: the document ends inside an array"),
            (String(repeating: "[", count: 5000), "line 1, column 201: nested more than 200 levels deep"),
            (#""just a string""#, "(document): expected an object"),
            (#"{"width": 10, "height": 10, "width": 12}"#, #"line 1, column 29: the key "width" appears twice in one object"#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"color": "white", "mode": "fit"}}]}"#,
             #"layers[0].content.mode: not allowed with "color" (it goes with "image")"#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "content": {"shape": {"ellipse": [0,0,1,1], "cornerRadius": 3}, "fill": "red"}}]}"#,
             #"layers[0].content.shape.cornerRadius: not allowed with "ellipse""#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"blur": 3, "dimmingAlpha": 0.5}}]}"#,
             #"layers[0].backdrop.dimmingAlpha: not allowed with "blur""#),
            (##"{"width": 10, "height": 10, "background": "#+FF"}"##, "background: expected a colour"),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"progressive": {"dimmingAlpha": "half"}}}]}"#,
             #"layers[0].backdrop.progressive.dimmingAlpha: expected a number, null or {"light", "dark"}, got "half""#),
            // One value per appearance only where the default has one (it was read as nothing and ignored).
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"progressive": {"maximumBlurRadius": {"light": 2, "dark": 9}}}}]}"#,
             #"layers[0].backdrop.progressive.maximumBlurRadius: expected a number or null, got an object"#),
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"scrollEdge": {"height": {"light": 20, "dark": 30}}}}]}"#,
             #"layers[0].backdrop.scrollEdge.height: expected a number, got an object"#),
            // Before: these animations were taken and did nothing, or jumped back (an outsider's finding).
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,10,10], "backdrop": {"progressive": {"direction": "up"}}}], "animations": [{"layer": "a", "duration": 1, "set": {"angle": 90}}]}"#,
             #"animations[0].set.angle: the backdrop gives no angle to animate from: give one in its object"#),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,10,10], "backdrop": {"progressive": {"start": 0, "stop": 0.2}}}], "animations": [{"layer": "a", "duration": 1, "set": {"start": 0.8}}]}"#,
             #"animations[0].set: start expects a start at or before the stop"#),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,10,10], "backdrop": {"progressive": {"blurMaximumRadiusInset": "40"}}}], "animations": [{"layer": "a", "duration": 1, "set": {"start": 0.5}}]}"#,
             #"animations[0].set: give blurMaximumRadiusInset or start, not both"#),
            // The blur's short form is a number; its keys beside it are its radius alone.
            (#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"blur": {"sigma": 10}}}]}"#,
             #"layers[0].backdrop.blur: expected a radius in points ({"blur": R}), got an object"#),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,1,1], "backdrop": {"blur": 10}}], "animations": [{"layer": "a", "set": {"dimmingAlpha": 0.3}}]}"#,
             #"animations[0].set.dimmingAlpha: unknown key (known here: opacity, frame, backgroundColor, cornerRadius, blurRadius, blurEffectRadius)"#),
            (#"{"width": 10, "height": 10, "layers": [{"name": "a", "frame": [0,0,1,1]}], "animations": [{"layer": "a", "set": {"blurEffectRadius": 30}}]}"#,
             #"animations[0].set.blurEffectRadius: unknown key"#),
        ]
        for (text, expected) in cases {
            let message = Self.error(text)
            #expect(message?.hasPrefix(expected) == true, "\(message ?? "no error") ≠ \(expected)")
        }
    }

    /// docs/scene-format.md's table of errors shows the message a backdrop of two kinds gets now
    /// (it still named three kinds after the registry grew to five).
    @Test func theDocumentsBackdropErrorIsTheReadersOwn() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/scene-format.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let message = try #require(
            Self.error(#"{"width": 10, "height": 10, "layers": [{"frame": [0,0,1,1], "backdrop": {"blur": 3, "material": "thin"}}]}"#))
        #expect(text.contains("`blurkit: s.json: \(message)`"), "scene-format.md lacks \(message)")
    }

    @Test func everyTruncationIsAnErrorNotACrash() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/scenes/dialog-dismissal.json")
        let bytes = try AtomicFile.read(url.path)
        for cut in 0..<bytes.count where cut % 7 == 0 {
            #expect(throws: SceneFileError.self) {
                try SceneFile.parse(Array(bytes.prefix(cut)), baseDirectory: url.deletingLastPathComponent().path)
            }
        }
    }

    @Test func aParsedSceneRendersAsTheSameSceneBuiltInCode() throws {
        let file = try Self.parse(
            """
            { "width": 60, "height": 40, "background": "#203040", "duration": 1, "fps": 12, "scale": 2,
              "layers": [
                { "name": "card", "frame": [10, 5, 40, 30], "backgroundColor": {"red": 1, "green": 0.5, "blue": 0, "alpha": 0.8},
                  "cornerRadius": 6, "blurRadius": 2,
                  "sublayers": [ { "frame": [5, 5, 10, 10], "content": { "shape": { "ellipse": [0, 0, 10, 10] }, "fill": "white" } } ] },
                { "name": "glass", "frame": [0, 20, 60, 20], "backdrop": { "blur": 3 } }
              ],
              "animations": [ { "at": 0.2, "duration": 0.5, "curve": [0.3, 0, 0.7, 1], "layer": "card", "set": { "blurRadius": 0, "opacity": 0.5 } } ] }
            """)
        #expect(file.scale == 2 && file.duration == 1 && file.frameRate == 12)
        #expect(abs(file.lastAnimationEnd - 0.7) < 1e-12)
        let scene = Scene(width: 60, height: 40, backgroundColor: Color(hex: "#203040")!)
        let card = Layer(name: "card", frame: Rect(x: 10, y: 5, width: 40, height: 30))
        card.backgroundColor = Color(red: 1, green: 0.5, blue: 0, alpha: 0.8)
        card.cornerRadius = 6
        card.blurRadius = 2
        card.addSublayer(
            Layer(
                frame: Rect(x: 5, y: 5, width: 10, height: 10),
                content: .shape(Path(ellipseIn: Rect(x: 0, y: 0, width: 10, height: 10)), fill: .white)))
        let glass = Layer(name: "glass", frame: Rect(x: 0, y: 20, width: 60, height: 20))
        glass.backdropFilter = .blur(radius: 3)
        scene.addLayer(card)
        scene.addLayer(glass)
        scene.animate(at: 0.2, duration: 0.5, curve: .cubicBezier(x1: 0.3, y1: 0, x2: 0.7, y2: 1)) {
            card.blurRadius = 0
            card.opacity = 0.5
        }
        for t in [0, 0.3, 0.45, 1] {
            #expect(try file.scene.render(at: t, scale: 2) == scene.render(at: t, scale: 2))
        }
        #expect(file.layers["card"] === file.scene.root.sublayers[0])
    }
}
