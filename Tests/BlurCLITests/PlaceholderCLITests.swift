import BlurCore
import BlurIO
import Foundation
import Testing

@Suite struct PlaceholderCLITests {
    let folder: String
    let inputs: String

    /// A folder of four JPEG photos (one in a subfolder, one rotated by EXIF-free transposition) and
    /// one broken file.
    init() throws {
        let workspace = try Workspace(crop: PixelRect(x: 0, y: 0, width: 400, height: 300))
        folder = workspace.folder
        inputs = folder + "/photos"
        try FileManager.default.createDirectory(atPath: inputs + "/more", withIntermediateDirectories: true)
        try ImageFile.write(workspace.photo, to: inputs + "/cat.jpg")
        try ImageFile.write(workspace.photo.oriented(.right), to: inputs + "/tall.jpg")
        try ImageFile.write(workspace.photo.cropped(x: 0, y: 0, width: 120, height: 40), to: inputs + "/more/strip.png")
        try ImageFile.write(workspace.photo, to: inputs + "/more/cat.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: inputs + "/broken.jpg"))
    }

    func manifest(_ out: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["images"] as! [[String: Any]]
    }

    // Issue 51, finding 10: the manifest kept inodes and nanosecond times, so `cp -r` of a folder
    // rewrote every entry while the run said "0 made". Now a copy (new inodes, new times) and its
    // rerun keep the manifest's bytes.
    @Test func aCopiedFolderKeepsItsManifest() throws {
        try FileManager.default.removeItem(atPath: inputs + "/broken.jpg")
        let first = folder + "/site"
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: inputs, toPath: first + "/photos")
        #expect(try CLI.run(["placeholder", first + "/photos", "--out", first + "/out"]).status == 0)
        let made = try AtomicFile.read(first + "/out/manifest.json")
        // `cp -r` without -p: new files, new inodes, new modification times (a second on).
        Thread.sleep(forTimeInterval: 1.1)
        let copy = folder + "/copy"
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-r", first, copy]
        try cp.run()
        cp.waitUntilExit()
        let result = try CLI.run(["placeholder", copy + "/photos", "--out", copy + "/out"])
        let said = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0 && said.contains("0 made, 4 up to date"), "\(said)\(result.stderr)")
        #expect(try AtomicFile.read(copy + "/out/manifest.json") == made, "the manifest's bytes after a copy and a rerun")
    }

    @Test func previewsManifestFailuresAndResume() throws {
        let out = folder + "/out"
        var result = try CLI.run(["placeholder", inputs, "--out", out, "--jobs", "3"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("4 made, 0 up to date, 1 failed, of 5") && result.stderr.contains("broken.jpg: the input is not"))
        let entries = try manifest(out)
        #expect(entries.count == 4)
        let byName = Dictionary(
            uniqueKeysWithValues: entries.map {
                (($0["file"] as! String as NSString).lastPathComponent + ($0["file"] as! String).count.description, $0)
            })
        #expect(byName.count == 4)
        for entry in entries {
            let preview = entry["preview"] as! [String: Any]
            let (w, h) = (preview["width"] as! Int, preview["height"] as! Int)
            // The default size (10 px, what Next.js recommends for a blurDataURL).
            let side = Int(Placeholder.sizeSpec.defaultValue!)
            #expect(side == 10)
            #expect(max(w, h) == side || (entry["width"] as! Int) < side)
            // The data URI and the file are the same PNG, of the stated size.
            let uri = preview["dataURI"] as! String
            #expect(uri.hasPrefix("data:image/png;base64,"))
            let bytes = [UInt8](Data(base64Encoded: String(uri.dropFirst("data:image/png;base64,".count)))!)
            #expect(bytes == (try AtomicFile.read(out + "/" + (preview["file"] as! String))))
            let image = try PNGCodec.decode(bytes)
            #expect(image.width == w && image.height == h)
            // Aspect kept within a pixel.
            let aspect = Double(entry["width"] as! Int) / Double(entry["height"] as! Int)
            #expect(abs(Double(w) - Double(h) * aspect) <= 1 || abs(Double(h) - Double(w) / aspect) <= 1, "\(w)×\(h) for \(aspect)")
            #expect((Data(base64Encoded: entry["thumbHash"] as! String)?.count ?? 0) >= 17)
            #expect((entry["averageColor"] as! String).count == 7)
        }
        let tall = entries.first { ($0["file"] as! String).hasSuffix("tall.jpg") }!
        #expect(tall["width"] as! Int == 300 && tall["height"] as! Int == 400)
        // The two "cat" inputs get distinct previews.
        #expect(Set(entries.map { ($0["preview"] as! [String: Any])["file"] as! String }).count == 4)

        // A rerun skips everything up to date and keeps the manifest.
        result = try CLI.run(["placeholder", inputs, "--out", out])
        #expect(result.status == 1 && result.stderr.contains("0 made, 4 up to date, 1 failed"))
        #expect(try manifest(out).count == 4)
        // A changed input is made again; --force remakes all.
        try ImageFile.write(try ImageFile.read(inputs + "/cat.jpg").cropped(x: 0, y: 0, width: 200, height: 200), to: inputs + "/cat.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: inputs + "/cat.jpg")
        try FileManager.default.removeItem(atPath: inputs + "/broken.jpg")
        result = try CLI.run(["placeholder", inputs, "--out", out])
        #expect(result.status == 0 && String(decoding: result.stdout, as: UTF8.self).contains("1 made, 3 up to date, 0 failed"))
        result = try CLI.run(["placeholder", inputs, "--out", out, "--force", "--quiet", "--size", "16", "--no-thumbhash"])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(
            try manifest(out).allSatisfy {
                $0["thumbHash"] == nil
                    && max(($0["preview"] as! [String: Any])["width"] as! Int, ($0["preview"] as! [String: Any])["height"] as! Int) <= 16
            })
    }

    @Test func anInterruptedBatchKeepsAValidManifestOfWhatIsDone() throws {
        // 60 copies of one 2000×1500 PNG (full decodes, tens of milliseconds each), one at a time.
        let many = folder + "/many"
        try FileManager.default.createDirectory(atPath: many, withIntermediateDirectories: true)
        let big = try ImageFile.read(inputs + "/cat.jpg").resized(width: 2000, height: 1500)
        try ImageFile.write(big, to: many + "/p00.png")
        for i in 1..<60 { try FileManager.default.copyItem(atPath: many + "/p00.png", toPath: many + String(format: "/p%02d.png", i)) }
        let out = folder + "/many-out"
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["placeholder", many, "--out", out, "--jobs", "1"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter({ $0.hasSuffix(".png") }).isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.terminate()  // SIGTERM
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143, "\(stderr)")
        #expect(stderr.contains("interrupted:") && stderr.contains("not started; rerun to finish"))
        let entries = try manifest(out)
        #expect(!entries.isEmpty && entries.count < 60)
        for entry in entries {
            let preview = (entry["preview"] as! [String: Any])["file"] as! String
            #expect(try PNGCodec.decode(try AtomicFile.read(out + "/" + preview)).width == Int(Placeholder.sizeSpec.defaultValue!))
        }
        // A rerun finishes the rest and skips what is done.
        let rerun = try CLI.run(["placeholder", many, "--out", out])
        #expect(rerun.status == 0 && String(decoding: rerun.stdout, as: UTF8.self).contains("\(entries.count) up to date"))
        #expect(try manifest(out).count == 60)
    }

    // Before: p.jpg and p.png took the names p.png and p-2.png by their order, so adding p.gif
    // gave p.gif the name p.png and overwrote another input's preview.
    @Test func previewNamesDependOnTheirInputAlone() throws {
        let dir = folder + "/same-stem", out = folder + "/same-stem-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let photo = try ImageFile.read(inputs + "/cat.jpg")
        try ImageFile.write(try photo.cropped(x: 0, y: 0, width: 200, height: 100), to: dir + "/p.jpg")
        try ImageFile.write(try photo.cropped(x: 200, y: 0, width: 100, height: 200), to: dir + "/p.png")
        #expect(try CLI.run(["placeholder", dir, "--out", out]).status == 0)
        try ImageFile.write(try photo.cropped(x: 0, y: 100, width: 150, height: 150), to: dir + "/p.gif")
        #expect(try CLI.run(["placeholder", dir, "--out", out]).status == 0)
        let entries = try manifest(out)
        #expect(Set(entries.map { ($0["preview"] as! [String: Any])["file"] as! String }) == ["p.gif.png", "p.jpg.png", "p.png.png"])
        for entry in entries {
            // Each preview has its own input's aspect, and file and data URI agree.
            let preview = entry["preview"] as! [String: Any]
            let image = try PNGCodec.decode(try AtomicFile.read(out + "/" + (preview["file"] as! String)))
            let aspect = Double(entry["width"] as! Int) / Double(entry["height"] as! Int)
            #expect(abs(Double(image.width) / Double(image.height) - aspect) < 0.1, "\(entry["file"]!)")
        }
    }

    // Before: an output folder inside an input folder was scanned as input (previews of previews),
    // and the same input given twice was done twice.
    @Test func theOutputAndRepeatedInputsAreNotInputs() throws {
        let out = inputs + "/previews"
        var r = try CLI.run(["placeholder", inputs, "--out", out])
        r = try CLI.run(["placeholder", inputs, "--out", out])
        #expect(r.status == 1 && r.stderr.contains("0 made, 4 up to date, 1 failed, of 5"), "\(r.stderr)")
        #expect(try manifest(out).allSatisfy { !($0["file"] as! String).contains("/previews/") })
        r = try CLI.run(["placeholder", inputs + "/cat.jpg", inputs + "/./cat.jpg", inputs + "/more/../cat.jpg", "--out", folder + "/one"])
        #expect(r.status == 0 && String(decoding: r.stdout, as: UTF8.self).contains("1 made, 0 up to date, 0 failed, of 1"))
    }

    // Before: an input that became corrupt kept its old entry.
    @Test func aFailedInputLosesItsOldEntry() throws {
        let out = folder + "/o"
        #expect(try CLI.run(["placeholder", inputs, "--out", out]).status == 1)
        #expect(try manifest(out).contains { $0["file"] as! String == "cat.jpg" })
        try Data("now broken".utf8).write(to: URL(fileURLWithPath: inputs + "/cat.jpg"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: inputs + "/cat.jpg")
        let r = try CLI.run(["placeholder", inputs, "--out", out])
        #expect(r.status == 1 && r.stderr.contains("2 failed"))
        #expect(try !manifest(out).contains { $0["file"] as! String == "cat.jpg" })
        #expect(try manifest(out).count == 3)
    }

    // Before: out of disk, the manifest's error was all there was; which files failed was lost.
    // The previews (4 px, about 100 bytes) fit under the file-size limit, the manifest does not.
    // Not under ThreadSanitizer, whose runtime the file-size limit kills (as for the blur's full-disk
    // test; `make sanitize` sets BLURKIT_SANITIZER=thread for that run).
    @Test(.disabled(if: ProcessInfo.processInfo.environment["BLURKIT_SANITIZER"] == "thread"))
    func outOfDiskListsEveryFailure() throws {
        let r = try CLI.runUnderFileSizeLimit(1, ["placeholder", inputs, "--out", folder + "/full", "--size", "4"])
        let message = r.stderr
        #expect(r.status == 1, "\(message)")
        #expect(message.contains("manifest.json") && message.contains("the manifest was not written"), "\(message)")
        #expect(message.contains("4 made, 0 up to date, 1 failed") && message.contains("broken.jpg: "), "\(message)")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/full")) ?? []
        #expect(!leftovers.contains { $0.contains(".tmp-") || $0 == "manifest.json" }, "\(leftovers)")
    }

    /// The previews under `out`, as paths relative to it, and the manifest's preview files.
    func previewFiles(_ out: String) throws -> (onDisk: Set<String>, listed: Set<String>) {
        let all = FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []
        return (Set(all.filter { $0.hasSuffix(".png") }), Set(try manifest(out).map { ($0["preview"] as! [String: Any])["file"] as! String }))
    }

    /// `blurkit placeholder ARGUMENTS` run in the test's folder: the status and the summary line.
    func placeholder(_ arguments: String) throws -> (status: Int32, text: String) {
        let r = try CLI.shell("\"$B\" placeholder \(arguments) 1>&2", in: folder)
        return (r.status, r.stderr)
    }

    // Before: the work was keyed by the path as typed, so `photos`, `./photos`, `photos/` and the
    // absolute path each remade every preview, and the manifest's `file` was the path as typed.
    @Test func everySpellingOfTheFolderIsOneBatch() throws {
        try FileManager.default.removeItem(atPath: inputs + "/broken.jpg")
        var r = try placeholder("photos --out out")
        #expect(r.status == 0 && r.text.contains("4 made, 0 up to date"), "\(r.text)")
        for spelling in ["./photos", "photos/", "'\(inputs)'", "photos/../photos//"] {
            r = try placeholder("\(spelling) --out out")
            #expect(r.status == 0 && r.text.contains("0 made, 4 up to date"), "\(spelling): \(r.text)")
        }
        #expect(Set(try manifest(folder + "/out").map { $0["file"] as! String }) == ["cat.jpg", "tall.jpg", "more/cat.png", "more/strip.png"])
    }

    // Before: two inputs with one file name took hashed preview names; when one went, the other was
    // renamed and both old previews stayed.
    @Test func previewNamesAreStableAndStalePreviewsGo() throws {
        try FileManager.default.removeItem(atPath: inputs + "/broken.jpg")
        try FileManager.default.copyItem(atPath: inputs + "/tall.jpg", toPath: inputs + "/more/tall.jpg")
        let out = folder + "/out"
        #expect(try placeholder("photos --out out").status == 0)
        let first = try previewFiles(out)
        #expect(first.onDisk == first.listed && first.listed.count == 5, "\(first)")
        let tall = try manifest(out).first { $0["file"] as! String == "tall.jpg" }.map { ($0["preview"] as! [String: Any])["file"] as! String }
        try FileManager.default.removeItem(atPath: inputs + "/more/tall.jpg")
        try FileManager.default.removeItem(atPath: inputs + "/more/strip.png")
        let r = try placeholder("photos --out out")
        #expect(r.status == 0 && r.text.contains("0 made, 3 up to date"), "\(r.text)")
        let second = try previewFiles(out)
        #expect(second.onDisk == second.listed && second.listed.count == 3, "\(second)")
        #expect(try manifest(out).first { $0["file"] as! String == "tall.jpg" }.map { ($0["preview"] as! [String: Any])["file"] as! String } == tall)
    }

    // Before: an input replaced by another image dated earlier than its preview (`cp -p`,
    // `rsync -t`) was kept as up to date; one touched but unchanged was made again.
    @Test func upToDateMeansTheSameBytes() throws {
        try FileManager.default.removeItem(atPath: inputs + "/broken.jpg")
        // A PPM: another picture of the same dimensions has the same size in bytes.
        let photo = try ImageFile.read(inputs + "/cat.jpg")
        try ImageFile.write(try photo.cropped(x: 0, y: 0, width: 60, height: 40), to: inputs + "/same.ppm")
        #expect(try placeholder("photos --out out").status == 0)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try ImageFile.write(try ImageFile.read(inputs + "/more/strip.png"), to: folder + "/other.png")
        try ImageFile.write(try photo.cropped(x: 200, y: 100, width: 60, height: 40), to: folder + "/other.ppm")
        for file in ["other.png", "other.ppm"] { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder + "/" + file) }
        #expect(try CLI.shell("cp -p other.png photos/more/cat.png && cp -p other.ppm photos/same.ppm", in: folder).status == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: inputs + "/tall.jpg")
        let r = try placeholder("photos --out out")
        #expect(r.status == 0 && r.text.contains("2 made, 3 up to date"), "\(r.text)")
        let entries = try manifest(folder + "/out")
        let cat = try #require(entries.first { $0["file"] as! String == "more/cat.png" })
        #expect(cat["width"] as! Int == 120 && cat["height"] as! Int == 40)
        let same = try #require(entries.first { $0["file"] as! String == "same.ppm" })
        let preview = try AtomicFile.read(folder + "/out/" + ((same["preview"] as! [String: Any])["file"] as! String))
        #expect(try preview == PNGCodec.encode(Placeholder.make(fromFile: folder + "/other.ppm", thumbHash: false).preview))
    }

    @Test func mistakes() throws {
        var result = try CLI.run(["placeholder", inputs])
        #expect(result.status == 2 && result.stderr.contains("--out"))
        result = try CLI.run(["placeholder", inputs, "--out", folder + "/o", "--size", "0"])
        #expect(result.status == 2 && result.stderr.contains("size"))
        result = try CLI.run(["placeholder", folder + "/nothing-here", "--out", folder + "/o"])
        #expect(result.status == 1 && result.stderr.contains("no such file or folder"))
    }
}

@Suite struct BlurUpCLITests {
    @Test(arguments: [false, true])
    func theSequenceGoesFromThePreviewToTheSharpImage(_ reduceMotion: Bool) throws {
        let workspace = try Workspace(crop: PixelRect(x: 100, y: 50, width: 160, height: 120))
        let out = workspace.folder + "/blurup.apng"
        let r = try CLI.run(
            ["blurup", workspace.input, out, "--size", "80x60", "--fps", "10", "--wait", "0.5", "--hold", "0.5"]
                + (reduceMotion ? ["--reduce-motion"] : []))
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try AnimatedImage.decode(try AtomicFile.read(out)).frames
        // 0.5 s waiting, the transition (0.8 s, or 0.2 s), 0.5 s of the sharp image, at 10 fps.
        #expect(frames.count == (reduceMotion ? 12 : 18))
        let sharp = try workspace.photo.resized(width: 80, height: 60)
        let last = frames.last!.image, first = frames.first!.image
        #expect(ImageDifference(last, sharp).psnr > 30)
        #expect(ImageDifference(first, sharp).psnr < ImageDifference(last, sharp).psnr - 3)
        #expect(frames.allSatisfy { $0.image.isOpaque })
    }

    @Test func mistakes() throws {
        let workspace = try Workspace(crop: PixelRect(x: 0, y: 0, width: 40, height: 30))
        var r = try CLI.run(["blurup", workspace.input, workspace.folder + "/x.bmp"])
        #expect(r.status == 2)
        r = try CLI.run(["blurup", workspace.input, workspace.folder + "/x.gif", "--size", "wide"])
        #expect(r.status == 2 && r.stderr.contains("--size expects WxH"))
        r = try CLI.run(["blurup", workspace.input, workspace.folder + "/x.gif", "--radius", "-1"])
        #expect(r.status == 2 && r.stderr.contains("radius"))
        r = try CLI.run(["blurup", workspace.input, workspace.input])
        #expect(r.status == 1 && r.stderr.contains("refusing to overwrite"))
    }
}
