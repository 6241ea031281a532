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
