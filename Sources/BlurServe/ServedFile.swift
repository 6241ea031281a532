import Foundation

/// A file under the root, opened once: the descriptor every later step reads — the digest, the
/// probe, the render — so that a folder swapped for a link between the check and the reading
/// cannot make them read another file. Closed when the value is released.
///
/// ``path`` names the open file itself (`/proc/self/fd/N` on Linux, which opens the same file
/// whatever its name is now), so that readers that take a path read this file and no other.
/// Elsewhere it is the checked path, and the check and the reading are not one step.
public final class ServedFile: Sendable {
    /// The descriptor, open for reading.
    public let descriptor: Int32
    /// A path that opens the same file: see the type.
    public let path: String
    /// Its size in bytes, modification and change times and inode when it was opened: a new value
    /// for any new content (the change time cannot be set back).
    public let stamp: [Int]

    /// Opens `resolved` (absolute, links resolved, inside `root`) and checks that what was opened is
    /// a regular file that still lies inside `root`.
    /// - Throws: 404 when it cannot be opened or is not a regular file, 403 when the file opened lies
    ///   outside the root (a link swapped in after the path was checked).
    init(resolved: String, root: String, relative: String) throws(ServeError) {
        // Non-blocking: a FIFO swapped in after the check must not hold the thread (cleared below).
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .notFound("\(relative): no such file") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .notFound("\(relative) is not a file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        #if os(Linux)
        let link = "/proc/self/fd/\(descriptor)"
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &target, target.count - 1)
        guard count > 0 else {
            close(descriptor)
            throw .notFound("\(relative): cannot be read")
        }
        let opened = Array(target[..<count].map { UInt8(bitPattern: $0) })
        guard opened.starts(with: Array((root + "/").utf8)) else {
            close(descriptor)
            throw .forbidden("\(relative) leads out of the root")
        }
        path = link
        #else
        path = resolved
        #endif
        self.descriptor = descriptor
        stamp = [
            Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino), Int(status.st_ctim.tv_sec),
            Int(status.st_ctim.tv_nsec),
        ]
    }

    deinit { close(descriptor) }
}
