import BlurKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whole process, file to file: `blurkit blur` against the libvips command line (`vips gaussblur`)
/// and ImageMagick (`convert -blur`, at small σ only: its cost grows with σ) where installed, on the
/// same photo, interleaved, medians of `runs`; wall time and peak RSS (`/usr/bin/time`), and
/// each output's size. JPEG is written at quality 90 by all; PNG at each tool's default. Beside
/// them, the command's decoder and encoder each alone in process: the floor the command overlaps.
@MainActor func benchFiles(tile: Bitmap, runs: Int, quick: Bool, sigmas: [Double], emit: (String) -> Void) throws {
    let blurkit = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("blurkit").path
    guard FileManager.default.isExecutableFile(atPath: blurkit), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
        emit("\n(file to file: needs \(blurkit), which `make bench` builds, and /usr/bin/time: apt-get install time)")
        return
    }
    let vips = which("vips"), magick = which("convert").flatMap { isImageMagick($0) ? $0 : nil }
    let (w, h) = quick ? (1920, 1080) : (6000, 4000)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-files-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let photo = try grainy(photo(width: w, height: h, from: tile))
    // The input PNG as photo exports usually are: Paeth-filtered, zlib level 6 (libpng's default).
    try AtomicFile.write(try ImageFile.encode(photo, as: .png, compression: 6), to: folder + "/photo.png")
    try ImageFile.write(photo, to: folder + "/photo.jpg", quality: 90)

    emit("")
    emit(
        "File to file, whole process (`blurkit blur IN OUT --sigma σ` against `vips gaussblur IN OUT σ`\(magick == nil ? "" : " and `convert IN -blur 0xσ OUT`")), "
            + "a \(w)×\(h) photo (PNG input at zlib level 6, JPEG input at quality 90), interleaved, median of \(runs); seconds, peak RSS in MB, output size in MB. JPEG at quality 90 for all; PNG at each tool's default. "
            + "decode s and encode s: BlurKit's decoder (one thread, every row read to nowhere) and encoder (the blurred rows to memory), each alone in process."
    )
    emit("")
    // The command's own parts, each alone in this process: the decoder (one thread, as in the
    // command) reading every row to nowhere, and the encoder writing the blurred rows to memory.
    let decode = try ["jpg": decodeSeconds(folder + "/photo.jpg", runs: runs), "png": decodeSeconds(folder + "/photo.png", runs: runs)]
    var header = "| file | σ | blurkit s | MB | out MB | decode s | encode s | blurkit ÷ decode |"
    var rule = "|---|---|---|---|---|---|---|---|"
    if vips != nil {
        header += " vips s | MB | out MB | vips ÷ blurkit |"
        rule += "---|---|---|---|"
    }
    if magick != nil {
        header += " convert s | MB |"
        rule += "---|---|"
    }
    emit(header)
    emit(rule)
    for suffix in ["jpg", "png"] {
        for sigma in sigmas {
            let input = folder + "/photo." + suffix
            let s = fmt(sigma, 0)
            var tools: [(name: String, arguments: [String], output: String)] = [
                ("blurkit", [blurkit, "blur", input, folder + "/bk." + suffix, "--sigma", s], folder + "/bk." + suffix)
            ]
            if let vips {
                let out = folder + "/vips." + suffix
                tools.append(("vips", [vips, "gaussblur", input, suffix == "jpg" ? out + "[Q=90]" : out, s], out))
            }
            if let magick, sigma <= 8 {
                let out = folder + "/im." + suffix
                tools.append(("convert", [magick, input, "-blur", "0x\(s)"] + (suffix == "jpg" ? ["-quality", "90"] : []) + [out], out))
            }
            let (medians, memory) = try interleaved(tools.map { ($0.name, $0.arguments) }, runs: runs)
            func med(_ name: String) -> Double { medians[name]! }
            func size(_ path: String) -> String { fmt(Double((try? AtomicFile.read(path).count) ?? 0) / 1e6, 1) }
            let ours = med("blurkit")
            let blurred = try GaussianBlur(sigma: sigma).apply(to: ImageFile.read(input))
            let encode = try encodeSeconds(blurred, as: suffix == "jpg" ? .jpeg : .png, runs: runs)
            var row = "| \(suffix == "jpg" ? "JPEG" : "PNG") | \(s) | \(fmt(ours, 2)) | \(memory["blurkit"]! >> 10) | \(size(tools[0].output)) |"
            row += " \(fmt(decode[suffix]!, 2)) | \(fmt(encode, 2)) | \(fmt(ours / decode[suffix]!, 2))× |"
            if vips != nil {
                let theirs = med("vips")
                row += " \(fmt(theirs, 2)) | \(memory["vips"]! >> 10) | \(size(tools[1].output)) | \(fmt(theirs / ours, 2))× |"
                Targets.atLeast("file to file \(suffix == "jpg" ? "JPEG" : "PNG") \(w)×\(h) σ \(s): vips ÷ blurkit", theirs / ours, 2)
            }
            if magick != nil {
                row += medians["convert"] == nil ? " — | — |" : " \(fmt(med("convert"), 2)) | \(memory["convert"]! >> 10) |"
            }
            emit(row)
        }
    }
    if vips == nil { emit("\n`vips` is not installed: `make peers` installs libvips-tools.") }
}

/// The decoder alone: every row of `path` read by the pipeline's own source (libjpeg-turbo or
/// libpng, on this thread, as the command's decoding thread reads it) into one band that is
/// overwritten; median seconds of `runs`.
func decodeSeconds(_ path: String, runs: Int) throws -> Double {
    var failure: (any Error)?
    let ms = median(runs: runs) {
        do {
            let (source, _, _) = try ImagePipeline.open(try InputFile(path: path))
            let band = StreamingDefaults.bandRows(width: source.width), width = source.width
            var buffer = [UInt8](repeating: 0, count: band * width * 4)
            try buffer.withUnsafeMutableBufferPointer { bytes in
                var y = 0
                while y < source.height {
                    let n = min(band, source.height - y)
                    try source.read(into: MutablePixelView(base: bytes.baseAddress!, width: width, height: n, bytesPerRow: width * 4, firstRow: y))
                    y += n
                }
            }
        } catch { failure = error }
    }
    if let failure { throw failure }
    return ms / 1000
}

/// The encoder alone: `image` written as `format` (JPEG at quality 90, PNG at the default level)
/// by the pipeline's own sink, a band at a time as the command feeds it, into memory; median
/// seconds of `runs`.
func encodeSeconds(_ image: Bitmap, as format: ImageFormat, runs: Int) throws -> Double {
    var failure: (any Error)?
    let ms = median(runs: runs) {
        do {
            let file = try OutputFile(memoryNamed: "the output")
            let sink = try ImagePipeline.sink(
                for: .init(format: format, quality: 90), width: image.width, height: image.height, alpha: false, output: file)
            let band = StreamingDefaults.bandRows(width: image.width)
            try image.withPixels { pixels in
                var y = 0
                while y < image.height {
                    let rows = y..<min(image.height, y + band)
                    try sink.write(pixels.band(rows))
                    y = rows.upperBound
                }
            }
            try sink.finish()
        } catch { failure = error }
    }
    if let failure { throw failure }
    return ms / 1000
}

enum BenchError: Error { case failed(String) }

/// Runs each tool `runs` times, interleaved so that all see the same machine state: by name, the
/// median wall seconds and the peak RSS in KB. Throws when a run fails.
func interleaved(_ tools: [(name: String, arguments: [String])], runs: Int) throws -> (medians: [String: Double], peakKB: [String: Int]) {
    var times: [String: [Double]] = [:], memory: [String: Int] = [:]
    for _ in 0..<runs {
        for tool in tools {
            let r = measure(tool.arguments)
            guard r.status == 0 else { throw BenchError.failed(tool.arguments.joined(separator: " ")) }
            times[tool.name, default: []].append(r.seconds)
            memory[tool.name] = max(memory[tool.name] ?? 0, r.maxRSS)
        }
    }
    return (times.mapValues { $0.sorted()[$0.count / 2] }, memory)
}

/// A program's path on PATH, or nil.
func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// True when `convert -version` says it is ImageMagick (not a stand-in of the same name).
func isImageMagick(_ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-version"]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 && text.contains("ImageMagick")
}

/// Runs `arguments` (output to /dev/null) under `/usr/bin/time`: wall time, the command's peak RSS in
/// KB, exit status. (Not `wait4` of our own child: a child spawned from this process starts out
/// sharing its memory, and the kernel's peak counts that.)
func measure(_ arguments: [String]) -> (seconds: Double, maxRSS: Int, status: Int32) {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("blurbench-rss-\(getpid())").path
    defer { unlink(report) }
    let r = spawn(["/usr/bin/time", "-f", "%M", "-o", report] + arguments)
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap { Int($0) } ?? 0
    return (r.seconds, kilobytes, r.status)
}

/// Runs `arguments` (output to /dev/null): wall time and exit status.
func spawn(_ arguments: [String]) -> (seconds: Double, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let clock = ContinuousClock(), start = clock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return (0, -1) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return (milliseconds(clock.now - start) / 1000, status)
}

/// The photo with a camera's grain (±3, deterministic), so that PNG sizes are those of a photo
/// rather than of a smooth texture.
func grainy(_ image: Bitmap) throws -> Bitmap {
    var bytes = image.premultipliedRGBA
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for i in stride(from: 0, to: bytes.count, by: 4) {
        for c in 0..<3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int((state >> 33) % 7) - 3
            bytes[i + c] = UInt8(max(0, min(255, Int(bytes[i + c]) + noise)))
        }
    }
    return try Bitmap(width: image.width, height: image.height, premultipliedRGBA: bytes)
}
