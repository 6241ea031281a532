import BlurCommandLine
import BlurKit
import BlurServe
import Foundation
import Testing

/// The toy operation (`VeilOperation.swift`, which no other file of the package knows) in every
/// front end made from the registry — the command line's `--help` and `--describe`, the service's
/// routes and `/openapi.json`, the scene reader, the streaming pipeline and the TypeScript
/// declarations; `Tests/Web/test_added.mjs` builds it into a WebAssembly module.
@Suite struct ToyOperationTests {
    static let toy = BlurOperation(VeilOperation.self)

    @Test func theCommandLineListsAndDescribesIt() throws {
        let registry = BlurOperation.all + [Self.toy.adding(StillOutput.parameters)]
        let tool = CommandLineTool(
            commands: registry.filter { $0.image != nil }.map { CommandEntry.effect($0, run: { _, _ in }) }, operations: registry, about: "",
            version: "0")
        let overview = try tool.respond(to: ["--help"]) ?? ""
        #expect(overview.contains("veil") && overview.contains(VeilOperation.summary), "\(overview)")
        let help = try tool.respond(to: ["veil", "--help"]) ?? ""
        #expect(help.contains("usage: blurkit veil IN OUT") && help.contains("--strength A") && help.contains("--color COLOR"), "\(help)")
        #expect(help.contains("how opaque the veil is (0…1, default 0.5)"), "\(help)")
        // Its values are checked by their kinds before any file is touched.
        #expect(throws: (any Error).self) { _ = try tool.respond(to: ["veil", "in.png", "out.png", "--strength", "2"]) }
        let described = try tool.respond(to: ["--describe"]) ?? ""
        let operations = try JSONSerialization.jsonObject(with: Data(described.utf8)) as! [[String: Any]]
        let veil = try #require(operations.first { $0["name"] as? String == "veil" })
        let names = (veil["parameters"] as! [[String: Any]]).map { $0["name"] as! String }
        #expect(names.starts(with: ["strength", "veilColor", "region"]), "\(names)")
    }

    @Test func itStreamsThroughThePipelineAsARowStage() throws {
        let operation = Self.toy.adding(StillOutput.parameters)
        let given = try operation.read([("strength", "1"), ("color", "#FF0000"), ("region", "0,0,40,30")], as: .query, in: .http)
        // Its run has a stage of its own (a row stage, holding nothing between bands), not the
        // whole-image stage an operation without one is run through.
        let prepared = try #require(operation.image).prepare(given)
        let context = try BlurOperation.context(given, width: 451, height: 300, scale: 1)
        let stages = try #require(prepared.stages?(451, 300, 1, context))
        #expect(stages.count == 1 && stages[0] is RowMapStage)
        #expect(stages[0].heldBytes(bandRows: 64) == 0 && stages[0].inputBytes(bandRows: 64) == 64 * 451 * 4)
        // File to file through the library's streaming API: the whole-image draw's bytes.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-toy-stream-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Renderer.still(given, from: .file(Workspace.fixture), to: .file(folder + "/out.png"), format: .png)
        let streamed = try ImageFile.read(folder + "/out.png"), photo = try ImageFile.read(Workspace.fixture)
        let drawn = try prepared.draw(photo, try BlurOperation.context(given, width: photo.width, height: photo.height, scale: 1))
        #expect(streamed == drawn)
        #expect(streamed[10, 10] == RGBA8(r: 255, g: 0, b: 0, a: 255) && streamed[100, 100] == photo[100, 100])
    }

    @Test func theServiceRoutesAndDocumentsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-toy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Workspace.fixture, toPath: folder + "/photo.png")
        var settings = BlurService.Settings(root: try ServeRoot(folder))
        settings.operations = BlurOperation.all + [Self.toy.adding(StillOutput.parameters)]
        let service = BlurService(settings)
        func answer(_ target: String) -> HTTPResponse {
            switch service.handle(HTTPRequest(method: "GET", rawTarget: target)) {
            case let .now(response): return response
            case let .later(work): return work()
            }
        }
        let document = try JSONSerialization.jsonObject(with: Data(answer("/openapi.json").body)) as! [String: Any]
        let paths = document["paths"] as! [String: Any]
        let route = try #require(paths["/veil/{path}"] as? [String: Any])
        let parameters = ((route["get"] as! [String: Any])["parameters"] as! [[String: Any]]).map { $0["name"] as! String }
        #expect(parameters.contains("strength") && parameters.contains("color"), "\(parameters)")
        // The route draws it: the veiled corner is darker than the photo's, the rest unchanged.
        let veiled = answer("/veil/photo.png?strength=1&color=black&region=0,0,8,8&format=png")
        #expect(veiled.status == 200, "\(veiled.status) \(String(decoding: veiled.body, as: UTF8.self))")
        let image = try ImageFile.decode(veiled.body),
            photo = try ImageFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: Workspace.fixture))))
        #expect(image[2, 2] == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(image[20, 20] == photo[20, 20])
        #expect(answer("/veil/photo.png?strength=3").status == 400)
        // A value with a control character names its parameter in the error's field (before: none).
        let control = answer("/veil/photo.png?strength=%01")
        let error = try JSONSerialization.jsonObject(with: Data(control.body)) as? [String: Any]
        #expect(control.status == 400 && error?["parameter"] as? String == "strength", "\(String(decoding: control.body, as: UTF8.self))")
        // A format an animation's route refuses is named as asked (before: "got png" for frames).
        let frames = answer("/blurup/photo.png?format=frames")
        #expect(frames.status == 400 && String(decoding: frames.body, as: UTF8.self).contains("got frames"))
    }

    @Test func theSceneReaderTakesItAsABackdrop() throws {
        let json = """
            {"width": 20, "height": 20, "background": "white",
             "layers": [{"frame": [0, 0, 10, 20], "backdrop": {"veil": {"strength": 1, "veilColor": "#FF0000"}}}]}
            """
        let file = try SceneFile.parse(Array(json.utf8), operations: BlurOperation.effects + [Self.toy])
        let frame = try file.scene.render(at: 0, scale: 1)
        #expect(frame[5, 10] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(frame[15, 10] == RGBA8(r: 255, g: 255, b: 255, a: 255))
        // Its keys are checked as its parameters say.
        let bad = json.replacingOccurrences(of: "\"strength\": 1", with: "\"strength\": 4")
        #expect(throws: SceneFileError.self) { _ = try SceneFile.parse(Array(bad.utf8), operations: BlurOperation.effects + [Self.toy]) }
        // Its number and colour keys animate, as the layer's own properties do.
        let animated = """
            {"width": 20, "height": 20, "background": "white",
             "layers": [{"name": "veil", "frame": [0, 0, 10, 20], "backdrop": {"veil": {"strength": 0, "veilColor": "#FF0000"}}}],
             "animations": [{"at": 0, "duration": 1, "curve": "linear", "layer": "veil", "set": {"strength": 1, "veilColor": "#0000FF"}}]}
            """
        let moving = try SceneFile.parse(Array(animated.utf8), operations: BlurOperation.effects + [Self.toy])
        #expect(try moving.scene.render(at: 0, scale: 1)[5, 10] == RGBA8(r: 255, g: 255, b: 255, a: 255))
        let middle = try moving.scene.render(at: 0.5, scale: 1)[5, 10]
        #expect((100...160).contains(Int(middle.g)) && middle.r > middle.g && middle.b > middle.g, "\(middle)")
        #expect(try moving.scene.render(at: 1, scale: 1)[5, 10] == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // Without it in the list, the key is unknown.
        #expect(throws: SceneFileError.self) { _ = try SceneFile.parse(Array(json.utf8)) }
    }

    @Test func theTypeScriptDeclarationsTypeIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-toy-ts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let description =
            "["
            + (BlurOperation.effects + [Self.toy]).map { Describe.operation($0, in: .javascript, spelling: .key) }
            .joined(separator: ",") + "]"
        try Data(description.utf8).write(to: URL(fileURLWithPath: folder + "/describe.json"))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/dts.mjs").path
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", script, "--describe", folder + "/describe.json", folder + "/blurkit.d.ts"]
        try node.run()
        node.waitUntilExit()
        #expect(node.terminationStatus == 0)
        let declarations = try String(contentsOfFile: folder + "/blurkit.d.ts", encoding: .utf8)
        #expect(declarations.contains("export interface VeilOptions"), "\(declarations.suffix(800))")
        #expect(declarations.contains("strength?: number;") && declarations.contains("veilColor?: "))
        #expect(declarations.contains("veil(image: Image, options?: VeilOptions): Result;"))
    }
}
