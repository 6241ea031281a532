import BlurCommandLine
import BlurKit
import Dispatch
import Foundation
import Synchronization

/// `blurkit placeholder INPUT… --out DIR`: the tiny previews of many images, in parallel, with a
/// manifest; a rerun skips what is up to date.
enum PlaceholderCommand: Command {
    static let name = "placeholder"
    static let summary = "tiny blur-up previews, ThumbHashes and a manifest for many images"
    static let usage = "blurkit placeholder INPUT… --out DIR [--size N] [--jobs N] [options]"
    static let operandCount = 1...Int.max
    static let readsFirstWritesSecond = false

    static let jobs = ParameterSpec(name: "jobs", unit: "", range: 1...256, defaultValue: nil, integer: true,
                                    summary: "images in flight at once (default: one per core)")
    static let options: [OptionSpec] = [
        OptionSpec(name: "out", value: "DIR", help: "the folder for the previews and manifest.json (created if missing; required)"),
        OptionSpec(Placeholder.sizeSpec, value: "N"),
        OptionSpec(jobs, value: "N"),
        OptionSpec(name: "no-thumbhash", value: nil, help: "leave ThumbHash out of the manifest"),
        OptionSpec(name: "force", value: nil, help: "remake every preview, even those up to date"),
        OptionSpec(name: "quiet", value: nil, help: "no progress line and no summary"),
    ] + StandardOptions.limits

    static let details = """
            Makes the blur-up preview of each image: a PNG whose longest side is at most --size pixels (aspect
            kept, area-averaged), named after the input, and DIR/manifest.json listing for each input its
            size, the preview (file and data URI), its ThumbHash (base64) and average colour. INPUTs are
            image files or folders (searched recursively for .png .jpg .jpeg .webp .gif .pam .ppm .pgm).
            JPEGs decode at reduced size through libjpeg's DCT scaling. A preview newer than its input is up
            to date and skipped, so a rerun resumes. Failures are listed at the end (exit status 1); every
            other file is still done. Ctrl-C stops after the files in flight, keeping a valid manifest.
            """

    struct Job: Sendable {
        let input: String
        let name: String  // the preview's file name
    }

    struct Entry: Sendable {
        let json: String
    }

    static func run(_ arguments: ParsedArguments) throws -> String? {
        guard let out = arguments.values["out"] else { throw CLIError.usage("placeholder needs --out DIR") }
        let size = try arguments.integer(Placeholder.sizeSpec)!
        let parallel = try arguments.integer(jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let withHash = !arguments.has("no-thumbhash"), force = arguments.has("force"), quiet = arguments.has("quiet")

        let inputs = try collect(arguments.operands, skipping: out)
        guard !inputs.isEmpty else { throw CLIError.failure("no images found in \(arguments.operands.joined(separator: ", "))") }
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw FileError.cannotWrite(path: out, reason: "cannot create the folder")
        }
        let manifestPath = (out as NSString).appendingPathComponent("manifest.json")
        // Entries of the last run, by input path, when it used the same settings.
        let previous = force ? [:] : previousEntries(manifestPath, size: size, thumbHash: withHash)

        // Preview names: the input's file name (suffix kept, so p.jpg and p.png never share one) plus
        // .png; where two inputs in different folders share a file name, a hash of each one's path
        // tells them apart. A name depends on its input alone, never on the order of the others.
        let fileNames = inputs.map { ($0 as NSString).lastPathComponent }
        var counts: [String: Int] = [:]
        for name in fileNames { counts[name, default: 0] += 1 }
        let jobsList = zip(inputs, fileNames).map { input, fileName in
            Job(input: input, name: counts[fileName]! > 1 ? "\(fileName)-\(pathHash(input)).png" : fileName + ".png")
        }

        Interruption.install()
        let state = Mutex<(next: Int, done: Int, made: Int, skipped: Int, entries: [Int: String], failures: [(String, String)])>((0, 0, 0, 0, [:], []))
        let progress = Mutex(ProgressLine(quiet: quiet))
        let total = jobsList.count, work = jobsList
        DispatchQueue.concurrentPerform(iterations: max(1, min(parallel, total))) { _ in
            while Interruption.signal == nil {
                let index: Int? = state.withLock { s in
                    guard s.next < total else { return nil }
                    s.next += 1
                    return s.next - 1
                }
                guard let index else { return }
                let job = work[index]
                let result = process(job, out: out, size: size, thumbHash: withHash, previous: previous[job.input])
                state.withLock { s in
                    s.done += 1
                    switch result {
                    case let .made(json): s.made += 1; s.entries[index] = json
                    case let .upToDate(json): s.skipped += 1; s.entries[index] = json
                    case let .failed(message): s.failures.append((job.input, message))
                    }
                    let line = "placeholders: \(s.done)/\(total) (\(s.made) made, \(s.skipped) up to date, \(s.failures.count) failed)"
                    progress.withLock { $0.show(line) }
                }
            }
        }
        progress.withLock { $0.finish() }
        let final = state.withLock { $0 }
        // The manifest lists what is done, in input order; an interrupted run keeps the last run's
        // entries for the files it did not reach, so the next run can still skip them.
        var lines: [String] = []
        for (index, job) in jobsList.enumerated() {
            // A failed input's old entry is dropped (its file is gone or now corrupt); one that was
            // not reached keeps it.
            if let json = final.entries[index] {
                lines.append(json)
            } else if !final.failures.contains(where: { $0.0 == job.input }), let old = previous[job.input] {
                lines.append(old.json)
            }
        }
        let manifest = "{\n  \"size\": \(size),\n  \"thumbHash\": \(withHash),\n  \"images\": [\n" + lines.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]\n}\n"
        var summary = "\(final.made) made, \(final.skipped) up to date, \(final.failures.count) failed, of \(total); manifest: \(manifestPath)"
        if !final.failures.isEmpty {
            summary += "\nfailed:\n" + final.failures.sorted { $0.0 < $1.0 }.map { "  \($0.0): \($0.1)" }.joined(separator: "\n")
        }
        do { try AtomicFile.write(Array(manifest.utf8), to: manifestPath) } catch {
            // Out of disk: say so, and still list what failed.
            throw CLIError.failure("\(error)\n\(summary.replacingOccurrences(of: "; manifest: \(manifestPath)", with: "; the manifest was not written"))")
        }
        if let signal = Interruption.signal {
            throw CLIError.interrupted("interrupted: \(summary)\n\(total - final.done) not started; rerun to finish", signal: signal)
        }
        if !final.failures.isEmpty { throw CLIError.failure(summary) }
        return quiet ? nil : summary
    }

    enum Outcome { case made(String), upToDate(String), failed(String) }

    static func process(_ job: Job, out: String, size: Int, thumbHash: Bool, previous: Entry?) -> Outcome {
        let previewPath = (out as NSString).appendingPathComponent(job.name)
        if let previous, let previewDate = modified(previewPath), let inputDate = modified(job.input), previewDate >= inputDate {
            return .upToDate(previous.json)
        }
        do {
            if AtomicFile.sameFile(job.input, previewPath) { throw FileError.wouldOverwriteInput(path: previewPath) }
            let placeholder = try Placeholder.make(from: try AtomicFile.read(job.input), longestSide: size, thumbHash: thumbHash)
            let png = try PNGCodec.encode(placeholder.preview)
            try AtomicFile.write(png, to: previewPath)
            return .made(entry(job, placeholder, png: png))
        } catch {
            return .failed("\(error)")
        }
    }

    static func entry(_ job: Job, _ p: Placeholder, png: [UInt8]) -> String {
        func hex(_ v: Double) -> String { String(format: "%02X", Int((min(1, max(0, v)) * 255).rounded())) }
        let c = p.averageColor
        let colour = "#" + hex(c.red) + hex(c.green) + hex(c.blue) + (c.alpha < 1 ? hex(c.alpha) : "")
        // Keys sorted, as the entries carried over from an earlier manifest are.
        var fields = [
            "\"averageColor\":\"\(colour)\"",
            "\"file\":\(quoted(job.input))",
            "\"height\":\(p.sourceHeight)",
            "\"preview\":{\"dataURI\":\"data:image/png;base64,\(Data(png).base64EncodedString())\",\"file\":\(quoted(job.name)),\"height\":\(p.preview.height),\"width\":\(p.preview.width)}",
        ]
        if let hash = p.thumbHash { fields.append("\"thumbHash\":\"\(Data(hash).base64EncodedString())\"") }
        fields.append("\"width\":\(p.sourceWidth)")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// The entries of an earlier manifest made with the same settings, by input path.
    static func previousEntries(_ path: String, size: Int, thumbHash: Bool) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              (root["size"] as? NSNumber)?.intValue == size, (root["thumbHash"] as? Bool) == thumbHash,
              let images = root["images"] as? [[String: Any]] else { return [:] }
        var out: [String: Entry] = [:]
        for image in images {
            guard let file = image["file"] as? String,
                  let json = try? JSONSerialization.data(withJSONObject: image, options: [.sortedKeys, .withoutEscapingSlashes]) else { continue }
            out[file] = Entry(json: String(decoding: json, as: UTF8.self))
        }
        return out
    }

    static let imageSuffixes: Set<String> = ["png", "apng", "jpg", "jpeg", "webp", "gif", "pam", "ppm", "pgm", "pnm"]

    /// A short, stable hash of a path (FNV-1a, 32 bits, hex).
    static func pathHash(_ path: String) -> String {
        var h: UInt32 = 0x811C_9DC5
        for byte in path.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        return String(h, radix: 16)
    }

    /// Files as given; folders searched recursively for image suffixes, sorted; each file once (by
    /// its resolved path); nothing inside the folder `skipping` (the output, whose previews are not
    /// inputs).
    static func collect(_ operands: [String], skipping output: String) throws -> [String] {
        let outputFolder = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path + "/"
        var out: [String] = [], seen = Set<String>()
        func add(_ path: String) {
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard !resolved.hasPrefix(outputFolder), seen.insert(resolved).inserted else { return }
            out.append(path)
        }
        for operand in operands {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: operand, isDirectory: &isFolder) else {
                throw CLIError.failure("\(operand): no such file or folder")
            }
            if !isFolder.boolValue { add(operand); continue }
            guard let walker = FileManager.default.enumerator(atPath: operand) else { continue }
            var found: [String] = []
            for case let relative as String in walker where imageSuffixes.contains((relative as NSString).pathExtension.lowercased()) {
                found.append((operand as NSString).appendingPathComponent(relative))
            }
            found.sorted().forEach(add)
        }
        return out
    }
}
