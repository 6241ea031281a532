import BlurIO
import Foundation
import Synchronization

/// Rendered responses kept on disk, by key (the response's ETag), up to a size: the least recently
/// used go first. Entries are written atomically (temporary file, fsync, rename), survive a
/// restart (the folder is scanned at start, oldest use first, and the temporary files of a write
/// cut short removed), and carry the SHA-256 of their body,
/// so a damaged entry is found on reading, removed, and rendered again.
///
/// Entry file: `BKC1 <content type> <sha256 hex>\n` then the body.
public final class DiskCache: Sendable {
    /// Where the entries are, one `KEY.bkc` file each; made when missing.
    public let folder: String
    /// The most bytes the entries may take together, headers included.
    public let capacity: Int

    private struct Index {
        /// Bytes on disk per key, and the keys from least to most recently used.
        var sizes: [String: Int] = [:]
        var order: [String] = []
        var total = 0
    }

    private let index = Mutex(Index())

    /// - Parameter capacity: the most bytes the entries may take together.
    /// - Throws: ``ServeError/internalError(_:)`` when the folder cannot be made.
    public init(folder: String, capacity: Int) throws(ServeError) {
        self.folder = folder
        self.capacity = capacity
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .internalError("--cache \(folder): \(error.localizedDescription)")
        }
        // What an earlier run left, oldest use first; the temporary files of writes it never
        // finished (killed mid-write) are removed, when a minute old (not another server's, now).
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var found: [(key: String, size: Int, used: Date)] = []
        for name in names where name.hasPrefix(".") && name.contains(".bkc.tmp-") {
            let path = folder + "/" + name
            if let changed = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                Date().timeIntervalSince(changed) > 60
            {
                unlink(path)
            }
        }
        for name in names where name.hasSuffix(".bkc") {
            let path = folder + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int, let used = attributes[.modificationDate] as? Date
            else { continue }
            found.append((String(name.dropLast(4)), size, used))
        }
        found.sort { $0.used < $1.used }
        index.withLock { index in
            for entry in found {
                index.sizes[entry.key] = entry.size
                index.order.append(entry.key)
                index.total += entry.size
            }
        }
        evict()
    }

    private func path(_ key: String) -> String { folder + "/" + key + ".bkc" }

    /// The bytes the entry for `key` takes on disk (its header and body), nil when there is none:
    /// what reading it will hold in memory, at most.
    public func size(of key: String) -> Int? { index.withLock { $0.sizes[key] } }

    /// The body of the entry for `key`, whose content type must be `contentType` (the one the key
    /// was made for: an entry's header is not trusted to say what it holds); nil when there is no
    /// such entry, or it is damaged or of another type (then it is removed).
    public func get(_ key: String, contentType: String) -> [UInt8]? {
        guard let size = size(of: key) else { return nil }
        let type = contentType.replacingOccurrences(of: " ", with: "")
        guard let bytes = try? AtomicFile.read(path(key)), bytes.count == size, let entry = DiskCache.parse(bytes), entry.contentType == type else {
            remove(key)
            return nil
        }
        // Most recently used now, on disk too (the order a restart rebuilds).
        _ = utimes(path(key), nil)
        index.withLock { index in
            if let i = index.order.firstIndex(of: key) { index.order.remove(at: i) }
            index.order.append(key)
        }
        return entry.body
    }

    /// Stores `body` under `key`, then drops the least recently used entries while over capacity.
    /// A body larger than the whole cache is not kept. Failures to write lose only the entry.
    public func put(_ key: String, contentType: String, body: [UInt8]) {
        let type = contentType.replacingOccurrences(of: " ", with: "")
        let header = Array("BKC1 \(type) \(Digest.hex(Digest.sha256(body)))\n".utf8)
        let size = header.count + body.count
        guard size <= capacity, (try? AtomicFile.write(header + body, to: path(key))) != nil else { return }
        index.withLock { index in
            if let old = index.sizes[key] {
                index.total -= old
                if let i = index.order.firstIndex(of: key) { index.order.remove(at: i) }
            }
            index.sizes[key] = size
            index.order.append(key)
            index.total += size
        }
        evict()
    }

    /// Bytes the entries take.
    public var totalBytes: Int { index.withLock { $0.total } }

    private func remove(_ key: String) {
        unlink(path(key))
        index.withLock { index in
            if let size = index.sizes.removeValue(forKey: key) { index.total -= size }
            if let i = index.order.firstIndex(of: key) { index.order.remove(at: i) }
        }
    }

    private func evict() {
        while let victim = index.withLock({ $0.total > capacity ? $0.order.first : nil }) { remove(victim) }
    }

    /// The content type and body of an entry's bytes, when the header is well formed and the body's
    /// digest matches.
    static func parse(_ bytes: [UInt8]) -> (contentType: String, body: [UInt8])? {
        guard let newline = bytes.prefix(512).firstIndex(of: 10) else { return nil }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 3, fields[0] == "BKC1" else { return nil }
        let body = Array(bytes[(newline + 1)...])
        guard Digest.hex(Digest.sha256(body)) == fields[2] else { return nil }
        return (String(fields[1]), body)
    }
}
