import BlurCore
import BlurIO
import Foundation
import Testing

/// The defects found by trying the tool as a new user would, each held by a test that failed
/// before its fix: standard streams that fail, mistakes found only after the work, animations and
/// standard output, the demo's photo, messages, and consistency between commands.
@Suite struct NewUserTests {
    let folder: String
    let input: String

    init() throws {
        let workspace = try Workspace(crop: PixelRect(x: 100, y: 50, width: 60, height: 40))
        (folder, input) = (workspace.folder, workspace.input)
    }

    /// `command` through `/bin/sh` in the test's folder (for redirections), with the blurkit
    /// executable as `$B`.
    func shell(_ command: String) throws -> CLI.Result { try CLI.shell(command, in: folder) }

    func expectOneLine(_ r: CLI.Result, status: Int32, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("blurkit: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(r.stderr.contains(word), "\(r.stderr) lacks \(word)", sourceLocation: sourceLocation) }
    }

    // Before: a `try!` crash with a backtrace and exit status 132.
    @Test func failingStandardStreamsAreOneLineAndStatusOne() throws {
        expectOneLine(try shell("$B blur in.png - --format png --sigma 1 > /dev/full"), status: 1, mentioning: ["standard output", "No space left"])
        expectOneLine(try shell("$B blur in.png - --format png --sigma 1 >&-"), status: 1, mentioning: ["standard output"])
        expectOneLine(try shell("$B blur - out.png --sigma 1 <&-"), status: 1, mentioning: ["standard input"])
        expectOneLine(try shell("$B blur - out.png --sigma 1 < /"), status: 1, mentioning: ["standard input", "directory"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    // Before: exit status 0 with the text lost.
    @Test func helpThatCannotBeWrittenIsAFailure() throws {
        expectOneLine(try shell("$B --help > /dev/full"), status: 1, mentioning: ["standard output"])
        expectOneLine(try shell("$B blur --help > /dev/full"), status: 1, mentioning: ["standard output"])
        expectOneLine(try shell("$B help render > /dev/full"), status: 1, mentioning: ["standard output"])
    }

    // Before: `blurkit help blur` printed the top-level help.
    /// `blurkit --version` prints the package's version, as the changelog's newest entry names it.
    @Test func theVersionIsTheChangelogs() throws {
        let result = try CLI.run(["--version"])
        let version = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.status == 0 && version.hasPrefix("blurkit "))
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CHANGELOG.md")
        let released = try String(contentsOf: changelog, encoding: .utf8).components(separatedBy: "\n")
            .first { $0.hasPrefix("## ") && !$0.contains("Unreleased") }
        #expect(released?.hasPrefix("## " + version.dropFirst("blurkit ".count) + " ") == true, "\(version) against \(released ?? "none")")
        #expect(try CLI.run(["--help"]).stdout.count > 0)
    }

    // Before: a newline or an escape sequence in a value came out raw, splitting the error line
    // or reaching the terminal; and the usage line showed progressive's optional pair as required.
    @Test func errorsWriteControlCharactersOut() throws {
        expectOneLine(try CLI.run(["progressive", "in.png", "out.png", "--angle", "1\n2"]), status: 2, mentioning: ["\\u000a"])
        expectOneLine(try CLI.run(["blur-areas", "in.png", "out.png", "--areas", "\u{1B}[2J"]), status: 2, mentioning: ["\\u001b[2J"])
        let progressive = String(decoding: try CLI.run(["progressive", "--help"]).stdout, as: UTF8.self)
        #expect(progressive.hasPrefix("usage: blurkit progressive IN OUT [--direction DIR | --angle DEG] [options]"), "\(progressive.prefix(80))")
        let blur = String(decoding: try CLI.run(["blur", "--help"]).stdout, as: UTF8.self)
        #expect(blur.hasPrefix("usage: blurkit blur IN OUT (--sigma S | --radius R) [options]"), "\(blur.prefix(80))")
    }

    @Test func helpNamesACommand() throws {
        let help = String(decoding: try CLI.run(["help", "blur"]).stdout, as: UTF8.self)
        #expect(help.hasPrefix("usage: blurkit blur IN OUT"))
        #expect(help == String(decoding: try CLI.run(["blur", "--help"]).stdout, as: UTF8.self))
        expectOneLine(try CLI.run(["help", "sharpen"]), status: 2, mentioning: ["unknown command \"sharpen\""])
    }

    // Before: `-` made a folder named `-`; `--format` was ignored for animations.
    @Test func animationsRefuseStandardOutputAndTakeFormat() throws {
        for command in ["blurup in.png -", "render \(RenderCLITests.scenes.appendingPathComponent("view-blur.json").path) -"] {
            expectOneLine(try shell("$B \(command)"), status: 2, mentioning: ["standard output"])
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/-"))
        let r = try shell("$B blurup in.png anim --format gif --fps 4 --wait 0 --hold 0 --quiet")
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try AtomicFile.read(folder + "/anim")
        #expect(bytes.starts(with: Array("GIF89a".utf8)))
    }

    // Before: a longer earlier run's frames stayed beside the new ones.
    @Test func aFrameFolderKeepsOnlyTheNewFrames() throws {
        func frames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").filter { $0.hasPrefix("frame-") }.sorted()
        }
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
        try AtomicFile.write([1, 2, 3], to: folder + "/frames/notes.txt")
        var r = try CLI.run(["blurup", input, folder + "/frames/", "--fps", "10", "--wait", "0.5", "--hold", "0.5", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let long = try frames().count
        r = try CLI.run(["blurup", input, folder + "/frames/", "--fps", "4", "--wait", "0", "--hold", "0", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let short = try frames()
        #expect(long > short.count && short.last == "frame-\(String(format: "%05d", short.count - 1)).png", "\(long) then \(short)")
        #expect(FileManager.default.fileExists(atPath: folder + "/frames/notes.txt"))
    }

    // Before: an unknown --format came after the decode; a missing folder after every frame.
    // Here the input does not even exist: the error must be about the mistake, found first.
    @Test func mistakesAreFoundBeforeAnyWork() throws {
        expectOneLine(
            try CLI.run(["blur", folder + "/missing.png", folder + "/o.png", "--sigma", "2", "--format", "bmp"]), status: 2,
            mentioning: ["--format", "bmp"])
        expectOneLine(
            try CLI.run(["blur", folder + "/missing.png", folder + "/o.bmp", "--sigma", "2"]), status: 2, mentioning: [".pnm", ".webp", ".gif"])
        expectOneLine(
            try CLI.run(["material", folder + "/missing.png", folder + "/nowhere/o.png"]), status: 1,
            mentioning: ["the folder", "nowhere", "does not exist"])
        expectOneLine(
            try CLI.run(["render", folder + "/missing.json", folder + "/nowhere/o.webp"]), status: 1, mentioning: ["nowhere", "does not exist"])
        expectOneLine(try CLI.run(["blurup", folder + "/missing.png", folder + "/o.bmp"]), status: 2, mentioning: [".webp"])
    }

    // Before: a 1×1 photo failed about a font size after 16 files; a missing one after 7.
    @Test func theDemoChecksItsPhotoFirst() throws {
        try AtomicFile.write(NetpbmCodec.encodePPM(try Bitmap(width: 1, height: 1, filledWith: Color(white: 0.5))), to: folder + "/one.ppm")
        expectOneLine(
            try CLI.run(["demo", folder + "/d1", "--photo", folder + "/one.ppm", "--quiet"]), status: 2, mentioning: ["1×1", "at least 64×64"])
        expectOneLine(try CLI.run(["demo", folder + "/d2", "--photo", folder + "/missing.png", "--quiet"]), status: 1, mentioning: ["missing.png"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/d1") && !FileManager.default.fileExists(atPath: folder + "/d2"))
    }

    @Test func messagesSayWhatIsAccepted() throws {
        let out = folder + "/o.png"
        // Every accepted suffix, not four of them.
        let suffix = try CLI.run(["blur", input, folder + "/o.xyz", "--sigma", "1"])
        for s in ImageFormat.suffixes {
            #expect(suffix.stderr.contains("." + s + " ") || suffix.stderr.contains("." + s + ")"), "\(s): \(suffix.stderr)")
        }
        expectOneLine(
            try CLI.run(["progressive", input, out, "--tint", "teal"]), status: 2, mentioning: ["#RRGGBB", "#RRGGBBAA", "none", "background"])
        expectOneLine(try CLI.run(["progressive", input, out, "--dimming-extension", "far"]), status: 2, mentioning: ["points", "%", "none"])
        // Short numbers: 451 px at scale 3 is 150.333333 pt, not 150.33333333333334.
        let outside = try CLI.run(["progressive", input, out, "--scale", "3", "--region", "5000,0,10,10"])
        #expect(outside.stderr.contains("20×13.333333-pt") && !outside.stderr.contains("13.33333333"), "\(outside.stderr)")
        expectOneLine(try CLI.run(["blur", input, out, "--sigma", "1", "--max-pixels", "1"]), status: 1, mentioning: ["limit of 1 pixel"])
        #expect(!(try CLI.run(["blur", input, out, "--sigma", "1", "--max-pixels", "1"])).stderr.contains("1 pixels"))
        expectOneLine(try CLI.run(["blur", "", out, "--sigma", "1"]), status: 1, mentioning: ["cannot read an empty path"])
    }

    // Before: a missing animation layer listed every layer name (54 KB for 5,000 layers).
    @Test func aMissingLayerNamesAFewOthers() throws {
        let layers = (0..<5000).map { #"{"name": "layer\#($0)", "frame": [0, 0, 1, 1]}"# }.joined(separator: ",")
        let scene = #"{"width": 10, "height": 10, "layers": [\#(layers)], "animations": [{"layer": "nope", "duration": 1, "set": {"opacity": 0}}]}"#
        try AtomicFile.write(Array(scene.utf8), to: folder + "/many.json")
        let r = try CLI.run(["render", folder + "/many.json", folder + "/o.gif"])
        expectOneLine(r, status: 1, mentioning: ["no layer is called \"nope\"", "and 4990 more"])
        #expect(r.stderr.count < 400)
    }

    @Test func commandsAgreeOnFormsAndStatuses() throws {
        let out = folder + "/o.png"
        // Choices in any case, everywhere.
        #expect(try CLI.run(["progressive", input, out, "--direction", "Down", "--appearance", "DARK"]).status == 0)
        #expect(try CLI.run(["material", input, out, "--style", "UltraThin"]).status == 0)
        #expect(try CLI.run(["blur", input, out, "--sigma", "1", "--edges", "Transparent"]).status == 0)
        // Decimal numbers only: 0x10 is not 16, nor inf a number.
        for text in ["0x10", "inf", "nan", "1_0", ""] {
            expectOneLine(try CLI.run(["blur", input, out, "--sigma", text]), status: 2, mentioning: ["--sigma expects a number"])
        }
        // An unknown suffix is a usage error for stills and animations alike.
        #expect(try CLI.run(["blur", input, folder + "/o.bmp", "--sigma", "1"]).status == 2)
        #expect(try CLI.run(["blurup", input, folder + "/o.bmp"]).status == 2)
        // What the README promises every image command takes.
        for command in ["blur", "progressive", "material", "blurup", "placeholder", "render", "demo"] {
            let help = String(decoding: try CLI.run([command, "--help"]).stdout, as: UTF8.self)
            #expect(help.contains("--max-pixels") && help.contains("--memory-budget"), "\(command)")
            // One default per option line.
            for line in help.split(separator: "\n") where line.hasPrefix("  --") {
                let defaults = line.components(separatedBy: "(default").count + line.components(separatedBy: ", default").count - 2
                #expect(defaults <= 1, "\(command): \(line)")
            }
        }
        let blurup = String(decoding: try CLI.run(["blurup", "--help"]).stdout, as: UTF8.self)
        #expect(blurup.contains("--size WxH") && blurup.contains("1…10000"))
    }
}
