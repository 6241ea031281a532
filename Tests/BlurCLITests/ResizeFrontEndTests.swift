import BlurKit
import BlurServe
import Foundation
import Testing

/// Issue 53: `resize` on every front end the registry reaches, with the same bytes — the command
/// line, GET and POST, the library — and a JPEG shrunk while it is decoded, turned by its EXIF
/// orientation; an output no image may be is refused, not allocated.
@Suite struct ResizeFrontEndTests {
    static func arguments(_ pairs: [(String, String)]) throws -> OperationArguments {
        try BlurOperation.named("resize")!.read(pairs.map { (name: $0.0, value: $0.1) }, as: .query, in: .http)
    }

    @Test func theCommandLineTheServiceAndTheLibraryGiveTheSameBytes() throws {
        let workspace = try Workspace(crop: PixelRect(x: 40, y: 30, width: 300, height: 200))
        let out = workspace.folder + "/out.png"
        let run = try CLI.run(["resize", workspace.input, out, "--width", "97", "--height", "61", "--fit", "cover", "--gravity", "east"])
        #expect(run.status == 0, "\(run.stderr)")
        let cli = try AtomicFile.read(out)
        let library = try Renderer.still(
            try Self.arguments([("width", "97"), ("height", "61"), ("fit", "cover"), ("gravity", "east")]), from: .file(workspace.input),
            to: .memory, format: .png)
        #expect(library == cli)
        try FileManager.default.createDirectory(atPath: workspace.folder + "/root", withIntermediateDirectories: true)
        try AtomicFile.write(try AtomicFile.read(workspace.input), to: workspace.folder + "/root/in.png")
        let service = BlurService(.init(root: try ServeRoot(workspace.folder + "/root")))
        let get = ServiceInProcessTests.get(service, "/resize/in.png?width=97&height=61&fit=cover&gravity=east")
        #expect(get.status == 200 && get.body == cli, "\(get.status)")
        let post = ServiceInProcessTests.answer(
            service,
            HTTPRequest(method: "POST", rawTarget: "/resize?width=97&height=61&fit=cover&gravity=east", body: try AtomicFile.read(workspace.input)))
        #expect(post.status == 200 && post.body == cli, "\(post.status)")
        let image = try ImageFile.decode(cli)
        #expect((image.width, image.height) == (97, 61))
        // Neither width nor height: 400 naming width; an output larger than any image: 413, not a crash.
        let missing = ServiceInProcessTests.get(service, "/resize/in.png")
        #expect(missing.status == 400 && String(decoding: missing.body, as: UTF8.self).contains("width"))
        let huge = ServiceInProcessTests.get(service, "/resize/in.png?width=16384&height=16384&dpr=4&enlarge=true&format=png")
        #expect(huge.status == 413, "\(huge.status) \(String(decoding: huge.body, as: UTF8.self))")
        let cliHuge = try CLI.run([
            "resize", workspace.input, workspace.folder + "/huge.png", "--width", "16384", "--height", "16384", "--dpr", "4", "--enlarge",
        ])
        #expect(cliHuge.status == 1 && !FileManager.default.fileExists(atPath: workspace.folder + "/huge.png"), "\(cliHuge.status) \(cliHuge.stderr)")
    }

    /// Every effect takes the resize's parameters: one command, request or call resizes first and
    /// draws the effect over the result — the bytes of the two commands run one after the other,
    /// the effect's region in the resized image's points, a dpr its scale, and the effect alone
    /// unchanged when no resize parameter is given.
    @Test func everyEffectResizesFirstWithTheSameBytesAsTwoSteps() throws {
        let workspace = try Workspace(crop: PixelRect(x: 40, y: 30, width: 300, height: 200))
        let folder = workspace.folder
        func run(_ arguments: [String]) throws -> [UInt8] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments) \(result.stderr)")
            return try AtomicFile.read(arguments[2])
        }
        let resized = try run(["resize", workspace.input, folder + "/r.png", "--width", "120", "--height", "90", "--dpr", "2"])
        let cases: [(effect: [String], resize: [String], after: [String])] = [
            (["blur", "--radius", "3"], ["--width", "120", "--height", "90", "--dpr", "2"], ["--radius", "3", "--scale", "2"]),
            (["blur", "--sigma", "3"], ["--width", "120", "--height", "90", "--dpr", "2"], ["--sigma", "3"]),
            (["progressive", "--direction", "up"], ["--width", "120", "--height", "90", "--dpr", "2"], ["--direction", "up", "--scale", "2"]),
            (
                ["material", "--region", "10,10,60,40"], ["--width", "120", "--height", "90", "--dpr", "2"],
                ["--region", "10,10,60,40", "--scale", "2"]
            ),
            (["scroll-edge", "--height", "30"], ["--width", "120", "--resize-height", "90", "--dpr", "2"], ["--height", "30", "--scale", "2"]),
        ]
        for (index, c) in cases.enumerated() {
            let name = c.effect[0]
            let once = try run([name, workspace.input, folder + "/once\(index).png"] + c.effect.dropFirst() + c.resize)
            let twice = try run([name, folder + "/r.png", folder + "/twice\(index).png"] + c.after)
            #expect(once == twice, "\(name): resize first differs from resize, then \(name)")
            #expect(once != resized, "\(name) drew nothing")
            let image = try ImageFile.decode(once)
            #expect((image.width, image.height) == (240, 180), "\(name)")
        }
        // Over HTTP and through the library: the command line's bytes.
        let once = try AtomicFile.read(folder + "/once2.png")
        try FileManager.default.createDirectory(atPath: folder + "/root", withIntermediateDirectories: true)
        try AtomicFile.write(try AtomicFile.read(workspace.input), to: folder + "/root/in.png")
        let service = BlurService(.init(root: try ServeRoot(folder + "/root")))
        let get = ServiceInProcessTests.get(service, "/progressive/in.png?direction=up&width=120&height=90&dpr=2")
        #expect(get.status == 200 && get.body == once, "\(get.status) \(String(decoding: get.body.prefix(200), as: UTF8.self))")
        let library = try Renderer.still(
            try BlurOperation.named("progressive")!.read(
                [("direction", "up"), ("width", "120"), ("height", "90"), ("dpr", "2")].map { (name: $0.0, value: $0.1) }, as: .query, in: .http),
            from: .file(workspace.input), to: .memory, format: .png)
        #expect(library == once)
        // No resize parameter: the effect alone, at the input's size.
        let alone = try ImageFile.decode(try run(["blur", workspace.input, folder + "/alone.png", "--sigma", "2"]))
        #expect((alone.width, alone.height) == (300, 200))
        // A region inside the input but outside the resized image is refused, naming it.
        let outside = try CLI.run(["material", workspace.input, folder + "/x.png", "--width", "50", "--region", "100,10,20,20"])
        #expect(outside.status != 0 && outside.stderr.contains("--region") && !FileManager.default.fileExists(atPath: folder + "/x.png"))
        // scroll-edge's own height is the band's; the resize's is resize-height, over HTTP too.
        let band = ServiceInProcessTests.get(service, "/scroll-edge/in.png?height=30&resize-height=45&width=60")
        #expect(try band.status == 200 && ImageFile.decode(band.body).height == 45, "\(band.status)")
        // A fit without a size: the resize's own message.
        let fitAlone = try CLI.run(["blur", workspace.input, folder + "/y.png", "--sigma", "2", "--fit", "fill"])
        #expect(fitAlone.status != 0 && fitAlone.stderr.contains("--width"))
    }

    /// A scene's image reduced into its frame is the resize's (Lanczos-3, `fill` as `cover`, `fit`
    /// as `contain`), its `gravity` the resize's words, `attention` included; enlarged, it is placed
    /// bilinearly as before; `gravity` beside another kind of content is refused.
    @Test func aSceneImageIsResizedAsTheResizeOperationDoes() throws {
        let workspace = try Workspace(crop: PixelRect(x: 40, y: 30, width: 300, height: 200))
        let folder = workspace.folder
        func scene(_ content: String, width: Int = 90, height: Int = 70) throws -> String {
            let path = folder + "/scene\(content.hashValue & 0xffff).json"
            let json = """
                {"width": \(width), "height": \(height), "background": "none",
                 "layers": [{"frame": [0, 0, \(width), \(height)], "content": \(content)}]}
                """
            try AtomicFile.write(Array(json.utf8), to: path)
            return path
        }
        let image = "\"" + workspace.input + "\""
        for (mode, gravity, fit) in [
            ("fill", "attention", "cover"), ("fill", "southeast", "cover"), ("fit", "centre", "contain"), ("stretch", "centre", "fill"),
        ] {
            let rendered = try CLI.run([
                "render", try scene("{\"image\": \(image), \"mode\": \"\(mode)\", \"gravity\": \"\(gravity)\"}"), folder + "/s.png", "--time", "0",
            ])
            #expect(rendered.status == 0, "\(rendered.stderr)")
            let resized = try CLI.run([
                "resize", workspace.input, folder + "/r.png", "--width", "90", "--height", "70", "--fit", fit, "--gravity", gravity,
            ])
            #expect(resized.status == 0, "\(resized.stderr)")
            let a = try ImageFile.read(folder + "/s.png"), b = try ImageFile.read(folder + "/r.png")
            #expect(a.premultipliedRGBA == b.premultipliedRGBA, "\(mode) \(gravity): \(ImageDifference(a, b))")
            try FileManager.default.removeItem(atPath: folder + "/s.png")
            try FileManager.default.removeItem(atPath: folder + "/r.png")
        }
        let wrong = try CLI.run(["render", try scene("{\"color\": \"red\", \"gravity\": \"north\"}"), folder + "/w.png", "--time", "0"])
        #expect(wrong.status != 0 && wrong.stderr.contains("gravity"), "\(wrong.stderr)")
        let badWord = try CLI.run(["render", try scene("{\"image\": \(image), \"gravity\": \"up\"}"), folder + "/w.png", "--time", "0"])
        #expect(badWord.status != 0 && badWord.stderr.contains("attention"), "\(badWord.stderr)")
    }

    @Test func aJPEGIsShrunkWhileItIsDecodedAndTurnedByItsOrientation() throws {
        // The photo (451 × 300) as a JPEG: to 50 wide the decoder reduces by 4 (a factor of 9
        // leaves the reduce 2.25), close to the full decode's result but not the same bytes.
        let photo = try ImageFile.read(Workspace.fixture)
        let jpeg = try JPEGCodec.encode(photo, quality: 95)
        let asked = try Self.arguments([("width", "50"), ("format", "png")])
        let reduced = try ImageFile.decode(try Renderer.still(asked, from: .bytes(jpeg, name: "in.jpg"), to: .memory, format: .png))
        let whole = try ImageFile.decode(
            try Renderer.still(
                asked, from: .bytes(try ImageFile.encode(try ImageFile.decode(jpeg), as: .png), name: "in.png"), to: .memory, format: .png))
        #expect((reduced.width, reduced.height) == (50, 33) && (whole.width, whole.height) == (50, 33))
        let d = ImageDifference(reduced, whole)
        #expect(d.maximum > 0 && d.psnr >= 30, "\(d)")
        // Orientation 6 (turned a quarter): 32 × 16 stored, 16 × 32 shown; asked 8 wide, 8 × 16.
        let turned = try Self.turnedJPEG()
        let small = try ImageFile.decode(
            try Renderer.still(try Self.arguments([("width", "8")]), from: .bytes(turned, name: "t.jpg"), to: .memory, format: .png))
        #expect((small.width, small.height) == (8, 16))
    }

    // A 1 × 10000 image asked 16384 wide with enlarge: a scaled image of 163,840,000 rows. Its taps
    // were made before the output was checked (gigabytes for the weights); now the plan is refused
    // (413, exit 1) before anything is allocated — and with attention, the crop's whole scaled image
    // is refused by the budget before its taps are made.
    @Test func anExtremeAspectIsRefusedBeforeAnythingIsAllocated() throws {
        let workspace = try Workspace(crop: PixelRect(x: 0, y: 0, width: 1, height: 300))
        var column = [UInt8]()
        for y in 0..<10000 { column += [UInt8(y % 256), 128, 64, 255] }
        try ImageFile.write(try Bitmap(width: 1, height: 10000, premultipliedRGBA: column), to: workspace.folder + "/tall.png")
        for extra in [[], ["--height", "100", "--gravity", "attention"]] {
            let out = workspace.folder + "/o.png"
            let run = try CLI.run(["resize", workspace.folder + "/tall.png", out, "--width", "16384", "--enlarge", "--memory-budget", "512"] + extra)
            #expect(run.status == 1 && !FileManager.default.fileExists(atPath: out), "\(extra): exit \(run.status): \(run.stderr)")
        }
    }

    /// The third outside round of issue 53: an output no encoder of the format could write
    /// (100000×10 as WebP) was found out after the whole render; now it is refused before any row
    /// is decoded, naming the format's limit, and nothing is written.
    @Test func anOutputTheFormatCannotHoldIsRefusedBeforeTheRender() throws {
        let workspace = try Workspace(crop: PixelRect(x: 0, y: 0, width: 300, height: 30))
        for suffix in ["webp"] {
            let out = workspace.folder + "/wide." + suffix
            let run = try CLI.run(["resize", workspace.input, out, "--width", "16384", "--height", "2", "--fit", "fill", "--enlarge"])
            #expect(
                run.status != 0 && run.stderr.contains("cannot hold") && run.stderr.contains("pixels a side")
                    && !FileManager.default.fileExists(atPath: out), "\(suffix): exit \(run.status): \(run.stderr)")
        }
        let png = workspace.folder + "/wide.png"
        let fits = try CLI.run(["resize", workspace.input, png, "--width", "16384", "--height", "2", "--fit", "fill", "--enlarge"])
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    // The second outside round of issue 53: a tall screenshot asked through a browser's Accept was
    // negotiated to WebP, which holds at most 16383 px a side: 422 in every browser. A negotiated
    // format that cannot hold the output gives way to PNG or JPEG when Accept takes them; a format
    // asked for is kept (and refused).
    @Test func aNegotiatedFormatThatCannotHoldTheOutputGivesWay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-tall-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ImageFile.write(try Bitmap(width: 200, height: 17000, filledWith: Color(red: 0.2, green: 0.4, blue: 0.6)), to: folder + "/tall.png")
        let service = BlurService(.init(root: try ServeRoot(folder)))
        let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let tall = ServiceInProcessTests.get(service, "/resize/tall.png?width=200", headers: ["Accept": chrome])
        #expect(tall.status == 200 && tall.headers["Content-Type"] == "image/png", "\(tall.status) \(tall.headers)")
        #expect(ImageFormat(sniffing: Array(tall.body.prefix(64))) == .png)
        let small = ServiceInProcessTests.get(service, "/resize/tall.png?width=10", headers: ["Accept": chrome])
        #expect(small.status == 200 && small.headers["Content-Type"] == "image/webp")
        let asked = ServiceInProcessTests.get(service, "/resize/tall.png?width=200&format=webp", headers: ["Accept": chrome])
        #expect(asked.status == 422, "\(asked.status)")
        let webpOnly = ServiceInProcessTests.get(service, "/resize/tall.png?width=200", headers: ["Accept": "image/webp"])
        #expect(webpOnly.status == 422, "\(webpOnly.status)")
    }

    /// A 32 × 16 JPEG (left half black) whose EXIF orientation (6) turns it a quarter.
    static func turnedJPEG() throws -> [UInt8] {
        var straight: [UInt8] = []
        for _ in 0..<16 { for x in 0..<32 { straight += x < 16 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let jpeg = try JPEGCodec.encode(Bitmap(width: 32, height: 16, straightRGBA: straight), quality: 95)
        // Little-endian TIFF: one entry, Orientation (0x0112), SHORT, 6.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }
}
