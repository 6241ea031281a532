import BlurCore
import BlurIO
import BlurServe
import Foundation
import Testing

/// The `blurkit` executable, run as a process on real files.
struct CLI {
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("blurkit")

    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    /// Runs blurkit under a file-size limit of `blocks` (`ulimit -f`, in the shell's blocks): a full
    /// disk, as far as the process can tell.
    static func runUnderFileSizeLimit(_ blocks: Int, _ arguments: [String]) throws -> Result {
        try shell("ulimit -f \(blocks); exec \"$B\" \"$@\"", arguments: arguments)
    }

    /// Runs `script` with `/bin/sh` (for redirections and limits), the blurkit executable as `$B`,
    /// `arguments` as `$@`, in `folder` when given. Standard output is not kept.
    static func shell(_ script: String, arguments: [String] = [], in folder: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", (folder.map { "cd \"\($0)\" && " } ?? "") + script, "sh"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["B": executable.path]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: Data(), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Returns once `process` catches every one of `signals` (its `SigCgt` in `/proc/PID/status`),
    /// so that a signal sent next reaches its handler; throws if it ends first or takes over 2 minutes.
    static func waitUntilCaught(_ signals: [Int32], by process: Process) throws {
        let wanted = signals.reduce(UInt64(0)) { $0 | 1 << UInt64($1 - 1) }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline {
            let status = String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/status"))) ?? Data(), as: UTF8.self)
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let caught = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16), caught & wanted == wanted
            {
                return
            }
            usleep(5_000)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "blurkit ended or never caught \(signals) within 2 minutes"])
    }

    /// The CPU time `process` has used so far, user and system, in clock ticks (1/100 s here):
    /// fields 14 and 15 of `/proc/PID/stat`; 0 once it has ended.
    static func cpuTicks(of process: Process) -> Int {
        let stat = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/stat"))) ?? Data(), as: UTF8.self)
        // The fields after the command's name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A fresh folder holding `in.png`, a crop of the fixture photo, for one test.
struct Workspace {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/chelsea.png").path

    let folder: String
    let input: String
    let photo: Bitmap

    init(crop: PixelRect) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        photo = try ImageFile.read(Workspace.fixture).cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        input = folder + "/in.png"
        try ImageFile.write(photo, to: input)
    }
}

@Suite struct CLITests {
    let folder: String
    let input: String
    let photo: Bitmap

    init() throws {
        let workspace = try Workspace(crop: PixelRect(x: 100, y: 50, width: 160, height: 120))
        (folder, input, photo) = (workspace.folder, workspace.input, workspace.photo)
    }

    /// Exit status 1 or 2 with exactly one `blurkit: …` line on standard error.
    func expectFailure(_ r: CLI.Result, status: Int32, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "\(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.hasPrefix("blurkit: "), "\(r.stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(r.stderr.contains(word), "\(r.stderr) lacks \(word)", sourceLocation: sourceLocation) }
    }

    /// `--format apng` makes an animated PNG file (it was read as `png`, a folder of frames), and
    /// `--format frames` the folder.
    @Test func anAnimationAskedForAsAPNGIsOne() throws {
        let scene =
            #"{"width": 16, "height": 16, "duration": 0.2, "fps": 10, "layers": [{"name": "a", "frame": [0, 0, 8, 8], "backgroundColor": "white"}], "#
            + #""animations": [{"layer": "a", "duration": 0.2, "set": {"opacity": 0}}]}"#
        try AtomicFile.write(Array(scene.utf8), to: folder + "/s.json")
        var r = try CLI.run(["render", folder + "/s.json", folder + "/o.apng", "--format", "apng"])
        #expect(r.status == 0, "\(r.stderr)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder + "/o.apng", isDirectory: &isFolder) && !isFolder.boolValue)
        let bytes = try AtomicFile.read(folder + "/o.apng")
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && String(decoding: bytes, as: UTF8.self).contains("acTL"))
        r = try CLI.run(["render", folder + "/s.json", folder + "/frames", "--format", "frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/frames/frame-00000.png"))
    }

    @Test func blursAFile() throws {
        let r = try CLI.run(["blur", input, folder + "/out.png", "--sigma", "3"])
        #expect(r.status == 0 && r.stderr.isEmpty && r.stdout.isEmpty)
        let out = try ImageFile.read(folder + "/out.png")
        #expect(out == (try GaussianBlur(sigma: 3).apply(to: photo)))
    }

    @Test func radiusTimesScaleIsSigma() throws {
        _ = try CLI.run(["blur", input, folder + "/a.pam", "--radius", "4", "--scale", "2"])
        _ = try CLI.run(["blur", input, folder + "/b.pam", "--sigma=8", "--edges", "transparent"])
        _ = try CLI.run(["blur", input, folder + "/c.pam", "--sigma", "8", "--edges", "clamp"])
        let a = try AtomicFile.read(folder + "/a.pam"), b = try AtomicFile.read(folder + "/b.pam"), c = try AtomicFile.read(folder + "/c.pam")
        #expect(a == c && a != b)
        #expect(try ImageFile.decode(b) == GaussianBlur(sigma: 8, edges: .transparent).apply(to: photo))
    }

    @Test func writesJPEGAtTheGivenQuality() throws {
        #expect(try CLI.run(["blur", input, folder + "/hi.jpg", "--sigma", "1", "--quality", "95"]).status == 0)
        #expect(try CLI.run(["blur", input, folder + "/lo.jpeg", "--sigma", "1", "--quality", "10"]).status == 0)
        let hi = try AtomicFile.read(folder + "/hi.jpg"), lo = try AtomicFile.read(folder + "/lo.jpeg")
        #expect(ImageFormat(sniffing: hi) == .jpeg && lo.count < hi.count)
    }

    @Test func pipesThroughStandardInputAndOutput() throws {
        let r = try CLI.run(["blur", "-", "-", "--sigma", "2", "--format", "ppm"], stdin: Data(try AtomicFile.read(input)))
        #expect(r.status == 0)
        #expect(try NetpbmCodec.decode([UInt8](r.stdout)) == GaussianBlur(sigma: 2).apply(to: photo))
    }

    // Before: --format's help promised the input's format when OUT's suffix says none, but the
    // command line refused standard output and OUT without a suffix; only HTTP fell back.
    @Test func withoutFormatOrSuffixTheInputsFormatIsWritten() throws {
        var r = try CLI.run(["blur", input, "-", "--sigma", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ImageFormat(sniffing: [UInt8](r.stdout)) == .png)
        try ImageFile.write(photo, to: folder + "/in.jpg")
        r = try CLI.run(["blur", folder + "/in.jpg", folder + "/out", "--sigma", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ImageFormat(sniffing: try AtomicFile.read(folder + "/out")) == .jpeg)
        // A GIF in gives PNG out, as over HTTP; from standard input too.
        try ImageFile.write(photo, to: folder + "/in.gif")
        r = try CLI.run(["blur", "-", "-", "--sigma", "2"], stdin: Data(try AtomicFile.read(folder + "/in.gif")))
        #expect(r.status == 0 && ImageFormat(sniffing: [UInt8](r.stdout)) == .png, "\(r.stderr)")
        // A suffix that names no format is still a mistake, and the help says the rule.
        expectFailure(try CLI.run(["blur", input, folder + "/o.tiff", "--sigma", "2"]), status: 2, mentioning: ["format"])
        let help = String(decoding: try CLI.run(["blur", "--help"]).stdout, as: UTF8.self)
        #expect(help.contains("else the input's format if PNG, JPEG, WebP or AVIF, else PNG"), "\(help)")
    }

    // Before: a key that is not one and a host name were taken as failures (exit status 1).
    @Test func serveMistakesAreUsageErrors() throws {
        expectFailure(try CLI.run(["serve", "--root", folder, "--port", "0", "--key", "abc"]), status: 2, mentioning: ["--key"])
        expectFailure(try CLI.run(["serve", "--root", folder, "--port", "0", "--host", "localhost"]), status: 2, mentioning: ["--host localhost"])
        // The root's message names --root once: the command line adds it, the library does not.
        let r = try CLI.run(["serve", "--root", folder + "/nothing", "--port", "0"])
        expectFailure(r, status: 1, mentioning: ["--root \(folder)/nothing: no such folder"])
        #expect(r.stderr.components(separatedBy: "--root").count == 2, "\(r.stderr)")
        #expect(throws: ServeError.notFound("/nonexistent: no such folder")) { try ServeRoot("/nonexistent") }
    }

    @Test func theReferenceSwitchAgreesWithTheFastPath() throws {
        _ = try CLI.run(["blur", input, folder + "/fast.png", "--sigma", "20"])
        let r = try CLI.run(["blur", input, folder + "/ref.png", "--sigma", "20"], environment: ["BLURKIT_REFERENCE": "1"])
        #expect(r.status == 0)
        let fast = try ImageFile.read(folder + "/fast.png"), reference = try ImageFile.read(folder + "/ref.png")
        #expect(reference == (try GaussianBlur(sigma: 20).reference(photo)))
        let d = ImageDifference(fast, reference)
        #expect(d.psnr >= 58 && d.maximum <= 3, "\(d)")
    }

    @Test func helpListsEveryOptionWithUnitRangeAndDefault() throws {
        let r = try CLI.run(["blur", "--help"])
        #expect(r.status == 0)
        let help = String(decoding: r.stdout, as: UTF8.self)
        for text in [
            "--sigma S", "px", "0…2000", "--radius R", "pt", "--scale K", "default 1", "--edges", "default clamp",
            "--quality Q", "default 90", "--format", "--threads", "--max-pixels", "default 268435456",
        ] {
            #expect(help.contains(text), "help lacks \(text)")
        }
        #expect(try CLI.run(["--help"]).stdout.count > 100)
    }

    @Test func usageErrorsExitWithTwo() throws {
        expectFailure(try CLI.run([]), status: 2, mentioning: ["no command"])
        expectFailure(try CLI.run(["sharpen"]), status: 2, mentioning: ["unknown command"])
        expectFailure(try CLI.run(["blur", input]), status: 2, mentioning: ["blur takes 2 operands, got 1", "usage: blurkit blur IN OUT"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png"]), status: 2, mentioning: ["--sigma", "--radius"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma"]), status: 2, mentioning: ["needs a value"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--bogus"]), status: 2, mentioning: ["--bogus"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--radius", "2"]), status: 2, mentioning: ["not both"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "two"]), status: 2, mentioning: ["number"])
        for bad in ["nan", "inf", "-1", "1e9"] {
            expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", bad]), status: 2, mentioning: ["sigma"])
        }
        expectFailure(
            try CLI.run(["blur", input, folder + "/o.png", "--radius", "1500", "--scale", "3"]), status: 2, mentioning: ["--radius × --scale"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--edges", "wrap"]), status: 2, mentioning: ["edges", "clamp"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--quality", "0"]), status: 2, mentioning: ["quality"])
        expectFailure(try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--threads", "1.5"]), status: 2, mentioning: ["threads"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.png"))
    }

    @Test func failuresExitWithOneAndWriteNothing() throws {
        expectFailure(
            try CLI.run(["blur", folder + "/none.png", folder + "/o.png", "--sigma", "2"]), status: 1, mentioning: ["cannot read", "none.png"])
        try AtomicFile.write(Array(try AtomicFile.read(input).prefix(300)), to: folder + "/cut.png")
        expectFailure(try CLI.run(["blur", folder + "/cut.png", folder + "/o.png", "--sigma", "2"]), status: 1, mentioning: ["cut.png", "PNG"])
        try AtomicFile.write(Array("not an image".utf8), to: folder + "/text.png")
        expectFailure(try CLI.run(["blur", folder + "/text.png", folder + "/o.png", "--sigma", "2"]), status: 1, mentioning: ["not a PNG"])
        // An unknown suffix is a usage mistake, for stills as for animations.
        expectFailure(try CLI.run(["blur", input, folder + "/o.tiff", "--sigma", "2"]), status: 2, mentioning: ["format"])
        expectFailure(try CLI.run(["blur", input, folder + "/no/such/dir/o.png", "--sigma", "2"]), status: 1, mentioning: ["cannot write"])
        expectFailure(
            try CLI.run(["blur", input, folder + "/o.png", "--sigma", "2", "--max-pixels", "1000"]), status: 1, mentioning: ["limit of 1000 pixels"])
        // The 451 × 300 photo streamed: windows of rows, a little over 1 MB for either effect.
        expectFailure(
            try CLI.run(["blur", Workspace.fixture, folder + "/o.png", "--sigma", "2", "--memory-budget", "1"]), status: 1,
            mentioning: ["memory budget of 1 MB"])
        expectFailure(
            try CLI.run(["progressive", Workspace.fixture, folder + "/o.png", "--direction", "left", "--memory-budget", "1"]), status: 1,
            mentioning: ["progressive needs about", "memory budget of 1 MB"])
        #expect(try CLI.run(["blur", Workspace.fixture, folder + "/ok.pam", "--sigma", "2", "--memory-budget", "3"]).status == 0)
        // An image inside placeholder's output folder is skipped, and the error says so (before: "no images found" alone).
        try FileManager.default.createDirectory(atPath: folder + "/previews", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Workspace.fixture, toPath: folder + "/previews/in.png")
        expectFailure(
            try CLI.run(["placeholder", folder + "/previews/in.png", "--out", folder + "/previews"]), status: 1,
            mentioning: ["lies inside the output folder", "which is skipped"])
        expectFailure(
            try CLI.run(["placeholder", Workspace.fixture, "--out", folder + "/previews/in.png"]), status: 1,
            mentioning: ["it is a file, not a folder"])
        try FileManager.default.removeItem(atPath: folder + "/previews")
        try FileManager.default.removeItem(atPath: folder + "/ok.pam")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["cut.png", "in.png", "text.png"])
    }

    /// A 70-byte PNG whose header says 2³¹ − 1 × 1: refused from its header, before libpng makes
    /// (and clears) its row buffers — 6.3 GB and 5–15 s before. Under a 3-GB address-space limit
    /// those buffers cannot be made, so the old order failed with libpng's "out of memory".
    @Test func aPNGTooWideIsRefusedBeforeItsRowsAreMade() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let length = withUnsafeBytes(of: UInt32(data.count).bigEndian) { Array($0) }
            return length + body + withUnsafeBytes(of: crc32(body).bigEndian) { Array($0) }
        }
        for (width, budget, words) in [(0x7FFF_FFFF, 4096, ["limit of 268435456 pixels"]), (100_000_000, 1000, ["PNG", "memory budget of 1000 MB"])] {
            var header = withUnsafeBytes(of: UInt32(width).bigEndian) { Array($0) } + [0, 0, 0, 1]
            header += [8, 2, 0, 0, 0]
            let png =
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 1, 0, 1])
                + chunk("IEND", [])
            try AtomicFile.write(png, to: folder + "/wide.png")
            let r = try CLI.shell(
                "ulimit -v 3000000; exec \"$B\" \"$@\"", arguments: ["blur", folder + "/wide.png", folder + "/o.png", "--memory-budget", "\(budget)"])
            #expect(r.status == 1, "\(r.stderr)")
            for word in words { #expect(r.stderr.contains(word), "\(r.stderr) lacks \(word)") }
            #expect(!r.stderr.contains("out of memory"), "\(r.stderr)")
        }
    }

    /// PNG's CRC-32.
    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // Not under ThreadSanitizer: its runtime itself dies of SIGBUS under a 16-KB file-size limit
    // (`make sanitize` sets BLURKIT_SANITIZER=thread for that run).
    @Test(.disabled(if: ProcessInfo.processInfo.environment["BLURKIT_SANITIZER"] == "thread"))
    func aFullDiskLeavesNoPartialFile() throws {
        // A 16 KB file-size limit stands in for a full disk: the write fails part-way.
        let out = folder + "/big.pam"
        let r = try CLI.runUnderFileSizeLimit(16, ["blur", input, out, "--sigma", "1"])
        let message = r.stderr
        #expect(r.status == 1, "\(message)")
        #expect(message.hasPrefix("blurkit: cannot write") && message.contains("big.pam"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["in.png"])
    }

    @Test func neverOverwritesItsInput() throws {
        let before = try AtomicFile.read(input)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: folder + "/hard.png")
        for target in [input, folder + "/link.png", folder + "/hard.png", folder + "/./in.png"] {
            expectFailure(try CLI.run(["blur", input, target, "--sigma", "2"]), status: 1, mentioning: ["overwrite"])
        }
        #expect(try AtomicFile.read(input) == before)
    }

    /// A named pipe or a device as OUT is written, not replaced by a file renamed over it; a folder
    /// is refused saying it is one.
    @Test func writesIntoAPipeOrDeviceAndRefusesAFolder() throws {
        let direct = folder + "/direct.png"
        #expect(try CLI.run(["blur", input, direct, "--sigma", "2"]).status == 0)
        let r = try CLI.shell(
            "mkfifo pipe && { timeout 20 cat pipe > got.png & } && \"$B\" blur in.png pipe --sigma 2 --format png && wait && test -p pipe",
            in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try AtomicFile.read(folder + "/got.png") == AtomicFile.read(direct))
        // Streaming (a JPEG in, the band pipeline's writer) likewise.
        try ImageFile.write(try ImageFile.read(input), to: folder + "/in.jpg", quality: 95)
        let streamed = try CLI.shell(
            "{ timeout 20 cat pipe > got.jpg & } && \"$B\" blur in.jpg pipe --sigma 2 --format jpeg && wait && test -p pipe", in: folder)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try ImageFile.read(folder + "/got.jpg").width > 0)
        // A link to /proc/self/fd/1 (what /dev/stdout is; a private one, so that a regression
        // replaces nothing of the machine's) when standard output is a pipe: the pipe gets the
        // image, the link stays.
        let piped = try CLI.shell(
            "ln -s /proc/self/fd/1 out && \"$B\" blur in.png out --sigma 2 --format png | cat > piped.png && test -L out", in: folder)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try AtomicFile.read(folder + "/piped.png") == AtomicFile.read(direct))
        // A private /dev/null (needs root to make): still a device after the write.
        if try CLI.shell("mknod null c 1 3", in: folder).status == 0 {
            let r = try CLI.shell("\"$B\" blur in.png null --sigma 2 --format png && test -c null", in: folder)
            #expect(r.status == 0, "\(r.stderr)")
        }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        for target in [folder + "/sub", folder + "/sub/", folder] {
            expectFailure(try CLI.run(["blur", input, target, "--sigma", "2", "--format", "png"]), status: 1, mentioning: ["folder"])
        }
    }

    @Test func demoWritesItsGallery() throws {
        let r = try CLI.run(["demo", folder + "/demo"])
        #expect(r.status == 0)
        let printed = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(printed.count == 49)  // 39, and four glass pictures, four scroll edges and their two sheets
        let page = try String(contentsOfFile: folder + "/demo/index.html", encoding: .utf8)
        var animations = 0
        for path in printed where !path.hasSuffix(".html") {
            if path.hasSuffix(".webp") {
                let animation = try AnimatedImage.decode(try AtomicFile.read(path))
                #expect(animation.frames.count > 1, "\(path)")
                animations += 1
            } else {
                let image = try ImageFile.read(path)
                #expect(image.width >= 18)
            }
        }
        #expect(animations == 4)
        // The page shows the seed demos, and every image it shows exists.
        for name in [
            "blurup-loop.webp", "blurup-reduce-motion.webp", "materials-gallery.png", "scene-dialog-dismissal.webp", "scene-reflection.png",
            "glass-gallery.png", "scroll-edge-gallery.png",
        ] {
            #expect(page.contains("src=\"\(name)\""))
        }
        for match in page.split(separator: "src=\"").dropFirst() {
            let name = String(match.prefix { $0 != "\"" })
            #expect(FileManager.default.fileExists(atPath: folder + "/demo/" + name), "\(name)")
        }
        #expect(try ImageFile.read(folder + "/demo/blurup-full-900x1200.jpg").width == 900)
        let sample = try ImageFile.read(folder + "/demo/sample.png"), blurred = try ImageFile.read(folder + "/demo/blur-sigma-8.png")
        #expect(blurred == (try GaussianBlur(sigma: 8).apply(to: sample)))
    }
}

/// The switch that turns the fast paths off really does: `BLURKIT_REFERENCE=1` gives the reference's
/// bytes, and without it the fast path's (the tests of the fast path select it explicitly, so the
/// variable cannot make them compare the reference with itself).
@Suite struct KernelSwitchTests {
    @Test func theEnvironmentSelectsTheReference() throws {
        let workspace = try Workspace(crop: PixelRect(x: 100, y: 50, width: 96, height: 64))
        // A σ at which the fast path's bytes differ from the reference's (within its bound).
        let sigma = try #require(
            [24.0, 13, 3.9, 0.7].first { s in
                let blur = try! GaussianBlur(sigma: s)
                return blur.fastPath(workspace.photo) != blur.reference(workspace.photo)
            })
        let blur = try GaussianBlur(sigma: sigma), out = workspace.folder + "/o.pam"
        for (value, expected) in [("1", blur.reference(workspace.photo)), ("0", blur.fastPath(workspace.photo))] {
            let r = try CLI.run(["blur", workspace.input, out, "--sigma", "\(sigma)"], environment: ["BLURKIT_REFERENCE": value])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try NetpbmCodec.decode(AtomicFile.read(out)) == expected, "BLURKIT_REFERENCE=\(value), σ \(sigma)")
        }
    }
}

/// `--threads` changes how the work is split, never the bytes.
@Suite struct ThreadOptionTests {
    @Test func everyCommandWritesTheSameBytesForAnyThreadCount() throws {
        let workspace = try Workspace(crop: PixelRect(x: 100, y: 50, width: 120, height: 90))
        let commands: [[String]] = [
            ["blur", "--sigma", "9"], ["progressive", "--max-radius", "10"], ["material", "--style", "thin"],
            ["material", "--radius", "3"],
        ]
        for command in commands {
            var outputs: [[UInt8]] = []
            for threads in ["1", "3", "16"] {
                let out = workspace.folder + "/o-\(threads).pam"
                let r = try CLI.run([command[0], workspace.input, out] + command.dropFirst() + ["--threads", threads])
                #expect(r.status == 0, "\(r.stderr)")
                outputs.append(try AtomicFile.read(out))
            }
            #expect(outputs.allSatisfy { $0 == outputs[0] }, "\(command)")
        }
    }
}
