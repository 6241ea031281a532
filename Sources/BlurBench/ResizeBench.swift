import BlurCore
import BlurKit
import Foundation

/// Resize, whole process, file to file: `blurkit resize IN OUT --width 1200` against libvips's
/// `vips thumbnail IN OUT 1200` (shrink-on-load, then a Lanczos-3 reduce: the engine under sharp
/// and imgproxy) on the same 6000×4000 photo as a JPEG (quality 90) and a PNG, interleaved,
/// medians of `runs`: wall seconds, peak RSS, each output's accuracy against the float64 reference
/// (`LanczosReference` over the fully decoded input, PSNR over the RGB bytes) — the accuracy of the
/// whole path, shrink-on-load included. Then the kernels' own accuracy, on a PNG of 1500×1000 to
/// 300 wide (no shrink-on-load for either).
@MainActor func benchResize(tile: Bitmap, runs: Int, quick: Bool, emit: (String) -> Void) throws {
    let blurkit = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("blurkit").path
    guard FileManager.default.isExecutableFile(atPath: blurkit), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
        emit("\n(resize, file to file: needs \(blurkit), which `make bench` builds, and /usr/bin/time)")
        return
    }
    let vips = which("vips")
    let (w, h) = quick ? (1920, 1280) : (6000, 4000)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-resize-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let photo = try grainy(photo(width: w, height: h, from: tile))
    try ImageFile.write(photo, to: folder + "/photo.jpg", quality: 90)
    try AtomicFile.write(try ImageFile.encode(photo, as: .png, compression: 6), to: folder + "/photo.png")

    emit("")
    emit(
        "Resize, file to file, whole process (`blurkit resize IN OUT --width 1200` against `vips thumbnail IN OUT 1200`), a \(w)×\(h) photo, "
            + "interleaved, median of \(runs); seconds, peak RSS in MB. JPEG out at quality 90 with 4:2:0 chroma for both (vips told `subsample-mode=on`: it keeps 4:4:4 at 90 otherwise; "
            + "the pixels are compared decoded). dB: the output against the float64 Lanczos-3 of the whole decoded input "
            + "(shrink-on-load included; RGB bytes).")
    emit("")
    emit("| input | blurkit s | MB | dB | vips s | MB | dB | vips ÷ blurkit | target |")
    emit("|---|---|---|---|---|---|---|---|---|")
    for suffix in ["jpg", "png"] {
        let input = folder + "/photo." + suffix, ours = folder + "/bk." + suffix, theirs = folder + "/vips." + suffix
        var tools: [(name: String, arguments: [String])] = [("blurkit", [blurkit, "resize", input, ours, "--width", "1200"])]
        if let vips { tools.append(("vips", [vips, "thumbnail", input, suffix == "jpg" ? theirs + "[Q=90,subsample-mode=on]" : theirs, "1200"])) }
        let (medians, memory) = try interleaved(tools, runs: runs)
        let decoded = try ImageFile.read(input)
        let plan = Resize(width: 1200, height: nil).plan(sourceWidth: decoded.width, sourceHeight: decoded.height)
        let reference = LanczosReference.resize(decoded, plan: plan)
        func decibels(_ path: String) -> String {
            guard let image = try? ImageFile.read(path), image.width == reference.width, image.height == reference.height else { return "—" }
            return fmt(ImageDifference(reference, image).psnr, 1)
        }
        let ourTime = medians["blurkit"]!
        var row = "| \(suffix == "jpg" ? "JPEG" : "PNG") | \(fmt(ourTime, 3)) | \(memory["blurkit"]! >> 10) | \(decibels(ours)) |"
        if vips != nil, let theirTime = medians["vips"] {
            row += " \(fmt(theirTime, 3)) | \(memory["vips"]! >> 10) | \(decibels(theirs)) | \(fmt(theirTime / ourTime, 2))× | ≥ 1.5× |"
            Targets.atLeast("resize file to file \(suffix == "jpg" ? "JPEG" : "PNG") \(w)×\(h) → 1200 wide: vips ÷ blurkit", theirTime / ourTime, 1.5)
        } else {
            row += " — | — | — | — | ≥ 1.5× |"
        }
        emit(row)
    }
    try benchResizeInProcess(photo, runs: runs, folder: folder, emit: emit)
    // The kernels alone: a PNG (no shrink-on-load), 1500×1000 to 300 wide.
    let small = try photo.resized(width: 1500, height: 1000)
    try ImageFile.write(small, to: folder + "/small.png")
    let plan = Resize(width: 300, height: nil).plan(sourceWidth: 1500, sourceHeight: 1000)
    let reference = LanczosReference.resize(small, plan: plan)
    var fast: Bitmap?
    let ms = median(runs: runs) {
        fast = try? LanczosStage(sourceWidth: 1500, sourceHeight: 1000, plan: plan).run(small, parts: nil, checkpoint: {})
    }
    var line =
        "Kernel accuracy, 1500×1000 PNG to 300 wide, against the float64 reference: BlurKit \(fast.map { fmt(ImageDifference(reference, $0).psnr, 1) } ?? "—") dB in \(fmt(ms, 1)) ms in process"
    if let vips {
        let out = folder + "/vips-small.png"
        _ = try interleaved([("vips", [vips, "thumbnail", folder + "/small.png", out, "300"])], runs: 1)
        if let image = try? ImageFile.read(out), image.width == reference.width, image.height == reference.height {
            line += "; libvips \(fmt(ImageDifference(reference, image).psnr, 1)) dB"
        }
    }
    emit("")
    emit(line + ".")
}

/// Resize in process: the `w × h` photo in memory to 1200 wide, BlurKit's streaming reduce
/// (`LanczosStage`, every core) against Pillow's `resize(LANCZOS)`, OpenCV's `INTER_AREA` and
/// libvips's `resize` (`Benchmarks/resize_peers.py`, each in its own process over the same raw
/// pixels), medians of `runs`; each output held to the float64 Lanczos-3 of the photo. The target:
/// at least twice as fast as the fastest peer that is as accurate or more.
@MainActor func benchResizeInProcess(_ photo: Bitmap, runs: Int, folder: String, emit: (String) -> Void) throws {
    let plan = Resize(width: 1200, height: nil).plan(sourceWidth: photo.width, sourceHeight: photo.height)
    let raw = folder + "/photo.rgba"
    try Data(photo.premultipliedRGBA).write(to: URL(fileURLWithPath: raw))
    var peers: [(name: String, ms: Double, file: String)] = []
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/resize_peers.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", script, "--image", raw + ":\(photo.width)x\(photo.height)", "--width", String(plan.width), "--height", String(plan.height),
        "--runs", String(max(3, runs)), "--out", folder,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    var missing: [String] = []
    if (try? process.run()) != nil {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let name = object["missing"] as? String { missing.append(name); continue }
            if let name = object["peer"] as? String, let ms = object["ms"] as? Double, let file = object["file"] as? String {
                peers.append((name, ms, file))
            }
        }
    }
    let reference = LanczosReference.resize(photo, plan: plan)
    var ours: Bitmap?
    let ms = median(runs: runs) {
        ours = try? LanczosStage(sourceWidth: photo.width, sourceHeight: photo.height, plan: plan).run(photo, parts: nil, checkpoint: {})
    }
    func decibels(_ image: Bitmap?) -> Double? {
        guard let image, image.width == reference.width, image.height == reference.height else { return nil }
        return ImageDifference(reference, image).psnr
    }
    let ourDB = decibels(ours)
    emit("")
    emit(
        "Resize in process: the \(photo.width)×\(photo.height) photo in memory to \(plan.width)×\(plan.height), median of \(runs) (peers: "
            + "`Benchmarks/resize_peers.py`, median of \(max(3, runs)) after a warm-up); dB against the float64 Lanczos-3 of the photo. "
            + "Target: BlurKit at least 2× the fastest peer as accurate or more."
            + (missing.isEmpty ? "" : " Not installed here: \(missing.joined(separator: ", ")) (`make peers`)."))
    emit("")
    emit("| tool | ms | dB | tool ÷ BlurKit |")
    emit("|---|---|---|---|")
    emit("| BlurKit `LanczosStage` | \(fmt(ms, 1)) | \(ourDB.map { fmt($0, 1) } ?? "—") | 1.00× |")
    var rivals: [Double] = []
    for peer in peers {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: peer.file))).map { [UInt8]($0) } ?? []
        let image = try? Bitmap(width: plan.width, height: plan.height, premultipliedRGBA: bytes)
        let db = decibels(image)
        emit("| \(peer.name) | \(fmt(peer.ms, 1)) | \(db.map { fmt($0, 1) } ?? "—") | \(fmt(peer.ms / ms, 2))× |")
        if let db, let ourDB, db >= ourDB - 0.05 { rivals.append(peer.ms) }
    }
    // Held to the fastest peer as accurate as BlurKit, or, when none is, the fastest of all.
    if let fastest = (rivals.isEmpty ? peers.map(\.ms) : rivals).min() {
        emit("")
        emit(
            "The fastest peer \(rivals.isEmpty ? "(none is as accurate)" : "as accurate or more") takes \(fmt(fastest / ms, 2))× BlurKit's time (target ≥ 2×)."
        )
        Targets.atLeast("resize in process \(photo.width)×\(photo.height) → \(plan.width): fastest peer ÷ BlurKit", fastest / ms, 2)
    }
}
