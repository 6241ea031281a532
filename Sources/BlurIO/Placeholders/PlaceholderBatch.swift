import BlurCore
import Dispatch
import Foundation

/// The placeholders of many images at once, with a manifest, resumable: what `blurkit placeholder`
/// runs.
///
/// Each input gets a PNG preview in the output folder named after its file name (`p.jpg` →
/// `p.jpg.png`, so `p.jpg` and `p.png` never share one; two inputs with the same file name in
/// different folders add a hash of their paths), and an entry in `manifest.json`. A preview newer
/// than its input, listed in a manifest made with the same settings, is up to date and skipped.
public struct PlaceholderBatch: Sendable {
    /// What a run makes: previews at most `size` pixels on their longer side, with or without ThumbHashes.
    public struct Settings: Sendable, Hashable {
        /// Longest side of each preview, pixels; default 32. A manifest made with another size is not reused.
        public var size: Int
        /// Whether each entry gets a ThumbHash; default true. A manifest made with the other setting is not reused.
        public var thumbHash: Bool
        /// Remake every preview, ignoring the earlier manifest, so nothing is skipped as up to date; default false.
        public var force: Bool
        /// 32-px previews with ThumbHashes, up-to-date ones skipped, unless told otherwise.
        public init(size: Int = 32, thumbHash: Bool = true, force: Bool = false) {
            self.size = size
            self.thumbHash = thumbHash
            self.force = force
        }
    }

    /// One input and the preview it becomes.
    public struct Job: Sendable, Hashable {
        /// The input's path: an operand as given, or a file found under a folder operand.
        public let input: String
        /// The preview's file name in the output folder.
        public let preview: String
    }

    /// How one job ended.
    public enum Outcome: Sendable {
        /// The preview was written: its manifest entry.
        case made(PlaceholderManifest.Entry)
        /// Skipped: the preview is no older than its input and in the earlier manifest; that entry.
        case upToDate(PlaceholderManifest.Entry)
        /// The job failed (the input unreadable or not an image, or the preview not written): the message.
        case failed(String)
    }

    /// What a run did.
    public struct Report: Sendable {
        /// Jobs that wrote a preview, and jobs skipped as up to date.
        public var made = 0, upToDate = 0
        /// Input and message, sorted by input.
        public var failures: [(input: String, message: String)] = []
        /// Jobs not started because the run was cancelled.
        public var notStarted = 0
        /// Jobs in the run: made, up to date, failed and not started add up to it.
        public var total = 0
    }

    /// The suffixes (lowercase, matched in any case) a folder operand is searched for: every
    /// format's (``ImageFormat/suffixes``) and `pgm`, which is read but never written.
    public static let imageSuffixes = Set(ImageFormat.suffixes + ["pgm"])

    /// The folder for the previews and the manifest; ``run(parallel:progress:cancelled:)`` makes it if missing.
    public let output: String
    /// What every job makes.
    public let settings: Settings
    /// One job per input, in the order the manifest lists them: operands in order, each folder's files sorted.
    public internal(set) var jobs: [Job]
    /// The manifest's file name: `manifest.json`, or a shard's (``shard(_:of:)``).
    public internal(set) var manifestName = "manifest.json"

    /// The manifest's path, in the output folder.
    public var manifestPath: String { (output as NSString).appendingPathComponent(manifestName) }

    /// The jobs for `operands` (files, and folders searched recursively for image suffixes, sorted):
    /// each file once (by its resolved path), nothing inside `output` (its previews are not inputs).
    /// - Throws: ``FileError/cannotRead(path:reason:)`` for an operand that does not exist.
    public init(operands: [String], output: String, settings: Settings) throws(FileError) {
        self.output = output
        self.settings = settings
        let inputs = try PlaceholderBatch.collect(operands, skipping: output)
        let fileNames = inputs.map { ($0 as NSString).lastPathComponent }
        var counts: [String: Int] = [:]
        for name in fileNames { counts[name, default: 0] += 1 }
        jobs = zip(inputs, fileNames).map { input, name in
            Job(input: input, preview: counts[name]! > 1 ? "\(name)-\(PlaceholderBatch.pathHash(input)).png" : name + ".png")
        }
    }

    /// Runs every job, `parallel` at a time, then writes the manifest (atomically) — also when
    /// cancelled, listing what is done and keeping the earlier entries of what was not reached.
    /// `progress(done, total, report)` is called after each job, from the workers, one at a time.
    /// - Throws: ``FileError`` when the output folder cannot be made;
    ///   ``PlaceholderBatchError/manifestNotWritten(_:_:)``, carrying the jobs' report, when the
    ///   manifest cannot be written.
    public func run(
        parallel: Int, progress: @Sendable (Int, Int, Report) -> Void = { _, _, _ in }, cancelled: @Sendable () -> Bool = { false }
    ) throws -> Report {
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw FileError.cannotWrite(path: output, reason: "cannot create the folder")
        }
        let previous = settings.force ? [:] : PlaceholderManifest.read(manifestPath, matching: settings)?.byInput ?? [:]
        let state = Locked<(next: Int, done: Int, report: Report, entries: [Int: PlaceholderManifest.Entry], failed: Set<String>)>(
            (0, 0, Report(total: jobs.count), [:], []))
        let work = jobs, total = jobs.count
        DispatchQueue.concurrentPerform(iterations: max(1, min(parallel, total))) { _ in
            while !cancelled() {
                let index: Int? = state.withLock { s in
                    guard s.next < total else { return nil }
                    s.next += 1
                    return s.next - 1
                }
                guard let index else { return }
                let outcome = process(work[index], previous: previous[work[index].input])
                state.withLock { s in
                    s.done += 1
                    switch outcome {
                    case let .made(entry): s.report.made += 1; s.entries[index] = entry
                    case let .upToDate(entry): s.report.upToDate += 1; s.entries[index] = entry
                    case let .failed(message): s.report.failures.append((work[index].input, message)); s.failed.insert(work[index].input)
                    }
                    progress(s.done, total, s.report)
                }
            }
        }
        let final = state.withLock { $0 }
        var report = final.report
        report.failures.sort { $0.input < $1.input }
        report.notStarted = total - final.done
        // In input order: what is done; a failed input's old entry is dropped (its file is gone or now
        // corrupt); one not reached keeps its old entry, so the next run can still skip it.
        var entries: [PlaceholderManifest.Entry] = []
        for (index, job) in jobs.enumerated() {
            if let entry = final.entries[index] {
                entries.append(entry)
            } else if !final.failed.contains(job.input), let old = previous[job.input] {
                entries.append(old)
            }
        }
        let manifest = PlaceholderManifest(size: settings.size, thumbHash: settings.thumbHash, images: entries)
        do { try AtomicFile.write(try manifest.encoded(), to: manifestPath) } catch let error as FileError {
            throw PlaceholderBatchError.manifestNotWritten(error, report)
        }
        return report
    }

    /// One job: skipped when up to date, else decoded, previewed and written.
    func process(_ job: Job, previous: PlaceholderManifest.Entry?) -> Outcome {
        let previewPath = (output as NSString).appendingPathComponent(job.preview)
        if let previous, previous.preview.file == job.preview,
            let previewDate = PlaceholderBatch.modified(previewPath), let inputDate = PlaceholderBatch.modified(job.input), previewDate >= inputDate
        {
            return .upToDate(previous)
        }
        do {
            if AtomicFile.sameFile(job.input, previewPath) { throw FileError.wouldOverwriteInput(path: previewPath) }
            let placeholder = try Placeholder.make(fromFile: job.input, longestSide: settings.size, thumbHash: settings.thumbHash)
            let png = try PNGCodec.encode(placeholder.preview)
            try AtomicFile.write(png, to: previewPath)
            return .made(PlaceholderManifest.Entry(job, placeholder, png: png))
        } catch {
            return .failed("\(error)")
        }
    }

    /// A short, stable hash of a path (FNV-1a, 32 bits, hex).
    static func pathHash(_ path: String) -> String {
        var h: UInt32 = 0x811C_9DC5
        for byte in path.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        return String(h, radix: 16)
    }

    static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static func collect(_ operands: [String], skipping output: String) throws(FileError) -> [String] {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        let outputFolder = resolved(output) + "/"
        var out: [String] = [], seen = Set<String>()
        func add(_ path: String) {
            let real = resolved(path)
            guard !real.hasPrefix(outputFolder), seen.insert(real).inserted else { return }
            out.append(path)
        }
        for operand in operands {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: operand, isDirectory: &isFolder) else {
                throw .cannotRead(path: operand, reason: "no such file or folder")
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

/// The manifest could not be written; the jobs' report is kept for the message.
public enum PlaceholderBatchError: Error, CustomStringConvertible, Sendable {
    /// The manifest could not be written: the file error, and the run's report (the previews made are on disk).
    case manifestNotWritten(FileError, PlaceholderBatch.Report)

    /// The file error's message.
    public var description: String {
        switch self {
        case let .manifestNotWritten(error, _): return "\(error)"
        }
    }
}

/// `manifest.json`: the settings and, for each input, its size, preview (file and data URI),
/// ThumbHash (base64) and average colour. Written with sorted keys.
public struct PlaceholderManifest: Codable, Sendable, Equatable {
    /// A preview PNG: its bytes as a data URI, its file name and its size.
    public struct Preview: Codable, Sendable, Equatable {
        /// `data:image/png;base64,` and the PNG's bytes in base64.
        public var dataURI: String
        /// The preview's file name in the output folder.
        public var file: String
        /// The preview's width, pixels.
        public var width: Int
        /// The preview's height, pixels.
        public var height: Int
    }

    /// One input's placeholder.
    public struct Entry: Codable, Sendable, Equatable {
        /// `#RRGGBB`, or `#RRGGBBAA` when translucent.
        public var averageColor: String
        /// The input's path as given.
        public var file: String
        /// The input's width after EXIF orientation, pixels.
        public var width: Int
        /// The input's height after EXIF orientation, pixels.
        public var height: Int
        /// The preview made for it.
        public var preview: Preview
        /// Base64, when asked for.
        public var thumbHash: String?

        init(_ job: PlaceholderBatch.Job, _ p: Placeholder, png: [UInt8]) {
            self.init(file: job.input, previewFile: job.preview, placeholder: p, png: png)
        }

        /// The entry for `placeholder` of the image `file`, its preview `png` (the PNG bytes, for the
        /// data URI) written as `previewFile`.
        public init(file: String, previewFile: String, placeholder p: Placeholder, png: [UInt8]) {
            func hex(_ v: Double) -> String {
                let byte = Int((min(1, max(0, v)) * 255).rounded())
                return String(byte >> 4, radix: 16).uppercased() + String(byte & 15, radix: 16).uppercased()
            }
            let c = p.averageColor
            averageColor = "#" + hex(c.red) + hex(c.green) + hex(c.blue) + (c.alpha < 1 ? hex(c.alpha) : "")
            self.file = file
            width = p.sourceWidth
            height = p.sourceHeight
            preview = Preview(
                dataURI: "data:image/png;base64," + Data(png).base64EncodedString(), file: previewFile,
                width: p.preview.width, height: p.preview.height)
            thumbHash = p.thumbHash.map { Data($0).base64EncodedString() }
        }
    }

    /// The previews' longest side, pixels: the run's setting.
    public var size: Int
    /// Whether the entries carry ThumbHashes: the run's setting.
    public var thumbHash: Bool
    /// The entries, in the order of the batch's jobs.
    public var images: [Entry]

    /// The entries by input path.
    public var byInput: [String: Entry] { Dictionary(images.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a }) }

    /// The JSON bytes: pretty-printed, keys sorted, slashes plain.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// The manifest at `path` if it exists, parses, and was made with the same size and ThumbHash setting.
    public static func read(_ path: String, matching settings: PlaceholderBatch.Settings) -> PlaceholderManifest? {
        guard let bytes = try? AtomicFile.read(path), let manifest = try? JSONDecoder().decode(PlaceholderManifest.self, from: Data(bytes)),
            manifest.size == settings.size, manifest.thumbHash == settings.thumbHash
        else { return nil }
        return manifest
    }
}
