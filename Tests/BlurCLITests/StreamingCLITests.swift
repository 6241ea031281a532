import BlurCore
import BlurIO
import Foundation
import Testing

/// `blurkit` file to file through the streaming chain: what a user sees when a file is cut short,
/// when the run is interrupted, and that neither threads nor the codec path change a byte.
@Suite struct StreamingCLITests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-stream-\(UUID().uuidString)").path
    let photo = try! ImageFile.read(Workspace.fixture)

    init() throws { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test(arguments: [ImageFormat.png, .jpeg])
    func aFileCutShortFailsWithItsNameAndWritesNothing(format: ImageFormat) throws {
        let bytes = try ImageFile.encode(photo, as: format)
        try AtomicFile.write(Array(bytes.prefix(bytes.count * 3 / 5)), to: folder + "/cut")
        let r = try CLI.run(["blur", folder + "/cut", folder + "/out.png", "--sigma", "3"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cut") && r.stderr.contains(format == .png ? "PNG" : "JPEG"), "\(r.stderr)")
        #expect(try files() == ["cut"])
    }

    /// The command's file is the library's whole-image result, encoded by the whole-image
    /// encoder; for one thread and for all.
    @Test(arguments: [("png", 2.0), ("jpg", 8.0), ("pam", 30.0), ("png", 0.0)])
    func theStreamedFileIsTheWholeImageFile(suffix: String, sigma: Double) throws {
        let input = folder + "/in.png"
        try ImageFile.write(photo, to: input)
        let expected = try ImageFile.encode(
            GaussianBlur(sigma: sigma).fastPath(photo), as: ImageFormat(path: "x." + suffix)!)
        for threads in ["1", "5"] {
            let out = folder + "/out-\(threads).\(suffix)"
            let r = try CLI.run(["blur", input, out, "--sigma", "\(sigma)", "--threads", threads])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try AtomicFile.read(out) == expected, "\(suffix), σ \(sigma), \(threads) threads")
        }
    }

    /// `material` streams (a stage, not a whole-image step) and writes what the library draws.
    @Test func theMaterialCommandIsTheLibrarysMaterial() throws {
        let input = folder + "/in.png"
        try ImageFile.write(photo, to: input)
        var backdrop = photo
        backdrop.scale = 2
        let material = Material(style: .systemThinMaterial, cornerRadius: 10)
        let drawn = material.render(over: backdrop, frame: Rect(x: 10, y: 20, width: 180, height: 90), appearance: .dark)
        let r = try CLI.run([
            "material", input, folder + "/out.pam", "--style", "thin", "--region", "10,20,180,90", "--corner-radius", "10",
            "--appearance", "dark", "--scale", "2",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ImageFile.read(folder + "/out.pam").premultipliedRGBA == drawn.premultipliedRGBA)
    }

    /// `progressive` streams in every direction (rows down and up, columns left and right) and writes
    /// what the library draws.
    @Test(arguments: [GradientDirection.down, .up, .left, .right])
    func theProgressiveCommandIsTheLibrarysRender(direction: GradientDirection) throws {
        let input = folder + "/in.png"
        try ImageFile.write(photo, to: input)
        var backdrop = photo
        backdrop.scale = 2
        var effect = VariableBlurEffect(direction: direction)
        effect.maximumBlurRadius = 10
        let drawn = effect.render(over: backdrop, frame: Rect(x: 0, y: 10, width: 200, height: 100), appearance: .light)
        let r = try CLI.run([
            "progressive", input, folder + "/out.pam", "--direction", "\(direction)", "--max-radius", "10",
            "--region", "0,10,200,100", "--scale", "2",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ImageFile.read(folder + "/out.pam").premultipliedRGBA == drawn.premultipliedRGBA, "\(direction)")
    }

    @Test func compressionTradesSizeForTime() throws {
        let input = folder + "/in.png"
        try ImageFile.write(photo, to: input)
        var sizes: [Int] = []
        for level in ["0", "9"] {
            #expect(try CLI.run(["blur", input, folder + "/l\(level).png", "--sigma", "1", "--compression", level]).status == 0)
            sizes.append(try AtomicFile.read(folder + "/l\(level).png").count)
            #expect(try ImageFile.read(folder + "/l\(level).png") == GaussianBlur(sigma: 1).fastPath(photo))
        }
        #expect(sizes[0] > photo.width * photo.height * 3 && sizes[1] < sizes[0] / 2, "\(sizes)")
        let bad = try CLI.run(["blur", input, folder + "/x.png", "--sigma", "1", "--compression", "10"])
        #expect(bad.status == 2 && bad.stderr.contains("compression"), "\(bad.stderr)")
    }

    /// SIGTERM in the middle of a large blur: the command stops with 128 + 15 and leaves no file —
    /// or, if it had already finished, a whole one. Never a part.
    @Test func anInterruptedRunLeavesOnlyWholeFiles() throws {
        let big = try photo.resized(width: 2400, height: 1600)
        try ImageFile.write(big, to: folder + "/big.pam")
        for delay in [0.05, 0.2] {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["blur", folder + "/big.pam", folder + "/out.png", "--sigma", "20", "--compression", "9"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            process.terminate()
            process.waitUntilExit()
            let left = try files()
            if process.terminationStatus == 0 {
                #expect(left == ["big.pam", "out.png"])
                #expect(try ImageFile.read(folder + "/out.png").width == 2400)
                try FileManager.default.removeItem(atPath: folder + "/out.png")
            } else {
                // 143 from the handler; or, when the signal came before the command installed it
                // (a slow start, as under ThreadSanitizer), death by the signal itself.
                let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
                #expect(process.terminationStatus == 128 + SIGTERM || killed, "status \(process.terminationStatus)")
                #expect(left == ["big.pam"], "after \(delay) s: \(left)")
            }
        }
    }
}
