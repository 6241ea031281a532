// BlurBench: release-built timings of BlurKit's kernels against the memory-copy floor and the peers
// installed on this machine (Pillow, OpenCV, libvips, through Benchmarks/peers.py), in one run.
//
//   swift run -c release BlurBench [--quick] [--runs N] [--no-peers] [--markdown FILE]
//
// `make bench` passes `--markdown docs/benchmarks.md`: the file is the tables under one header line
// (the machine, the date, the commit), replaced whole by each run.
//
// Prints a Markdown table: milliseconds (median of N), megapixels per second, the ratio of the
// fastest peer's time to ours, our time over the memory-copy floor, and each peer's PSNR against
// the float64 reference on a small photo (ours too).
import BlurKit
import Foundation

struct Options {
    var runs = 7
    var peers = true
    var quick = false
    var markdown: String?
    /// In process: the σ an interface uses (1…12) and the large ones; file to file, fewer.
    var sigmas: [Double] = [1, 2, 4, 8, 12, 24, 64]
    var fileSigmas: [Double] = [2, 8, 24, 64]
    var profileSigma: Double?
    var accuracy = false
    var threads: Int?

    init(_ arguments: [String]) {
        var it = arguments.dropFirst().makeIterator()
        while let a = it.next() {
            switch a {
            case "--quick": quick = true; runs = 3
            case "--runs": runs = Int(it.next() ?? "") ?? runs
            case "--no-peers": peers = false
            case "--markdown": markdown = it.next()
            case "--accuracy": accuracy = true
            case "--profile-progressive", "--profile-header", "--profile-material", "--scene-only", "--placeholders-only", "--files-only",
                "--progressive-only", "--glass-only", "--resize-only":
                break
            case "--profile": profileSigma = Double(it.next() ?? "")
            case "--threads": threads = Int(it.next() ?? "")
            case "--sigmas":
                sigmas = (it.next() ?? "").split(separator: ",").compactMap { Double($0) }
                fileSigmas = sigmas
            default:
                print(
                    "usage: BlurBench [--quick] [--runs N] [--no-peers] [--sigmas 2,8] [--markdown FILE] [--progressive-only | --placeholders-only | --files-only | --resize-only | --scene-only | --glass-only]"
                )
                exit(a == "--help" ? 0 : 2)
            }
        }
    }
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
}

func median(runs: Int, _ body: () -> Void) -> Double {
    body()  // warm up: page faults, caches
    let clock = ContinuousClock()
    let times = (0..<runs).map { _ in milliseconds(clock.measure(body)) }.sorted()
    return times[times.count / 2]
}

/// A photo-like test image: the fixture photo tiled with mirroring (no seams), any size.
func photo(width: Int, height: Int, from tile: Bitmap) throws -> Bitmap {
    let src = tile.premultipliedRGBA
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        let ty = (y / tile.height) % 2 == 0 ? y % tile.height : tile.height - 1 - y % tile.height
        for x in 0..<width {
            let tx = (x / tile.width) % 2 == 0 ? x % tile.width : tile.width - 1 - x % tile.width
            for c in 0..<4 { bytes[(y * width + x) * 4 + c] = src[(ty * tile.width + tx) * 4 + c] }
        }
    }
    return try Bitmap(width: width, height: height, premultipliedRGBA: bytes)
}

func fmt(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }

let options = Options(CommandLine.arguments)
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let tile = try ImageFile.read(root.appendingPathComponent("Tests/Fixtures/chelsea.png").path)
if CommandLine.arguments.contains("--profile-material") {
    try profileMaterial(tile: tile)
    exit(0)
}
if CommandLine.arguments.contains("--profile-progressive") {
    try profileProgressive(tile: tile, threads: options.threads)
    exit(0)
}
if CommandLine.arguments.contains("--profile-header") {
    try profileHeader(tile: tile, threads: options.threads)
    exit(0)
}
if CommandLine.arguments.contains("--progressive-only") {
    let images = try (options.quick ? [(1920, 1080)] : [(6000, 4000), (1920, 1080)]).map {
        ($0.0, $0.1, try photo(width: $0.0, height: $0.1, from: tile))
    }
    try benchProgressive(images: images, tile: tile, runs: options.runs) { print($0) }
    for line in Targets.table() { print(line) }
    exit(0)
}
if CommandLine.arguments.contains("--placeholders-only") {
    try benchPlaceholders(tile: tile, runs: options.runs, quick: options.quick) { print($0) }
    exit(0)
}
if CommandLine.arguments.contains("--resize-only") {
    try benchResize(tile: tile, runs: options.runs, quick: options.quick) { print($0) }
    for line in Targets.table() { print(line) }
    exit(0)
}
if CommandLine.arguments.contains("--files-only") {
    try benchFiles(tile: tile, runs: min(options.runs, 3), quick: options.quick, sigmas: options.fileSigmas) { print($0) }
    for line in Targets.table() { print(line) }
    exit(0)
}
if CommandLine.arguments.contains("--glass-only") {
    try benchGlass(tile: tile, runs: options.runs) { print($0) }
    for line in Targets.table() { print(line) }
    exit(0)
}
if CommandLine.arguments.contains("--scene-only") {
    try benchScene(tile: tile, runs: options.runs) { print($0) }
    exit(0)
}
if options.accuracy {
    try accuracySweep(tile: tile)
    exit(0)
}
if let sigma = options.profileSigma {
    try profile(sigma: sigma, seconds: 5, tile: tile, threads: options.threads)
    exit(0)
}
let sizes = options.quick ? [(1920, 1080)] : [(6000, 4000), (1920, 1080)]
let work = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

print("BlurBench: \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(options.runs) runs")
var images: [(Int, Int, Bitmap)] = []
for (w, h) in sizes {
    let image = try photo(width: w, height: h, from: tile)
    images.append((w, h, image))
    let raw = work.appendingPathComponent("\(w)x\(h).rgba")
    try Data(image.premultipliedRGBA).write(to: raw)
}
try Data(tile.premultipliedRGBA).write(to: work.appendingPathComponent("accuracy.rgba"))

// Peers, in a child process, before our own timings so both see the same machine state.
var peerTimes: [String: [String: Double]] = [:]  // "WxH σ" → peer → ms
var peerNames: [String] = []
var missing: [String] = []
if options.peers {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
        [
            "python3", root.appendingPathComponent("Benchmarks/peers.py").path,
            "--accuracy", work.appendingPathComponent("accuracy.rgba").path + ":\(tile.width)x\(tile.height)",
            "--sigmas", options.sigmas.map { fmt($0, 0) }.joined(separator: ","),
            "--runs", String(max(3, options.runs / 2)), "--out", work.path,
        ]
        + sizes.flatMap { ["--image", work.appendingPathComponent("\($0.0)x\($0.1).rgba").path + ":\($0.0)x\($0.1)"] }
    let pipe = Pipe()
    process.standardOutput = pipe
    print("timing peers (Benchmarks/peers.py)…")
    do {
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let name = object["missing"] as? String { missing.append(name); continue }
            guard let peer = object["peer"] as? String, let w = object["width"] as? Int, let h = object["height"] as? Int,
                let sigma = object["sigma"] as? Double, let ms = object["ms"] as? Double
            else { continue }
            if !peerNames.contains(peer) { peerNames.append(peer) }
            peerTimes["\(w)x\(h) \(fmt(sigma, 0))", default: [:]][peer] = ms
        }
    } catch {
        print("peers not run: \(error)")
    }
}

var lines: [String] = []
@MainActor func emit(_ line: String) { print(line); lines.append(line) }

// Accuracy on the small photo: ours and each peer's against the float64 reference.
emit("")
emit("Accuracy against the float64 reference (\(tile.width)×\(tile.height) photo, `.clamp` edges): PSNR dB / max error")
emit("")
emit("| σ | BlurKit | " + peerNames.joined(separator: " | ") + " |")
emit("|---|---|" + peerNames.map { _ in "---|" }.joined())
for sigma in options.sigmas {
    let blur = try GaussianBlur(sigma: sigma)
    let reference = blur.reference(tile)
    let ours = ImageDifference(reference, blur.apply(to: tile))
    Targets.accuracy("Gaussian σ \(fmt(sigma, 0)): accuracy", psnr: ours.psnr, maximum: ours.maximum)
    var row = "| \(fmt(sigma, 0)) | \(describe(ours)) |"
    for peer in peerNames {
        let path = work.appendingPathComponent("\(peer)-\(fmt(sigma, 0)).rgba").path
        if let data = FileManager.default.contents(atPath: path),
            let theirs = try? Bitmap(width: tile.width, height: tile.height, straightRGBA: [UInt8](data))
        {
            row += " \(describe(ImageDifference(reference, theirs))) |"
        } else {
            row += " — |"
        }
    }
    emit(row)
}
func describe(_ d: ImageDifference) -> String {
    (d.psnr.isInfinite ? "∞" : fmt(d.psnr)) + " / \(d.maximum)"
}

// Speed.
emit("")
emit("Gaussian blur, RGBA 8-bit, `.clamp` edges, all cores; ms (median), MP/s; “vs fastest peer” = peer time ÷ ours.")
emit("")
emit(
    "| image | σ | BlurKit ms | MP/s | " + peerNames.map { "\($0) ms" }.joined(separator: " | ") + (peerNames.isEmpty ? "" : " | ")
        + "vs fastest peer | × copy floor |")
emit("|---|---|---|---|" + peerNames.map { _ in "---|" }.joined() + (peerNames.isEmpty ? "" : "") + "---|---|")
for (w, h, image) in images {
    let source = image.premultipliedRGBA
    var copy = source
    let floor = median(runs: options.runs) {
        copy.withUnsafeMutableBufferPointer { dst in
            source.withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: src.count) }
        }
        blackHole(copy)
    }
    for sigma in options.sigmas {
        let blur = try GaussianBlur(sigma: sigma)
        let ms = median(runs: options.runs) { blackHole(blur.apply(to: image)) }
        let mp = Double(w * h) / 1e6
        var row = "| \(w)×\(h) | \(fmt(sigma, 0)) | \(fmt(ms)) | \(fmt(mp / ms * 1000, 0)) |"
        let theirs = peerTimes["\(w)x\(h) \(fmt(sigma, 0))"] ?? [:]
        for peer in peerNames { row += " \(theirs[peer].map { fmt($0) } ?? "—") |" }
        let fastest = theirs.values.min()
        row += " \(fastest.map { fmt($0 / ms, 2) + "×" } ?? "—") | \(fmt(ms / floor, 1))× |"
        if let fastest { Targets.atLeast("Gaussian \(w)×\(h) σ \(fmt(sigma, 0)): fastest peer ÷ BlurKit", fastest / ms, 2) }
        if w == 6000, sigma <= 2 { Targets.atMost("Gaussian \(w)×\(h) σ \(fmt(sigma, 0)): × the copy floor", ms / floor, 2.5) }
        emit(row)
    }
    emit(
        "| \(w)×\(h) | copy floor | \(fmt(floor, 1)) | \(fmt(Double(w * h) / 1e6 / floor * 1000, 0)) |" + peerNames.map { _ in " |" }.joined()
            + " | |")
}
if !missing.isEmpty { emit("\nNot installed, not measured: \(missing.joined(separator: ", ")).") }

try benchProgressive(images: images, tile: tile, runs: options.runs, emit: emit)
// A material over a full phone screen (1170×2532, 3×) at its default radius, against a uniform blur
// of the same σ (24 pt × 3 = 72 px), same run.
do {
    let screen = try photo(width: 1170, height: 2532, from: tile)
    var retina = screen
    retina.scale = 3
    let frame = Rect(x: 0, y: 0, width: 390, height: 844)
    let uniform = try GaussianBlur(sigma: 72)
    let u = median(runs: options.runs) { blackHole(uniform.apply(to: screen)) }
    let m = median(runs: options.runs) { blackHole(Material(style: .systemMaterial).render(over: retina, frame: frame)) }
    let rounded = median(runs: options.runs) {
        blackHole(Material(style: .systemMaterial, cornerRadius: 40).render(over: retina, frame: frame, appearance: .dark))
    }
    emit("")
    emit("Material `.systemMaterial` at its default radius over a full 1170×2532 frame (390×844 pt at 3×), against a uniform σ 72 px blur.")
    emit("")
    emit("| uniform σ 72 ms | material ms | ratio | dark, 40-pt corners ms |")
    emit("|---|---|---|---|")
    emit("| \(fmt(u)) | \(fmt(m)) | \(fmt(m / u, 2))× | \(fmt(rounded)) |")
}
try benchFiles(tile: tile, runs: min(options.runs, 3), quick: options.quick, sigmas: options.fileSigmas, emit: emit)
try benchResize(tile: tile, runs: options.runs, quick: options.quick, emit: emit)
try benchScene(tile: tile, runs: options.runs, emit: emit)
try benchGlass(tile: tile, runs: options.runs, emit: emit)
try benchPlaceholders(tile: tile, runs: options.runs, quick: options.quick, emit: emit)
if let path = options.markdown {
    let page =
        ["# Benchmarks: \(machine()) · \(today()) · commit \(commit(of: root))", "", "Written by `make bench`; each run replaces it."]
        + Targets.table() + lines
    try (page.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

/// The CPU's model (`/proc/cpuinfo`'s model name where there is one) and the cores this process may use.
func machine() -> String {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":", maxSplits: 1).last
    let name = model.map { $0.trimmingCharacters(in: .whitespaces) } ?? ProcessInfo.processInfo.operatingSystemVersionString
    return "\(name), \(ProcessInfo.processInfo.activeProcessorCount) cores"
}

/// Today's date, UTC, as YYYY-MM-DD.
func today() -> String {
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    return format.string(from: Date())
}

/// The commit of the repository at `package` (`git describe --always --dirty`: `-dirty` when the tree has changes), or "unknown".
func commit(of package: URL) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", package.path, "describe", "--always", "--dirty", "--abbrev=7"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "unknown" }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let hash = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return process.terminationStatus == 0 && !hash.isEmpty ? hash : "unknown"
}
