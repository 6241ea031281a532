import BlurCore
import Dispatch
import Foundation

/// The placeholders of many images at once, with a manifest, resumable: what `blurkit placeholder`
/// runs.
///
/// Each input is known by its path relative to the folder given, however that folder is spelt
/// (`photos`, `./photos/` and `/home/me/photos` list `2024/p.jpg` alike; a file given alone by its
/// name; several operands by their paths relative to the folder they share). It gets an entry of
/// that name in `manifest.json` and a PNG preview of that name with `.png` added (`2024/p.jpg.png`,
/// so `p.jpg` and `p.png` never share one, and a name never depends on the other inputs). An input
/// whose bytes are those its entry records (size and SHA-256; the file is hashed again only when its
/// modification time, in whole seconds, changed), listed in a manifest made with the same
/// settings, is up to date and skipped. Previews the earlier manifest listed that the new one does
/// not are removed.
public struct PlaceholderBatch: Sendable {
    /// What a run makes: previews at most `size` pixels on their longer side, with or without ThumbHashes.
    public struct Settings: Sendable, Hashable {
        /// Longest side of each preview, pixels; default `Placeholder.sizeSpec`'s (10). A manifest made
        /// with another size is not reused.
        public var size: Int
        /// Whether each entry gets a ThumbHash and a BlurHash; default true. A manifest made with the
        /// other setting is not reused.
        public var thumbHash: Bool
        /// The BlurHash's components; default 4×3. A manifest made with others is not reused.
        public var blurHash: BlurHash.Components
        /// Remake every preview, ignoring the earlier manifest, so nothing is skipped as up to date; default false.
        public var force: Bool
        /// 10-px previews with ThumbHashes and 4×3 BlurHashes, up-to-date ones skipped, unless told otherwise.
        public init(
            size: Int = Int(Placeholder.sizeSpec.defaultValue!), thumbHash: Bool = true, blurHash: BlurHash.Components = BlurHash.defaultComponents,
            force: Bool = false
        ) {
            self.size = size
            self.thumbHash = thumbHash
            self.blurHash = blurHash
            self.force = force
        }
    }

    /// One input and the preview it becomes.
    public struct Job: Sendable, Hashable {
        /// The input's path, to open: an operand as given, or a file found under a folder operand.
        public let input: String
        /// The input's name in the manifest: its path relative to the folder given (see the type).
        public let name: String
        /// The preview's path in the output folder: ``name`` and `.png`.
        public let preview: String
    }

    /// How one job ended.
    public enum Outcome: Sendable {
        /// The preview was written: its manifest entry.
        case made(PlaceholderManifest.Entry)
        /// Skipped: the input's bytes are those the earlier manifest's entry records; that entry.
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

    /// The folder for the previews and the manifest; ``run(parallel:progress:cancelled:variants:)`` makes it if missing.
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
        // The folder every operand lies in (a folder operand itself, a file operand's folder).
        let folders = operands.map { operand in
            let path = PlaceholderBatch.absolute(operand)
            return AtomicFile.isFolder(operand) ? path : Array(path.dropLast())
        }
        var base = folders.first ?? []
        for folder in folders.dropFirst() { base = Array(zip(base, folder).prefix { $0 == $1 }.map(\.0)) }
        jobs = inputs.map { input in
            let name = PlaceholderBatch.absolute(input).dropFirst(base.count).joined(separator: "/")
            return Job(input: input, name: name, preview: name + ".png")
        }
    }

    /// `path`'s components from the root, `.` and `..` taken as they read (not through links), so
    /// that every spelling of one folder gives the same.
    static func absolute(_ path: String) -> [String] {
        var components: [String] = []
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = components.popLast() } else { components.append(String(part)) }
        }
        return components
    }

    /// Runs every job, `parallel` at a time, then writes the manifest (atomically) — also when
    /// cancelled, listing what is done and keeping the earlier entries of what was not reached.
    /// `progress(done, total, report)` is called after each job, from the workers, one at a time;
    /// `cancelled` is asked before each job. `variants`, when given, are the widths of each image's
    /// resized variants and how their URLs are written (the entry's file and a width), listed in the
    /// manifest (``PlaceholderManifest/Entry/with(widths:url:)``).
    /// - Throws: ``FileError`` when the output folder cannot be made;
    ///   ``PlaceholderBatchError/manifestNotWritten(_:_:)``, carrying the jobs' report, when the
    ///   manifest cannot be written.
    public func run(
        parallel: Int, progress: @Sendable (Int, Int, Report) -> Void = { _, _, _ in }, cancelled: @Sendable () -> Bool = { false },
        variants: (widths: [Int], url: (String, Int) -> String)? = nil
    ) throws -> Report {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), !isFolder.boolValue {
            throw FileError.cannotWrite(path: output, reason: "it is a file, not a folder for the previews")
        }
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw FileError.cannotWrite(path: output, reason: "cannot create the folder")
        }
        let earlier = PlaceholderManifest.read(manifestPath)
        let matching = earlier.map { $0.matches(settings) } ?? false
        let previous = settings.force || !matching ? [:] : earlier?.byInput ?? [:]
        let state = Locked<(next: Int, done: Int, report: Report, entries: [Int: PlaceholderManifest.Entry], failed: Set<String>)>(
            (0, 0, Report(total: jobs.count), [:], []))
        let work = jobs, total = jobs.count
        // What the run reads, by device and inode: no preview, manifest or removal may reach one
        // (an output folder holding links to the inputs, or the inputs themselves).
        let inputs = Set(jobs.compactMap { AtomicFile.identity($0.input) })
        DispatchQueue.concurrentPerform(iterations: max(1, min(parallel, total))) { _ in
            while !cancelled() {
                let index: Int? = state.withLock { s in
                    guard s.next < total else { return nil }
                    s.next += 1
                    return s.next - 1
                }
                guard let index else { return }
                let outcome = process(work[index], previous: previous[work[index].name], inputs: inputs)
                state.withLock { s in
                    s.done += 1
                    switch outcome {
                    case let .made(entry): s.report.made += 1; s.entries[index] = entry
                    case let .upToDate(entry): s.report.upToDate += 1; s.entries[index] = entry
                    case let .failed(message): s.report.failures.append((work[index].input, message)); s.failed.insert(work[index].name)
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
            } else if !final.failed.contains(job.name), let old = previous[job.name] {
                entries.append(old)
            }
        }
        // Written afresh on every run (they depend on the widths and the key, not on the image's bytes).
        entries = entries.map { $0.with(widths: variants?.widths ?? [], url: variants?.url ?? { _, _ in "" }) }
        let manifest = PlaceholderManifest(
            size: settings.size, thumbHash: settings.thumbHash, blurHash: settings.blurHash.description, images: entries)
        do {
            if let target = AtomicFile.identity(manifestPath), inputs.contains(target) { throw FileError.wouldOverwriteInput(path: manifestPath) }
            try AtomicFile.write(try manifest.encoded(), to: manifestPath)
        } catch let error as FileError {
            throw PlaceholderBatchError.manifestNotWritten(error, report)
        }
        removeStale(earlier, keeping: Set(entries.map(\.preview.file)), inputs: inputs)
        return report
    }

    /// Removes the previews `earlier` listed that are not `kept` (their inputs gone, renamed or
    /// failed), and the folders that leaves empty; only names a preview can have (relative, no `.`
    /// or `..` segment, ending in `.png`), so that an edited manifest cannot reach outside.
    /// An input (of `inputs`, by device and inode) is never removed, whatever its name.
    func removeStale(_ earlier: PlaceholderManifest?, keeping kept: Set<String>, inputs: Set<AtomicFile.Identity>) {
        for file in Set(earlier?.images.map(\.preview.file) ?? []) where !kept.contains(file) {
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard file.hasSuffix(".png"), !file.hasPrefix("/"), parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { continue }
            let path = (output as NSString).appendingPathComponent(file)
            if let found = AtomicFile.identity(path), inputs.contains(found) { continue }
            unlink(path)
            for depth in stride(from: parts.count - 1, to: 0, by: -1) {
                guard rmdir((output as NSString).appendingPathComponent(parts.prefix(depth).joined(separator: "/"))) == 0 else { break }
            }
        }
    }

    /// One job: skipped when the input's bytes are those `previous` records and its preview is
    /// there, else decoded, previewed and written.
    func process(_ job: Job, previous: PlaceholderManifest.Entry?, inputs: Set<AtomicFile.Identity>) -> Outcome {
        let previewPath = (output as NSString).appendingPathComponent(job.preview)
        do {
            // Taken before the bytes are read: a change while they are is seen by the next run.
            var source = try PlaceholderManifest.Source(statusOf: job.input)
            if let previous, previous.preview.file == job.preview, let recorded = previous.source, recorded.bytes == source.bytes,
                FileManager.default.fileExists(atPath: previewPath)
            {
                // The same bytes under another time (a copy, a checkout) keep the entry as it was:
                // the manifest does not change with where or when the files were copied.
                if try recorded.modified == source.modified || FileDigest.sha256(file: job.input) == recorded.sha256 {
                    return .upToDate(previous)
                }
            }
            source.sha256 = try FileDigest.sha256(file: job.input)
            if let target = AtomicFile.identity(previewPath), inputs.contains(target) { throw FileError.wouldOverwriteInput(path: previewPath) }
            let placeholder = try Placeholder.make(
                fromFile: job.input, longestSide: settings.size, thumbHash: settings.thumbHash, blurHash: settings.blurHash)
            let png = try PNGCodec.encode(placeholder.preview)
            let folder = (previewPath as NSString).deletingLastPathComponent
            if !AtomicFile.isFolder(folder) {
                do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                    throw FileError.cannotWrite(path: previewPath, reason: "cannot create the folder")
                }
            }
            try AtomicFile.write(png, to: previewPath)
            var entry = PlaceholderManifest.Entry(file: job.name, previewFile: job.preview, placeholder: placeholder, png: png)
            entry.source = source
            return .made(entry)
        } catch {
            return .failed("\(error)")
        }
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
        /// The input's path relative to the folder given (see ``PlaceholderBatch``).
        public var file: String
        /// The input's width after EXIF orientation, pixels.
        public var width: Int
        /// The input's height after EXIF orientation, pixels.
        public var height: Int
        /// The preview made for it.
        public var preview: Preview
        /// Base64, when asked for.
        public var thumbHash: String?
        /// The preview's BlurHash (4×3 unless asked otherwise), beside the ThumbHash.
        public var blurHash: String?
        /// The preview as a WebP data URL of at most 1 KB (``Placeholder/webpDataURI``).
        public var webpDataURI: String?
        /// An SVG data URL that draws the WebP preview blurred with opaque edges
        /// (``Placeholder/svg(embedding:)``), for `background-image: url("…")` or `<img src>`.
        public var svg: String?
        /// CSS declarations painting the image as rows of gradients (``Placeholder/css``).
        public var css: String?
        /// The input's bytes when the preview was made; nil outside a batch.
        public var source: Source?
        /// The image resized to each width asked for (`--widths`), narrowest first: the URLs of a `srcset`.
        public var variants: [Variant]?
        /// ``variants`` as a `srcset` attribute's value (`URL 640w, URL 1280w`).
        public var srcset: String?

        /// This entry with the ``variants`` at `widths` (none wider than the image, each once,
        /// narrowest first; the image's own width stands for those wider) and their ``srcset``,
        /// their URLs from `url` (the entry's ``file`` and a width); without them when `widths` is empty.
        public func with(widths: [Int], url: (String, Int) -> String) -> Entry {
            var copy = self
            let kept = Set(widths.map { min($0, width) }).sorted()
            copy.variants = kept.isEmpty ? nil : kept.map { Variant(width: $0, url: url(file, $0)) }
            copy.srcset = copy.variants.map { $0.map { "\($0.url) \($0.width)w" }.joined(separator: ", ") }
            return copy
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
            blurHash = p.blurHash
            webpDataURI = p.webpDataURI
            svg = webpDataURI.map { p.svg(embedding: $0).dataURI }
            css = p.css
        }
    }

    /// One resized variant of an image: its width and its URL.
    public struct Variant: Codable, Sendable, Equatable {
        /// Pixels.
        public var width: Int
        /// Where the service makes it (`/resize/PATH?width=W`, signed when a key is set).
        public var url: String
    }

    /// What an input's bytes were when its preview was made: how a rerun tells an unchanged input.
    public struct Source: Codable, Sendable, Equatable {
        /// The file's size, bytes.
        public var bytes: Int
        /// SHA-256 of its bytes, lower-case hex.
        public var sha256: String
        /// Its modification time in whole seconds since 1970 when the preview was made: while it and
        /// ``bytes`` are unchanged, ``sha256`` is taken as still true without reading the file; when
        /// it differs the file is hashed, and the entry kept as it was if the digest is the same.
        /// (No inode and no fraction of a second: a copy of the folder keeps the manifest's bytes; the
        /// price is that a copy's inputs are hashed on every run, and that an edit within the same
        /// second that keeps the size is not seen.)
        public var modified: Int64

        /// `path`'s size and modification time (`sha256` empty).
        /// - Throws: ``FileError/cannotRead(path:reason:)`` when it cannot be examined.
        init(statusOf path: String) throws(FileError) {
            var info = stat()
            guard stat(path, &info) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
            bytes = Int(info.st_size)
            sha256 = ""
            #if canImport(Darwin)
            let time = info.st_mtimespec
            #else
            let time = info.st_mtim
            #endif
            modified = Int64(time.tv_sec)
        }
    }

    /// The previews' longest side, pixels: the run's setting.
    public var size: Int
    /// Whether the entries carry ThumbHashes: the run's setting.
    public var thumbHash: Bool
    /// The BlurHashes' components (`4x3`): the run's setting (nil in a manifest made before there were any).
    public var blurHash: String?
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
        guard let manifest = read(path), manifest.matches(settings) else { return nil }
        return manifest
    }

    /// Whether this manifest was made with `settings`' size, ThumbHash setting and BlurHash components.
    func matches(_ settings: PlaceholderBatch.Settings) -> Bool {
        size == settings.size && thumbHash == settings.thumbHash && blurHash == settings.blurHash.description
    }

    /// The manifest at `path` if it exists and parses, whatever its settings.
    static func read(_ path: String) -> PlaceholderManifest? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(PlaceholderManifest.self, from: Data(bytes))
    }
}
