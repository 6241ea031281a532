import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an output path names, decided before anything is written to it, so that an atomic write
/// never renames a file over something that is not a regular file.
///
/// - A path that names nothing, or a regular file, is ``file(_:)``: the write goes to a temporary
///   file beside it and is renamed over it.
/// - A symbolic link is followed to what it finally names (up to 40 links; a link to nothing names
///   the file to create there): the link stays, and what it points at is written.
/// - A character device or a FIFO (`/dev/null`, a named pipe, `/dev/stdout` when it is a terminal
///   or a pipe), or a link that ends at one, is ``stream(_:)``: it is opened and written in place,
///   like standard output, and cannot be taken back midway.
/// - A folder, a block device or a socket is refused with a ``FileError/cannotWrite(path:reason:)``
///   that says which it is.
enum OutputTarget: Equatable {
    /// A regular file (or none yet) at this path, after symbolic links: written atomically.
    case file(String)
    /// An existing character device or FIFO at this path, after symbolic links: written in place.
    case stream(String)

    /// The most symbolic links followed from one path (Linux's own limit).
    static let maximumLinks = 40

    /// What `path` names. `path` is what the user gave, and what errors name.
    /// - Throws: ``FileError/cannotWrite(path:reason:)`` for a folder, a block device, a socket, a
    ///   loop of symbolic links, or a path that cannot be examined (a missing permission).
    static func resolve(_ path: String) throws(FileError) -> OutputTarget {
        if path.hasSuffix("/") { throw .cannotWrite(path: path, reason: "it names a folder, not a file") }
        var current = path
        for _ in 0...maximumLinks {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return .file(current) }
                throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file(current)
            case S_IFCHR, S_IFIFO: return .stream(current)
            case S_IFDIR: throw .cannotWrite(path: path, reason: "it is a folder")
            case S_IFBLK: throw .cannotWrite(path: path, reason: "it is a block device, not a file")
            case S_IFSOCK: throw .cannotWrite(path: path, reason: "it is a socket, not a file")
            case S_IFLNK:
                // What the whole chain ends at decides a stream: a link such as /dev/stdout goes
                // through /proc/self/fd/1, whose text ("pipe:[…]") names no path, but opening the
                // link itself reaches the pipe.
                var end = stat()
                if stat(current, &end) == 0 {
                    switch end.st_mode & S_IFMT {
                    case S_IFCHR, S_IFIFO: return .stream(current)
                    case S_IFDIR: throw .cannotWrite(path: path, reason: "it is a folder")
                    case S_IFBLK: throw .cannotWrite(path: path, reason: "it is a block device, not a file")
                    case S_IFSOCK: throw .cannotWrite(path: path, reason: "it is a socket, not a file")
                    default: break
                    }
                }
                current = try linkTarget(current, named: path)
            default: throw .cannotWrite(path: path, reason: "it is not a regular file")
            }
        }
        throw .cannotWrite(path: path, reason: "more than \(maximumLinks) symbolic links")
    }

    /// Where the symbolic link at `link` points, relative to the link's own folder when it is a
    /// relative path.
    private static func linkTarget(_ link: String, named path: String) throws(FileError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(link, &buffer, buffer.count - 1)
        guard n > 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        let folder = URL(fileURLWithPath: link).deletingLastPathComponent().path
        return folder + "/" + target
    }

    /// Opens a ``stream(_:)`` target for writing (`O_WRONLY`, no truncation, close-on-exec): a FIFO
    /// waits here for its reader. The descriptor is the caller's.
    static func openStream(_ target: String, named path: String) throws(FileError) -> Int32 {
        while true {
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
