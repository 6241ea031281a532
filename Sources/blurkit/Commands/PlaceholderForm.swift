import BlurCommandLine
import BlurKit
import BlurServe
import Foundation

/// `blurkit NAME INPUT… --out DIR` for an operation of the placeholder form (`placeholder`): the
/// tiny previews of many images, in parallel, with a manifest; a rerun skips what is up to date.
enum PlaceholderForm {
    static let jobs = ParameterSpec(
        name: "jobs", unit: "", range: 1...256, defaultValue: nil, integer: true,
        summary: "images in flight at once")
    static let form = CommandForm(
        operands: "INPUT… --out DIR", operandCount: 1...Int.max, readsFirstWritesSecond: false,
        leadingOptions: [
            OptionSpec(name: "out", value: "DIR", help: "the folder for the previews and manifest.json (created if missing; required)")
        ],
        options: [
            OptionSpec(jobs, value: "N", defaultText: "one per core"),
            OptionSpec(name: "force", value: nil, help: "remake every preview, even those up to date"),
            OptionSpec(
                name: "shard", value: "K/N",
                help: "do only shard K of N (a stable partition by path hash), writing manifest.shard-K-of-N.json"
            ) { (text: String) throws(ParameterError) in _ = try PlaceholderForm.shard(text) },
            OptionSpec(name: "merge", value: nil, help: "merge DIR's shard manifests into manifest.json (in one run's order) and stop"),
            OptionSpec(name: "quiet", value: nil, help: "no progress line and no summary"),
        ] + StandardOptions.limits,
        details: """
            Each preview is a PNG named after the input's path relative to the folder given, however it is
            spelt (photos/2024/p.jpg → DIR/2024/p.jpg.png), and DIR/manifest.json lists for each input that
            relative path, its size, the preview (file and data URI), its ThumbHash (base64) and average colour. INPUTs are
            image files or folders (searched recursively for \(PlaceholderBatch.imageSuffixes.sorted().map { "." + $0 }.joined(separator: " "));
            DIR itself is skipped, and a file given twice is done once). JPEGs decode at reduced size
            through libjpeg's DCT scaling. Previews and colours are sRGB, converted from each input's ICC profile. An input whose size and
            SHA-256 are those the manifest records is up to date and skipped, so a rerun resumes (the digest is
            read again only when size or modification time changed); previews of inputs gone are removed. Failures are listed at the end (exit status 1) and leave the manifest; every other
            file is still done. Ctrl-C stops after the files in flight, keeping a valid manifest. For more than
            one machine, run --shard K/N on each (the same INPUTs) and then --merge once (docs/deploy.md).
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ operation: BlurOperation) throws -> String? {
        guard let out = arguments.values["out"] else { throw CLIError.usage("placeholder needs --out DIR") }
        let given = try arguments.arguments(for: operation)
        let settings = PlaceholderBatch.Settings(
            size: given[PlaceholderOperation.size], thumbHash: !given[PlaceholderOperation.noThumbHash],
            blurHash: PlaceholderOperation.components(given), force: arguments.has("force"))
        let parallel = try arguments.integer(jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let quiet = arguments.has("quiet")
        var batch: PlaceholderBatch
        do { batch = try PlaceholderBatch(operands: arguments.operands, output: out, settings: settings) } catch {
            throw CLIError.failure("\(error)")
        }
        guard !batch.jobs.isEmpty else {
            // An image inside the output folder is skipped (the previews are images too): say so.
            let folder = URL(fileURLWithPath: out).standardizedFileURL.path
            let inside = arguments.operands.filter {
                let path = URL(fileURLWithPath: $0).standardizedFileURL.path
                return path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
            }
            let note = inside.isEmpty ? "" : "; \(inside.joined(separator: ", ")) lies inside the output folder \(out), which is skipped"
            throw CLIError.failure("no images found in \(arguments.operands.joined(separator: ", "))" + note)
        }
        if arguments.has("merge") {
            if arguments.has("shard") { throw CLIError.usage("--merge takes every shard: leave out --shard") }
            do {
                let (written, missing) = try batch.mergeShards()
                let note =
                    missing.isEmpty
                    ? "" : "; no shard has \(missing.count): " + missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
                return quiet ? nil : "merged \(written) entries into \(batch.manifestPath)\(note)"
            } catch { throw CLIError.failure("\(error)") }
        }
        if let text = arguments.values["shard"] {
            let (k, n) = try PlaceholderForm.shard(text)
            batch = batch.shard(k, of: n)
        }

        let variants = try PlaceholderForm.variants(given)
        Interruption.install()
        let progress = Locked(ProgressLine(quiet: quiet))
        let report: PlaceholderBatch.Report
        do {
            report = try batch.run(
                parallel: parallel,
                progress: { done, total, r in
                    let line = "placeholders: \(done)/\(total) (\(r.made) made, \(r.upToDate) up to date, \(r.failures.count) failed)"
                    progress.withLock { $0.show(line) }
                }, cancelled: Interruption.stopCheck(), variants: variants)
        } catch let PlaceholderBatchError.manifestNotWritten(error, partial) {
            progress.withLock { $0.finish() }
            // Out of disk: say so, and still list what failed.
            throw CLIError.failure("\(error)\n" + summary(partial, manifest: "the manifest was not written"))
        }
        progress.withLock { $0.finish() }
        let text = summary(report, manifest: "manifest: \(batch.manifestPath)")
        if let signal = Interruption.signal {
            throw CLIError.interrupted("interrupted: \(text)\n\(report.notStarted) not started; rerun to finish", signal: signal)
        }
        if !report.failures.isEmpty { throw CLIError.failure(text) }
        return quiet ? nil : text
    }

    /// `--widths`' variants: their URLs as `blurkit/loader`'s `blurkitURL` writes them, from the
    /// same environment — `BLURKIT_ORIGIN` before each (none: from the server's root) and, with
    /// `BLURKIT_KEY` (hex, as `serve --key`), signed.
    static func variants(_ given: OperationArguments) throws -> (widths: [Int], url: (String, Int) -> String)? {
        guard let widths = given.given(PlaceholderOperation.widths)?.map({ Int($0) }) else { return nil }
        let environment = ProcessInfo.processInfo.environment
        var signer: URLSigner?
        if let key = environment["BLURKIT_KEY"], !key.isEmpty {
            do { signer = try URLSigner(hexKey: key) } catch {
                throw CLIError.usage("BLURKIT_KEY (for the signed URLs of --widths) must be hex of at least 16 bytes, as serve --key takes it")
            }
        }
        var origin = environment["BLURKIT_ORIGIN"] ?? ""
        while origin.hasSuffix("/") { origin.removeLast() }
        return (widths, { [origin, signer] file, width in origin + URLSigner.resizeTarget(file, width: width, signer: signer) })
    }

    /// `K/N`, 1 ≤ K ≤ N ≤ 65,536.
    static func shard(_ text: String) throws(ParameterError) -> (Int, Int) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 65536, k >= 1, k <= n else {
            throw .invalidForm(name: "shard", text: text, expected: "K/N with 1 ≤ K ≤ N, e.g. 2/8")
        }
        return (k, n)
    }

    static func summary(_ r: PlaceholderBatch.Report, manifest: String) -> String {
        var text = "\(r.made) made, \(r.upToDate) up to date, \(r.failures.count) failed, of \(r.total); \(manifest)"
        if !r.failures.isEmpty { text += "\nfailed:\n" + r.failures.map { "  \($0.input): \($0.message)" }.joined(separator: "\n") }
        return text
    }
}
