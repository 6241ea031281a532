import BlurCommandLine
import BlurKit
import BlurServe
import Foundation
import Testing

/// A toy image operation declared in this file alone: a veil of one colour over a region. The
/// tests below find it in every front end that is made from the registry — the command line's
/// `--help` and `--describe`, the service's routes and `/openapi.json`, the scene reader and the
/// TypeScript declarations — with no other file knowing it.
enum VeilOperation: ImageOperation {
    static let name = "veil"
    static let summary = "a veil of one colour over a region"
    static let strength = OperationParameter.number(
        "strength", ParameterSpec(name: "strength", unit: "", range: 0...1, defaultValue: 0.5, summary: "how opaque the veil is"),
        placeholder: "A")
    static let color = OperationParameter.color(
        "veilColor", flag: "color", default: .color(.black), summary: "the veil's colour", placeholder: "COLOR")
    static let region = BlurOperation.region(summary: "the veil's frame")
    static var parameters: [Parameter] { [strength.parameter, color.parameter, region.parameter] }

    static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Color {
        let tint = arguments[color]
        let base = tint.color(for: .light)
        return Color(red: base.red, green: base.green, blue: base.blue, alpha: base.alpha * arguments[strength])
    }

    static func draw(_ effect: Color, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        guard let rect = context.frame.pixelRect(scale: image.scale, clippedTo: image.width, image.height) else { return image }
        let a = effect.alpha
        let pixel = [effect.red * a, effect.green * a, effect.blue * a, a].map { UInt8((min(1, max(0, $0)) * 255).rounded()) }
        let veil = try Bitmap(
            width: rect.width, height: rect.height, premultipliedRGBA: Array([[UInt8]](repeating: pixel, count: rect.width * rect.height).joined()))
        var out = image
        out.composite(veil, at: rect, opacity: 1, mode: .normal)
        return out
    }
}

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
