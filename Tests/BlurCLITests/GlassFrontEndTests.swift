import BlurCommandLine
import BlurKit
import BlurServe
import Foundation
import Testing

/// Liquid Glass and the scroll-edge effect through every native front end: the command line, the
/// service and the library give the same bytes (the WebAssembly module is held to the command line
/// by Tests/Web/test_wasm.mjs).
@Suite struct GlassFrontEndTests {
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-glass-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Workspace.fixture, toPath: folder + "/photo.png")
        return folder
    }

    static func answer(_ service: BlurService, _ target: String) -> HTTPResponse {
        switch service.handle(HTTPRequest(method: "GET", rawTarget: target)) {
        case let .now(response): return response
        case let .later(work): return work()
        }
    }

    @Test(arguments: [
        ["--variant", "regular", "--region", "40,40,200,64"],
        ["--variant", "clear", "--shape", "rect", "--corner-radius", "20", "--region", "20,30,180,120", "--appearance", "dark"],
        ["--variant", "regular", "--tint", "#0A84FF40", "--reduce-transparency", "--region", "10,10,120,44", "--scale", "2"],
    ])
    func theCommandLineTheServiceAndTheLibraryAgree(options: [String]) throws {
        let folder = try Self.folder()
        let r = try CLI.run(["glass", folder + "/photo.png", folder + "/cli.png"] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let cli = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/cli.png")))
        // The library: the effect the options describe, drawn by GlassEffect itself.
        var pairs: [(name: String, value: String)] = []
        var rest = options[...]
        while let flag = rest.popFirst() {
            let name = String(flag.dropFirst(2))
            let takesValue = !["reduce-transparency", "increase-contrast"].contains(name)
            pairs.append((name, takesValue ? rest.popFirst()! : "1"))
        }
        let operation = BlurOperation(GlassOperation.self)
        let arguments = try operation.read(pairs, as: .query, in: .http)
        let prepared = try GlassOperation.effect(arguments)
        var glass = prepared.glass
        glass.appearance = arguments[GlassOperation.appearance]
        let scale = arguments[BlurOperation.scale]
        let photo = try ImageFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: Workspace.fixture))))
        let drawn = glass.render(over: photo, frame: arguments.given(GlassOperation.region)!, scale: scale)
        #expect(try ImageFile.decode(cli) == drawn, "the command line's glass is not GlassEffect's")
        // The service: the same bytes.
        let service = BlurService(.init(root: try ServeRoot(folder)))
        let query = pairs.map { "\($0.name)=\($0.value.replacingOccurrences(of: "#", with: "%23"))" }.joined(separator: "&")
        let response = Self.answer(service, "/glass/photo.png?\(query)&format=png")
        #expect(response.status == 200 && response.body == cli, "\(response.status)")
    }

    /// Values that differ past the sixth decimal are different results: their ETags differ (they
    /// were keyed by the rounded text, so the cache answered one with the other's image).
    @Test func valuesThatDifferHaveDifferentETags() throws {
        let folder = try Self.folder()
        let service = BlurService(.init(root: try ServeRoot(folder)))
        for (a, b) in [
            ("/glass/photo.png?region=0,0,100,100", "/glass/photo.png?region=0,0,100,100.0000001"),
            ("/scroll-edge/photo.png?height=50", "/scroll-edge/photo.png?height=50.0000001"),
        ] {
            let first = Self.answer(service, a + "&format=png"), second = Self.answer(service, b + "&format=png")
            #expect(first.status == 200 && second.status == 200)
            #expect(first.headers["ETag"] != nil && first.headers["ETag"] != second.headers["ETag"], "\(a) and \(b) share an ETag")
        }
        // The same values spelled otherwise are the same result.
        let plain = Self.answer(service, "/glass/photo.png?region=0,0,100,100&format=png")
        let spelled = Self.answer(service, "/glass/photo.png?region=0.0,0,1e2,100.000&format=png")
        #expect(plain.headers["ETag"] == spelled.headers["ETag"])
    }

    @Test func theScrollEdgeCountsWhatItsBlurHolds() throws {
        // Its whole-image estimate (32 bytes a pixel, 4.3 MB here) let a blur of σ 16,000 px hold
        // over 100 MB under a 64-MB budget; its stages' held bytes are counted now, under its command's name.
        let folder = try Self.folder()
        let wide = ["--scale", "16", "--max-radius", "1000", "--height", "10000", "--memory-budget", "64"]
        for style in ["soft", "hard"] {
            let r = try CLI.run(["scroll-edge", folder + "/photo.png", folder + "/o.png", "--style", style] + wide)
            if style == "soft" {
                #expect(r.status == 1 && r.stderr.contains("scroll-edge needs about") && r.stderr.contains("memory budget of 64 MB"), "\(r.stderr)")
            } else {
                // The hard band's blur is a Gaussian, whose memory does not grow with σ.
                #expect(r.status == 0, "\(r.stderr)")
            }
        }
        let r = try CLI.run(["scroll-edge", folder + "/photo.png", folder + "/ok.png", "--memory-budget", "64"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func theScrollEdgeAgreesToo() throws {
        let folder = try Self.folder()
        let options = ["--style", "hard", "--edge", "bottom", "--height", "50", "--appearance", "dark"]
        let r = try CLI.run(["scroll-edge", folder + "/photo.png", folder + "/cli.png"] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let cli = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/cli.png")))
        var effect = ScrollEdgeEffect()
        effect.style = .hard
        effect.edge = .bottom
        effect.height = 50
        let photo = try ImageFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: Workspace.fixture))))
        let whole = Rect(x: 0, y: 0, width: Double(photo.width), height: Double(photo.height))
        #expect(try ImageFile.decode(cli) == effect.render(over: photo, frame: whole, appearance: .dark))
        let service = BlurService(.init(root: try ServeRoot(folder)))
        let response = Self.answer(service, "/scroll-edge/photo.png?style=hard&edge=bottom&height=50&appearance=dark&format=png")
        #expect(response.status == 200 && response.body == cli, "\(response.status)")
    }
}
