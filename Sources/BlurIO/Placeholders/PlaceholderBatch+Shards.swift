import Foundation

extension PlaceholderBatch {
    /// Shard `index` (1…`count`) of this batch, for batches larger than one machine: the jobs whose
    /// name (``Job/name``, however the folder is spelt) hashes to it — a stable partition, the same on every host that lists the same
    /// inputs — writing `manifest.shard-K-of-N.json`. Preview names are the whole batch's, so
    /// merged shards name files as one run does.
    public func shard(_ index: Int, of count: Int) -> PlaceholderBatch {
        precondition(count >= 1 && (1...count).contains(index), "a shard from 1 to its count")
        var part = self
        part.jobs = jobs.filter { Int(PlaceholderBatch.shardHash($0.name) % UInt64(count)) == index - 1 }
        part.manifestName = "manifest.shard-\(index)-of-\(count).json"
        return part
    }

    /// FNV-1a, 64 bits, of a path's bytes.
    static func shardHash(_ path: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in path.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// Merges the shards' manifests in the output folder into `manifest.json`, its entries in the
    /// order one run over these inputs lists them. Returns the entries written and the inputs no
    /// shard has (failed or not yet run).
    /// - Throws: ``PlaceholderShardError`` when the shards disagree on their count or settings, one
    ///   is missing, or the manifest cannot be written.
    public func mergeShards() throws(PlaceholderShardError) -> (written: Int, missing: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        var shards: [Int: PlaceholderManifest] = [:]
        var count: Int?
        for name in names.sorted() {
            let parts = name.split(separator: ".")
            guard parts.count == 3, parts[0] == "manifest", parts[2] == "json", parts[1].hasPrefix("shard-") else { continue }
            let numbers = parts[1].dropFirst(6).split(separator: "-")
            guard numbers.count == 3, numbers[1] == "of", let k = Int(numbers[0]), let n = Int(numbers[2]) else { continue }
            if let count, count != n { throw .countsDisagree(count, n) }
            count = n
            guard let manifest = PlaceholderManifest.read((output as NSString).appendingPathComponent(name), matching: settings) else {
                throw .settingsDisagree(name)
            }
            shards[k] = manifest
        }
        guard let count else { throw .noShards(output) }
        if let missing = (1...count).first(where: { shards[$0] == nil }) { throw .shardMissing(missing, count) }
        var byInput: [String: PlaceholderManifest.Entry] = [:]
        for manifest in shards.values { byInput.merge(manifest.byInput) { a, _ in a } }
        let entries = jobs.compactMap { byInput[$0.name] }
        let merged = PlaceholderManifest(size: settings.size, thumbHash: settings.thumbHash, blurHash: settings.blurHash.description, images: entries)
        do { try AtomicFile.write(try merged.encoded(), to: (output as NSString).appendingPathComponent("manifest.json")) } catch {
            throw .notWritten("\(error)")
        }
        return (entries.count, jobs.filter { byInput[$0.name] == nil }.map(\.input))
    }
}

/// Why shard manifests could not be merged.
public enum PlaceholderShardError: Error, Sendable, CustomStringConvertible {
    /// The output folder (the string) holds no `manifest.shard-K-of-N.json`.
    case noShards(String)
    /// Two shard manifests name different shard counts N: the two counts.
    case countsDisagree(Int, Int)
    /// Shard K (the first number) of N (the second) has no manifest yet.
    case shardMissing(Int, Int)
    /// A shard made with another preview size or ThumbHash setting (or unreadable).
    case settingsDisagree(String)
    /// The merged `manifest.json` could not be written: the reason.
    case notWritten(String)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case let .noShards(folder): return "no shard manifests (manifest.shard-K-of-N.json) in \(folder)"
        case let .countsDisagree(a, b): return "the shard manifests disagree on the number of shards (\(a) and \(b))"
        case let .shardMissing(k, n): return "shard \(k) of \(n) has no manifest yet"
        case let .settingsDisagree(name): return "\(name) was made with another --size or ThumbHash setting, or cannot be read"
        case let .notWritten(reason): return "the merged manifest was not written: \(reason)"
        }
    }
}
