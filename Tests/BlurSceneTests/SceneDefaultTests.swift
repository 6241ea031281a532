import BlurCore
import BlurIO
import BlurScene
import BlurTestSupport
import Foundation
import Testing

/// Every default `docs/scene-format.md` and the effects' reference pages (the registry) state is the reader's: for each key of each table with a
/// default column, a scene that leaves the key out renders byte for byte as the same scene giving
/// the documented default — in a scene where the key shows (a gradient's `start` over a visible
/// gradient, an animation's `delay` while it runs).
@Suite struct SceneDefaultTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/scene-format.md")

    /// One table of the document: its context (by the keys it has) and each key's documented default.
    struct Table {
        var keys: [String] = []
        var defaults: [String: Any] = [:]

        var context: Context? {
            if keys.contains("start") { return .gradient }
            if keys.contains("hidden") { return .reflection }
            if keys.contains("material") { return .material }
            if keys.contains("dimmingClearExtension") { return .progressive }
            if keys.contains("delay") { return .animation }
            if keys.contains("masksToBounds") { return .layer }
            if keys.contains("background") { return .document }
            return nil
        }
    }

    /// Where a key lives, and a scene that shows it.
    enum Context: CaseIterable {
        case document, layer, gradient, reflection, material, progressive, animation
    }

    /// The tables with a `default` column: cells that are JSON, in code quotes or not (`1`, `"down"`,
    /// `[0.5, 0]`, `null`), are defaults; words (none, **required**, "the style's own") are not.
    static func tables() throws -> [Table] {
        let text = String(decoding: try AtomicFile.read(document.path), as: UTF8.self)
        var tables: [Table] = []
        var defaultColumn: Int?
        var current = Table()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard line.hasPrefix("|"), !cells.isEmpty else {
                if defaultColumn != nil { tables.append(current) }
                defaultColumn = nil
                current = Table()
                continue
            }
            if cells.first == "key" {
                defaultColumn = cells.firstIndex(of: "default")
                continue
            }
            guard let column = defaultColumn, column < cells.count, cells[0].hasPrefix("`") else { continue }
            let key = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            current.keys.append(key)
            let cell = cells[column]
            // `[0.5, 0]` (top centre): the code span; a bare cell as it is.
            let json = cell.hasPrefix("`") ? String(cell.dropFirst().prefix { $0 != "`" }) : cell
            if let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) { current.defaults[key] = value }
        }
        if defaultColumn != nil { tables.append(current) }
        return tables
    }

    /// A scene over a photo where every key of `context` shows, as a JSON object tree; `edit` changes
    /// the object the keys of `context` belong to.
    static func scene(_ context: Context, _ edit: (inout [String: Any]) -> Void) -> [String: Any] {
        var gradient: [String: Any] = ["from": "#FF2000", "to": "#0030FFC0", "start": [0.1, 0.2], "end": [0.8, 0.9]]
        var reflection: [String: Any] = ["image": "photo.png", "alpha": 0.3, "hidden": false, "maximumBlurRadius": 6]
        var material: [String: Any] = ["material": "thin", "blurEffectRadius": 10, "dimmingAlpha": 0.4]
        var progressive: [String: Any] = [
            "direction": "up", "maximumBlurRadius": 6, "minimumBlurRadius": 1, "blurMaximumRadiusInset": ["relative": 0.2],
            "dimmingTintColor": "#FF0000", "dimmingAlpha": 0.7, "dimmingFullColorInset": ["relative": 0.1],
            "dimmingClearExtension": ["relative": 0.5],
        ]
        var animation: [String: Any] = ["at": 0.1, "duration": 0.4, "delay": 0.05, "curve": "easeIn", "layer": "photo", "set": ["opacity": 0.2]]
        switch context {
        case .gradient: edit(&gradient)
        case .reflection: edit(&reflection)
        case .material: edit(&material)
        case .progressive: edit(&progressive)
        case .animation: edit(&animation)
        case .document, .layer: break
        }
        var box: [String: Any] = [
            "name": "box", "frame": [6, 5, 40, 26], "content": ["gradient": gradient], "backgroundColor": "#00FF0080", "opacity": 0.8,
            "cornerRadius": 5, "masksToBounds": true, "blendMode": "multiply", "blurRadius": 1,
            "sublayers": [["frame": [30, 14, 30, 30], "backgroundColor": "#FFFF00"]],
        ]
        if context == .layer { edit(&box) }
        var document: [String: Any] = [
            "width": 64, "height": 48, "background": "#224466", "appearance": "dark",
            "layers": [
                ["name": "photo", "frame": [0, 0, 64, 48], "content": ["image": "photo.png"]],
                box,
                ["frame": [0, 0, 64, 24], "content": ["reflection": reflection]],
                ["frame": [2, 30, 60, 16], "backdrop": ["material": "systemMaterial"], "backgroundColor": "#FFFFFF20"],
                ["frame": [30, 2, 30, 40], "backdrop": material],
                ["frame": [0, 20, 64, 28], "backdrop": ["progressive": progressive]],
            ],
            // Only where the animation is what is tested: without `layers` it would name no layer.
            "animations": context == .animation ? [animation] : [],
        ]
        if context == .document { edit(&document) }
        return document
    }

    static let photo = try! TestImages.photo.resized(width: 96, height: 64)

    /// The scene at 0.3 s (the animation under way), at 1 and 2 pixels a point.
    static func render(_ tree: [String: Any]) throws -> [Bitmap] {
        let bytes = Array(try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys]))
        let file = try SceneFile.parse(bytes, imageLoader: { _ in photo })
        return try [1.0, 2].map { try file.scene.render(at: 0.3, scale: $0) }
    }

    @Test func everyDocumentedDefaultIsTheReaders() throws {
        let tables = try Self.tables().filter { $0.context != nil }
        var checked: [String] = []
        for table in tables {
            let context = try #require(table.context)
            for key in table.keys {
                guard let value = table.defaults[key] else { continue }
                // What the document level holds for a recording rather than a frame: its specs.
                if context == .document, let spec = ["scale": Scene.scaleSpec, "fps": SceneRecording.frameRateSpec][key] {
                    #expect(
                        spec.defaultValue == (value as? Double), "\(key): documented \(value), the spec says \(String(describing: spec.defaultValue))"
                    )
                    checked.append(key)
                    continue
                }
                let omitted = try Self.render(Self.scene(context) { $0[key] = nil })
                let given = try Self.render(Self.scene(context) { $0[key] = value })
                let same = omitted == given
                #expect(same, "\(context) \(key): leaving it out is not the documented default \(value)")
                checked.append("\(context).\(key)")
            }
        }
        // The effects' keys are on their reference pages, made from the registry: leaving one out is
        // its parameter's default there (as JSON: a number, a word, or the text of its kind).
        for (context, operation) in [
            (Context.material, BlurOperation(MaterialOperation.self)), (.progressive, BlurOperation(ProgressiveBlurOperation.self)),
        ] {
            // The material's short form takes these two beside its style.
            let beside = [MaterialOperation.blurEffectRadius.name, MaterialOperation.dimmingAlpha.name]
            for p in operation.parameters(in: .scene) where context == .progressive || beside.contains(p.name) {
                guard let value = p.defaultValue(for: .light) else { continue }
                let json: Any
                switch value {
                case .number where { if case .perAppearance = p.defaultValue { true } else { false } }():
                    guard case let .perAppearance(.number(light), .number(dark)) = p.defaultValue else { continue }
                    json = ["light": light, "dark": dark]
                case let .number(v): json = v
                case let .flag(on): json = on
                case .length(nil): json = NSNull()
                default: json = value.text
                }
                let omitted = try Self.render(Self.scene(context) { $0[p.name] = nil })
                let given = try Self.render(Self.scene(context) { $0[p.name] = json })
                let same = omitted == given
                #expect(same, "\(context) \(p.name): leaving it out is not the registry's default \(value.text)")
                checked.append("\(context).\(p.name)")
            }
        }
        // Each table was found and read: 23 keys have a JSON default in the document today, and
        // 10 of the effects' scene keys one in the registry.
        #expect(Set(tables.compactMap(\.context)) == Set(Context.allCases).subtracting([.material, .progressive]), "\(tables.map(\.keys))")
        #expect(checked.count >= 33, "\(checked)")
    }

    /// The scenes above show what they test: changing a key away from its default changes the frame.
    @Test func theScenesShowTheirKeys() throws {
        let cases: [(Context, String, Any)] = [
            (.gradient, "start", [0.5, 0.1]), (.animation, "delay", 0.1), (.layer, "backgroundColor", "#FFFFFF"),
            (.progressive, "dimmingClearExtension", ["relative": 0.1]), (.reflection, "alpha", 0.6), (.material, "dimmingAlpha", 0.9),
            (.document, "appearance", "dark"),
        ]
        for (context, key, value) in cases {
            let omitted = try Self.render(Self.scene(context) { $0[key] = nil })
            let changed = try Self.render(Self.scene(context) { $0[key] = value })
            let differs = omitted != changed
            #expect(differs, "\(context) \(key) = \(value) draws what its default draws")
        }
    }
}
