import CGnuTLS
import Foundation

/// SHA-256 of a file's bytes, from GnuTLS: what tells a changed input from an unchanged one.
public enum FileDigest {
    /// SHA-256 of the file at `path`, lower-case hex, read 1 MiB at a time (memory stays at that
    /// whatever the file's size).
    /// - Throws: ``FileError/cannotRead(path:reason:)`` when it cannot be opened or read.
    public static func sha256(file path: String) throws(FileError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .cannotRead(path: path, reason: "cannot open it") }
        defer { try? handle.close() }
        var state: gnutls_hash_hd_t?
        guard gnutls_hash_init(&state, GNUTLS_DIG_SHA256) == 0, let state else { throw .cannotRead(path: path, reason: "no SHA-256") }
        var digest = [UInt8](repeating: 0, count: 32)
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                _ = chunk.withUnsafeBytes { gnutls_hash(state, $0.baseAddress, $0.count) }
            }
        } catch {
            gnutls_hash_deinit(state, &digest)
            throw .cannotRead(path: path, reason: "\(error.localizedDescription)")
        }
        gnutls_hash_deinit(state, &digest)
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
