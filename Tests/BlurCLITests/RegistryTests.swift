import BlurCommandLine
import BlurKit
import BlurServe
import Foundation
import Testing

/// One table per parameter, for real: every operation and parameter of the registry, walked, must
/// read the same in each front end that takes it — the command line's `--help`, `/openapi.json`,
/// the scene reader and its documentation (blurkit.d.ts and the WebAssembly module are walked by
/// Tests/Web/test_wasm.mjs) — and each must refuse the nearest values outside a number's range
/// with a message naming the parameter as that front end spells it.
@Suite struct RegistryTests {
    /// The nearest values outside a number parameter's range.
    static func outside(_ spec: ParameterSpec) -> [Double] {
        spec.isInteger
            ? [spec.range.lowerBound - 1, spec.range.upperBound + 1]
            : [spec.range.lowerBound - max(1e-9, abs(spec.range.lowerBound) * 1e-12), spec.range.upperBound * (1 + 1e-12) + 1e-9]
    }

    static func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }

    /// The operands a command takes, none of which exists: a value must be refused before them.
    static func operands(_ operation: String) -> [String] {
        operation == "placeholder" ? ["/nonexistent/in.png", "--out", "/nonexistent/out"] : ["/nonexistent/in.png", "/nonexistent/o.png"]
    }

    @Test func theCommandLineHelpIsTheRegistry() throws {
        for operation in BlurOperation.all {
            let help = String(decoding: try CLI.run([operation.flag, "--help"]).stdout, as: UTF8.self)
            for p in operation.parameters(in: .commandLine) {
                let line = help.split(separator: "\n").first { $0.hasPrefix("  --\(p.flag) ") || $0 == "  --\(p.flag)" }
                #expect(line?.hasSuffix(p.help) == true, "\(operation.name) --\(p.flag): \(line ?? "no line")")
                // No help line lists a choice's words twice ("clamp or transparent: clamp or transparent").
                // Each word with its aliases after it ("capsule or roundedRectangle (or roundedRect, rect)").
                if case let .choice(entries) = p.kind, let line, p.words.count > 1 {
                    let shown = entries.map { $0.count > 1 ? "\($0[0]) (or \($0.dropFirst().joined(separator: ", ")))" : $0[0] }
                    let listing = shown.dropLast().joined(separator: ", ") + " or " + shown.last!
                    #expect(line.components(separatedBy: listing).count - 1 == 1, "\(line)")
                    // The words come from the table: a summary that lists them too says them twice.
                    #expect(!p.summary.contains(" or \(p.words.last!)"), "\(operation.name) --\(p.flag): \(p.summary)")
                }
            }
        }
    }

    @Test func theCommandLineRefusesWhatIsOutsideEachRange() throws {
        for operation in BlurOperation.all {
            for p in operation.parameters(in: .commandLine) {
                guard case let .number(spec) = p.kind else { continue }
                for value in Self.outside(spec) {
                    let r = try CLI.run([operation.flag] + Self.operands(operation.name) + ["--\(p.flag)", Self.text(value)])
                    #expect(r.status == 2 && r.stderr.hasPrefix("blurkit: --\(p.flag) "), "\(operation.name) --\(p.flag) \(value): \(r.stderr)")
                }
            }
        }
    }

    /// The service, in process: `/openapi.json` and the answers to out-of-range queries.
    static func service() throws -> BlurService {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-registry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Workspace.fixture, toPath: folder + "/photo.png")
        try Data("{\"width\": 10, \"height\": 10}".utf8).write(to: URL(fileURLWithPath: folder + "/scene.json"))
        return BlurService(.init(root: try ServeRoot(folder)))
    }

    static func answer(_ service: BlurService, _ target: String) -> HTTPResponse {
        switch service.handle(HTTPRequest(method: "GET", rawTarget: target)) {
        case let .now(response): return response
        case let .later(work): return work()
        }
    }

    @Test func theOpenAPIDocumentIsTheRegistry() throws {
        let service = try Self.service()
        let document = try JSONSerialization.jsonObject(with: Data(Self.answer(service, "/openapi.json").body)) as! [String: Any]
        let paths = document["paths"] as! [String: Any]
        for operation in BlurOperation.all {
            let get = (paths["/\(operation.flag)/{path}"] as? [String: Any])?["get"] as? [String: Any]
            let documented = (get?["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "query" }
            #expect(documented.map { $0["name"] as? String } == operation.parameters(in: .http).map(\.flag), "\(operation.name)")
            for p in operation.parameters(in: .http) {
                guard let schema = documented.first(where: { $0["name"] as? String == p.flag })?["schema"] as? [String: Any] else { continue }
                #expect(schema["x-blurkit-key"] as? String == p.name)
                #expect(schema["x-blurkit-default-text"] as? String == p.defaultText, "\(operation.name) \(p.flag)")
                switch p.kind {
                case let .number(spec):
                    #expect(schema["minimum"] as? Double == spec.range.lowerBound && schema["maximum"] as? Double == spec.range.upperBound)
                    if case let .value(.number(d)) = p.defaultValue { #expect(schema["default"] as? Double == d, "\(p.flag)") }
                case .choice where p.flag == "format":
                    // The words of the formats the route answers in: the registry's, less those it refuses.
                    let listed = schema["enum"] as? [String] ?? []
                    #expect(!listed.isEmpty && Set(listed).isSubset(of: p.allWords), "\(operation.name): \(listed)")
                    if operation.name == "blurup" { #expect(!listed.contains("png") && !listed.contains("frames")) }
                case .choice:
                    #expect(schema["enum"] as? [String] == p.allWords, "\(operation.name) \(p.flag): aliases")
                    if case let .value(.word(w)) = p.defaultValue { #expect(schema["default"] as? String == w) }
                default:
                    break
                }
            }
        }
    }

    @Test func queriesRefuseWhatIsOutsideEachRangeNamingTheParameter() throws {
        let service = try Self.service()
        for operation in BlurOperation.all {
            let path = operation.name == "render" ? "scene.json" : "photo.png"
            for p in operation.parameters(in: .http) {
                guard case let .number(spec) = p.kind else { continue }
                for value in Self.outside(spec) {
                    let response = Self.answer(service, "/\(operation.flag)/\(path)?\(p.flag)=\(Self.text(value))")
                    let body = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: String]
                    #expect(
                        response.status == 400 && body?["parameter"] == p.flag && body?["error"]?.hasPrefix(p.flag + " ") == true,
                        "\(operation.name) \(p.flag)=\(value): \(response.status) \(body ?? [:])")
                }
            }
            // A parameter given twice is refused, not last-wins.
            if let first = operation.parameters(in: .http).first(where: { if case .number = $0.kind { true } else { false } }),
                case let .number(spec) = first.kind
            {
                let v = Self.text(spec.range.lowerBound)
                let response = Self.answer(service, "/\(operation.flag)/\(path)?\(first.flag)=\(v)&\(first.flag)=\(v)")
                #expect(response.status == 400, "\(operation.name) \(first.flag) twice: \(response.status)")
            }
        }
    }

    /// A scene with one backdrop of the effect `kind` in its generic form, whose object has `members`.
    /// A scene whose one layer's backdrop is the effect `kind` with `members`, and with each required
    /// key it lacks (one with no default) at its suggested value.
    static func scene(_ kind: String, _ members: String) -> [UInt8] {
        var all = [members]
        for p in BlurOperation.effects.first(where: { $0.name == kind })?.parameters(in: .scene) ?? [] {
            guard case .absent(nil) = p.defaultValue, let suggested = p.suggested, !members.contains("\"\(p.name)\"") else { continue }
            all.append("\"\(p.name)\": \"\(suggested.text)\"")
        }
        let backdrop = "{\"\(kind)\": {\(all.joined(separator: ", "))}}"
        return Array("{\"width\": 20, \"height\": 20, \"layers\": [{\"frame\": [0, 0, 20, 20], \"backdrop\": \(backdrop)}]}".utf8)
    }

    @Test func theSceneReaderTakesTheRegistrysKeys() throws {
        for operation in BlurOperation.effects where !operation.parameters(in: .scene).isEmpty {
            for p in operation.parameters(in: .scene) {
                switch p.kind {
                case let .number(spec):
                    for value in [spec.range.lowerBound, spec.range.upperBound] {
                        #expect(throws: Never.self, "\(p.name) \(value)") {
                            _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": \(value)"))
                        }
                    }
                    for value in Self.outside(spec) {
                        do {
                            _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": \(value)"))
                            Issue.record("\(operation.name) \(p.name) \(value) was taken")
                        } catch {
                            #expect("\(error)".contains(p.name), "\(p.name) \(value): \(error)")
                        }
                    }
                case .choice:
                    for word in p.allWords {
                        #expect(throws: Never.self, "\(p.name) \(word)") {
                            _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": \"\(word.uppercased())\""))
                        }
                    }
                case .areas:
                    let text = try #require(p.suggested).text
                    #expect(throws: Never.self, "\(p.name)") { _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": \"\(text)\"")) }
                    #expect(throws: Never.self, "\(p.name)") {
                        _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": [\"\(text)\", \"1,2,3,4:5\"]"))
                    }
                default:
                    #expect(throws: Never.self, "\(p.name)") { _ = try SceneFile.parse(Self.scene(operation.name, "\"\(p.name)\": null")) }
                }
            }
            // A key the registry does not have is refused.
            #expect(throws: SceneFileError.self) { _ = try SceneFile.parse(Self.scene(operation.name, "\"maximumRadius\": 3")) }
        }
    }

    /// docs/scene-format.md retypes no effect's parameters: each scene effect's keys are on its
    /// generated reference page, which the document links to, and no table row of the document
    /// starts with one of them.
    @Test func theSceneFormatDocumentLinksTheReference() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs")
        let whole = try String(contentsOf: docs.appendingPathComponent("scene-format.md"), encoding: .utf8)
        // The backdrops' section (the animatable layer properties further on share two names).
        let text = whole.components(separatedBy: "### Backdrops").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        #expect(!text.isEmpty, "scene-format.md has no Backdrops section")
        for operation in BlurOperation.effects where !operation.parameters(in: .scene).isEmpty {
            #expect(text.contains("(reference/\(operation.name).md)"), "scene-format.md does not link reference/\(operation.name).md")
            let page = try String(contentsOf: docs.appendingPathComponent("reference/\(operation.name).md"), encoding: .utf8)
            for p in operation.parameters(in: .scene) {
                #expect(!text.contains("\n| `\(p.name)` |"), "scene-format.md retypes \(operation.name)'s \(p.name)")
                #expect(page.contains("`\(p.name)`"), "reference/\(operation.name).md lacks \(p.name)")
            }
        }
    }

    /// The command line refuses an option given twice, as queries and scene files do.
    @Test func anOptionGivenTwiceIsRefused() throws {
        let r = try CLI.run(["blur", "/nonexistent/in.png", "/nonexistent/o.png", "--sigma", "2", "--sigma=3"])
        #expect(r.status == 2 && r.stderr.contains("--sigma is given twice"), "\(r.stderr)")
        let q = try CLI.run(["progressive", "/nonexistent/in.png", "/nonexistent/o.png", "--tint", "white", "--tint", "black"])
        #expect(q.status == 2 && q.stderr.contains("--tint is given twice"), "\(q.stderr)")
        // And the registry's reader itself, as a library caller meets it.
        #expect(throws: ParameterError.repeated(name: "sigma")) {
            _ = try BlurOperation(GaussianBlurOperation.self).read([("sigma", "1"), ("sigma", "2")], as: .key, in: .javascript)
        }
    }
}

/// The service as a library, in process: no temporary file or internal path in what a client sees.
@Suite struct ServiceLibraryTests {
    @Test func aBrokenBodyIsNamedAsTheBodyAndNothingElse() throws {
        let service = try RegistryTests.service()
        let photo = try Data(contentsOf: URL(fileURLWithPath: Workspace.fixture))
        let jpeg = try ImageFile.encode(try ImageFile.decode(Array(photo)), as: .jpeg)
        for (body, route) in [(Array(jpeg.prefix(jpeg.count / 2)), "/blur?sigma=2"), (Array(photo.prefix(400)), "/placeholder")] {
            let request = HTTPRequest(method: "POST", rawTarget: route, headers: ["Content-Length": String(body.count)], body: body)
            let response: HTTPResponse
            switch service.handle(request) {
            case let .now(r): response = r
            case let .later(work): response = work()
            }
            let message = ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: String])?["error"] ?? ""
            #expect([415, 422].contains(response.status) && message.hasPrefix("the body"), "\(route): \(response.status) \(message)")
            #expect(!message.contains("/") && message.range(of: "[0-9A-F]{8}-[0-9A-F]{4}", options: .regularExpression) == nil, "\(message)")
        }
        // And a render in memory is the command line's file, byte for byte.
        let response: HTTPResponse
        switch service.handle(HTTPRequest(method: "GET", rawTarget: "/blur/photo.png?sigma=3&format=png")) {
        case let .now(r): response = r
        case let .later(work): response = work()
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-lib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try CLI.run(["blur", Workspace.fixture, folder + "/o.png", "--sigma", "3"])
        let expected = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/o.png")))
        #expect(response.status == 200 && response.body == expected)
    }
}

/// The public streaming API as the documentation shows it (BlurKit.docc, "The HTTP service").
@Suite struct RendererTests {
    @Test func theDocumentedExampleRunsAndIsTheCommandLinesFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-renderer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let arguments = try BlurOperation.named("progressive")!.read(
            [("maximumBlurRadius", "8"), ("direction", "up")], as: .key, in: .javascript)
        try Renderer.still(arguments, from: .file(Workspace.fixture), to: .file(folder + "/lib.png"), format: .png)
        _ = try CLI.run(["progressive", Workspace.fixture, folder + "/cli.png", "--max-radius", "8", "--direction", "up"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/lib.png")) == Data(contentsOf: URL(fileURLWithPath: folder + "/cli.png")))
        // In memory from bytes, the same again.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Workspace.fixture)))
        let memory = try Renderer.still(arguments, from: .bytes(bytes, name: "the photo"), to: .memory, format: .png)
        #expect(Data(memory) == (try Data(contentsOf: URL(fileURLWithPath: folder + "/cli.png"))))
        // A cancelled render writes nothing.
        #expect(throws: RenderError.self) {
            try Renderer.still(
                arguments, from: .file(Workspace.fixture), to: .file(folder + "/stopped.png"), format: .png,
                options: RenderOptions(cancelled: { true }))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/stopped.png"))
    }
}

/// The framework-neutral entry point's body stream: sized before memory is spent.
@Suite struct BodyStreamTests {
    @Test func aStreamedBodyIsReadUpToItsLimitAndNoFurther() throws {
        var chunks: [[UInt8]] = [[1, 2, 3], [4, 5], [6]]
        let request = try HTTPRequest(method: "POST", rawTarget: "/blur?sigma=1", limit: 6) { chunks.isEmpty ? nil : chunks.removeFirst() }
        #expect(request.body == [1, 2, 3, 4, 5, 6])
        var endless = 0
        #expect(throws: ServeError.self) {
            _ = try HTTPRequest(method: "POST", rawTarget: "/blur", limit: 1000) {
                endless += 1
                return [UInt8](repeating: 0, count: 100)
            }
        }
        #expect(endless == 11, "read \(endless) chunks: it must stop at the first past the limit")
        var asked = false
        #expect(throws: ServeError.self) {
            _ = try HTTPRequest(method: "POST", rawTarget: "/blur", headers: ["Content-Length": "5000"], limit: 1000) {
                asked = true
                return nil
            }
        }
        #expect(!asked, "a declared length over the limit is refused before any chunk is read")
        let response = HTTPResponse(status: 200, body: Array(0..<10))
        #expect(response.chunks(of: 4).map(Array.init) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
    }
}

/// `Accept` by exact type and q-value, `If-None-Match` compared weakly (RFC 9110).
@Suite struct NegotiationTests {
    static func answer(_ service: BlurService, _ target: String, _ headers: [String: String]) -> HTTPResponse {
        switch service.handle(HTTPRequest(method: "GET", rawTarget: target, headers: headers)) {
        case let .now(response): return response
        case let .later(work): return work()
        }
    }

    @Test func acceptHonoursQValuesAndExactTypes() throws {
        let service = try RegistryTests.service()
        let type = { (accept: String) in Self.answer(service, "/blur/photo.png?sigma=1", ["Accept": accept]).headers["Content-Type"] }
        #expect(type("image/png;q=0, image/jpeg") == "image/jpeg")
        #expect(type("image/webpx, */*;q=0.1") == "image/png", "not WebP: the photo's own format")
        #expect(Self.answer(service, "/blur/photo.png?sigma=1", ["Accept": "image/webpx"]).status == 406, "nothing it writes")
        #expect(type("image/jpeg;q=0.5, image/webp;q=0.9") == "image/webp")
        #expect(type("image/avif,image/webp,image/apng,image/*,*/*;q=0.8") == "image/webp")
    }

    @Test func aWeakValidatorMatchesForNotModified() throws {
        let service = try RegistryTests.service()
        let first = Self.answer(service, "/blur/photo.png?sigma=1", [:])
        let etag = try #require(first.headers["ETag"])
        #expect(Self.answer(service, "/blur/photo.png?sigma=1", ["If-None-Match": "W/" + etag]).status == 304)
        #expect(Self.answer(service, "/blur/photo.png?sigma=1", ["If-None-Match": "\"other\", W/" + etag]).status == 304)
        #expect(Self.answer(service, "/blur/photo.png?sigma=1", ["If-None-Match": "W/\"other\""]).status == 200)
        // Spellings of one value share the ETag (no free cache-busting).
        for spelling in ["1.0", "01", "1e0", "0001.000"] {
            #expect(Self.answer(service, "/blur/photo.png?sigma=\(spelling)", [:]).headers["ETag"] == etag, "sigma=\(spelling)")
        }
    }
}
