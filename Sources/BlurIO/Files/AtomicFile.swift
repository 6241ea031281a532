import Foundation

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemRead = Musl.read
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Whole-file reads and atomic writes.
///
/// A write goes to a temporary file in the destination's folder, is flushed to disk (`fsync`) and
/// then renamed over the destination: readers see the old file or the new one, never a part.
/// On any failure the temporary file is removed and the destination is untouched.
public enum AtomicFile {
    /// The most bytes ``read(_:atMost:)`` takes from one file by default: 2 GiB.
    public static let maximumReadBytes = 1 << 31

    /// The whole file at `path`.
    /// - Throws: ``FileError/cannotRead(path:reason:)`` when it cannot be opened, is a directory, or is
    ///   longer than `limit` (default ``maximumReadBytes``; a file's size is checked before a byte is read).
    public static func read(_ path: String, atMost limit: Int = maximumReadBytes) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(path: path, reason: lastError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, reason: lastError()) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw .cannotRead(path: path, reason: "it is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
            throw .cannotRead(path: path, reason: "it holds \(info.st_size) bytes, over the \(limit) it may")
        }
        return try readAll(fd, name: path, limit: limit)
    }

    /// Everything on standard input.
    /// - Throws: ``FileError/cannotRead(path:reason:)`` (named "standard input") when it is closed,
    ///   a directory, or longer than ``maximumReadBytes``.
    public static func readStandardInput() throws(FileError) -> [UInt8] {
        try readAll(0, name: "standard input")
    }

    /// Writes `bytes` to standard output, all of them.
    /// - Throws: ``FileError/cannotWrite(path:reason:)`` (named "standard output") when it is
    ///   closed, full (`/dev/full`) or a closed pipe.
    public static func writeStandardOutput(_ bytes: [UInt8]) throws(FileError) {
        if let failure = writeAll(bytes, to: 1) { throw .cannotWrite(path: "standard output", reason: failure) }
    }

    /// Writes `bytes` to standard error, all of them.
    public static func writeStandardError(_ bytes: [UInt8]) throws(FileError) {
        if let failure = writeAll(bytes, to: 2) { throw .cannotWrite(path: "standard error", reason: failure) }
    }

    private static func readAll(_ fd: Int32, name: String, limit: Int = maximumReadBytes) throws(FileError) -> [UInt8] {
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: name, reason: lastError())
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            // A device or pipe that never ends (/dev/zero) is an error, not a hang.
            if bytes.count > limit { throw .cannotRead(path: name, reason: "it holds more than \(limit) bytes") }
        }
        return bytes
    }

    /// Writes every byte to `fd`; the reason when that fails.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { raw -> String? in
            var done = 0
            while done < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                done += n
            }
            return nil
        }
    }

    /// Writes `bytes` to `path` atomically (see the type), mode 0644, replacing any file there. A
    /// symbolic link is followed (the link stays, its target is replaced); a character device or a
    /// FIFO is written in place, not replaced; a folder, block device or socket is refused.
    /// - Throws: ``FileError/cannotWrite(path:reason:)``; the destination is then untouched (a
    ///   device or FIFO keeps what reached it).
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let destination: String
        switch try OutputTarget.resolve(path) {
        case let .file(file): destination = file
        case let .stream(stream):
            let fd = try OutputTarget.openStream(stream, named: path)
            let failure = writeAll(bytes, to: fd)
            close(fd)
            if let failure { throw .cannotWrite(path: path, reason: failure) }
            return
        }
        let url = URL(fileURLWithPath: destination)
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: lastError()) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = writeAll(bytes, to: fd)
        if failure == nil, fchmod(fd, 0o644) != 0 || fsync(fd) != 0 { failure = lastError() }
        if close(fd) != 0, failure == nil { failure = lastError() }
        if failure == nil, rename(temporary, destination) != 0 { failure = lastError() }
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
    }

    /// True when `path` names an existing folder (after symbolic links).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when both paths name the same existing file (after symbolic links, or as hard links).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// A file as the system knows it: its device and inode.
    public struct Identity: Hashable, Sendable {
        let device: UInt64, inode: UInt64
    }

    /// The file `path` names, after symbolic links (nil when it names none). Two paths with one
    /// identity are one file.
    public static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Throws ``FileError/wouldOverwriteInput(path:)`` when writing `output` would write over,
    /// rename onto or delete one of `inputs` (compared by path, and by device and inode through
    /// links): `output` itself, or — when `output` is a folder, where animations write their frames —
    /// an input in it named as a frame (`frame-NNNNN.png`), which a recording writes or removes.
    /// `-` (standard input or output) is never a clash.
    public static func checkKeeps(_ inputs: [String], writing output: String) throws(FileError) {
        // Standard input and output are the files they are opened on: `blur in.png - >> in.png`
        // and `blur - in.png < in.png` name one file twice.
        func standard(_ descriptor: Int32) -> (UInt64, UInt64)? {
            var s = stat()
            guard fstat(descriptor, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (UInt64(s.st_dev), UInt64(s.st_ino))
        }
        func identity(_ path: String) -> (UInt64, UInt64)? {
            var s = stat()
            guard stat(path, &s) == 0 else { return nil }
            return (UInt64(s.st_dev), UInt64(s.st_ino))
        }
        if output == "-", let written = standard(1) {
            for input in inputs {
                let read = input == "-" ? standard(0) : identity(input)
                if let read, read == written { throw .wouldOverwriteInput(path: input == "-" ? "standard input" : input) }
            }
        }
        guard output != "-" else { return }
        if inputs.contains("-"), let read = standard(0), let written = identity(output), read == written {
            throw .wouldOverwriteInput(path: "standard input (\(output))")
        }
        let folder = isFolder(output)
        for input in inputs where input != "-" {
            if input == output || sameFile(input, output) { throw .wouldOverwriteInput(path: input) }
            let name = (input as NSString).lastPathComponent
            if folder, isFrameName(name),
                sameFile((input as NSString).deletingLastPathComponent.isEmpty ? "." : (input as NSString).deletingLastPathComponent, output)
            {
                throw .wouldOverwriteInput(path: input)
            }
        }
        // A frame already in the folder — which a recording writes over (through a symbolic link,
        // into the file it names) or removes — that is an input under another name: a hard link, or
        // a symbolic link to it.
        guard folder else { return }
        let read = inputs.filter { $0 != "-" }.compactMap { input in identity(input).map { (id: $0, path: input) } }
        guard !read.isEmpty, let names = try? FileManager.default.contentsOfDirectory(atPath: output) else { return }
        for name in names where isFrameName(name) {
            let frame = (output as NSString).appendingPathComponent(name)
            if let seen = identity(frame), let input = read.first(where: { $0.id == seen }) {
                throw .wouldOverwriteInput(path: "\(input.path) (as \(frame))")
            }
        }
    }

    /// `frame-NNNNN.png`: a frame of a recording in a folder.
    static func isFrameName(_ name: String) -> Bool {
        name.hasPrefix("frame-") && name.hasSuffix(".png") && name.count > 10 && Int(name.dropFirst(6).dropLast(4)) != nil
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
