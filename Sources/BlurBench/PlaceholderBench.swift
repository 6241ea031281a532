import BlurKit
import Dispatch
import Foundation
import Synchronization

/// Placeholders for a folder of JPEG photos: BlurKit with DCT-scaled decoding, BlurKit decoding at
/// full size then shrinking (the 5× target), and Pillow + thumbhash doing the same work, same run;
/// then whole processes over the folder, one job each: `blurkit placeholder` against `vipsthumbnail`.
func benchPlaceholders(tile: Bitmap, runs: Int, quick: Bool, emit: (String) -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-photos-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let count = quick ? 6 : 16
    for i in 0..<count {
        // 12 MP, a camera's size; each a different crop of the texture so no two files are alike.
        let photo = try photo(width: 4000 + (i % 3) * 8, height: 3000, from: tile)
        try ImageFile.write(photo, to: folder + "/photo-\(i).jpg", quality: 88)
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
    let contents = try files.map { try AtomicFile.read($0) }

    func everyFile(parallel: Bool, _ body: @Sendable @escaping ([UInt8]) throws -> Void) -> Double {
        let contents = contents
        return median(runs: runs) {
            if parallel {
                DispatchQueue.concurrentPerform(iterations: contents.count) { try! body(contents[$0]) }
            } else {
                for bytes in contents { try! body(bytes) }
            }
        }
    }
    @Sendable func full(_ bytes: [UInt8]) throws {
        // The same work without DCT scaling: decode all 12 MP, then shrink.
        let image = try ImageFile.decode(bytes)
        let p = Placeholder.placeholder(of: image, longestSide: 32, thumbHash: true)
        blackHole(try PNGCodec.encode(p.preview))
    }
    @Sendable func scaled(_ bytes: [UInt8]) throws {
        let p = try Placeholder.make(from: bytes, longestSide: 32, thumbHash: true)
        blackHole(try PNGCodec.encode(p.preview))
    }
    if let n = ProcessInfo.processInfo.environment["BLURBENCH_PROFILE_SCALED"].flatMap(Int.init) {
        // For a profiler: only the DCT-scaled work, n times.
        for _ in 0..<n { for bytes in contents { try scaled(bytes) } }
        return
    }
    let fullOne = everyFile(parallel: false, full), scaledOne = everyFile(parallel: false, scaled)
    let scaledAll = everyFile(parallel: true, scaled)

    var peer = "not installed"
    var peerMs: Double?
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/placeholders_peer.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, folder, String(max(3, runs / 2))]
    let pipe = Pipe()
    process.standardOutput = pipe
    if (try? process.run()) != nil {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let seconds = json["seconds"] as? Double {
                peerMs = seconds * 1000; peer = "Pillow + thumbhash"
            } else if let missing = json["missing"] as? String {
                peer = "not installed (\(missing))"
            }
        }
    }
    emit("")
    emit("Placeholders for \(count) JPEG photos of 12 MP (32-px PNG preview, ThumbHash, average colour), one thread unless noted.")
    emit("")
    emit("| decoding at full size, then shrinking ms | DCT-scaled ms | speed-up | DCT-scaled, all cores ms | \(peer) ms | vs peer |")
    emit("|---|---|---|---|---|---|")
    let peerCell = peerMs.map { fmt($0) } ?? "—", ratio = peerMs.map { fmt($0 / scaledOne, 2) + "×" } ?? "—"
    emit("| \(fmt(fullOne)) | \(fmt(scaledOne)) | \(fmt(fullOne / scaledOne, 2))× | \(fmt(scaledAll)) | \(peerCell) | \(ratio) |")
    try benchPlaceholderCommands(files: files, folder: folder, runs: max(3, runs / 2), emit: emit)
}

/// `blurkit placeholder FILES --out DIR --jobs 1 --force` (previews, ThumbHashes, manifest) against
/// `vipsthumbnail FILES -s 32 -o DIR/%s.png` (previews only) with `VIPS_CONCURRENCY=1`: one job each,
/// interleaved, medians; wall seconds and peak RSS.
func benchPlaceholderCommands(files: [String], folder: String, runs: Int, emit: (String) -> Void) throws {
    let blurkit = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("blurkit").path
    guard FileManager.default.isExecutableFile(atPath: blurkit), FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
        let vipsthumbnail = which("vipsthumbnail")
    else {
        emit("\n(placeholders, whole process: needs \(blurkit), /usr/bin/time and vipsthumbnail: make peers)")
        return
    }
    let ours = folder + "/blurkit-out", theirs = folder + "/vips-out"
    for out in [ours, theirs] { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
    let tools: [(name: String, arguments: [String])] = [
        ("blurkit", [blurkit, "placeholder"] + files + ["--out", ours, "--jobs", "1", "--force", "--quiet"]),
        ("vipsthumbnail", ["/usr/bin/env", "VIPS_CONCURRENCY=1", vipsthumbnail] + files + ["-s", "32", "-o", theirs + "/%s.png"]),
    ]
    let (medians, memory) = try interleaved(tools, runs: runs)
    func med(_ name: String) -> Double { medians[name]! }
    emit("")
    emit(
        "The same \(files.count) photos, whole process, one job each: `blurkit placeholder … --jobs 1` (previews, ThumbHashes and the manifest) against `VIPS_CONCURRENCY=1 vipsthumbnail … -s 32` (previews only); median of \(runs), seconds and peak RSS in MB."
    )
    emit("")
    emit("| blurkit s | MB | vipsthumbnail s | MB | vipsthumbnail ÷ blurkit |")
    emit("|---|---|---|---|---|")
    let b = med("blurkit"), v = med("vipsthumbnail")
    emit("| \(fmt(b, 2)) | \(memory["blurkit"]! >> 10) | \(fmt(v, 2)) | \(memory["vipsthumbnail"]! >> 10) | \(fmt(v / b, 2))× |")
}
