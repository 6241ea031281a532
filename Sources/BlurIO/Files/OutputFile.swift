import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written as a stream and made visible whole: bytes go to a temporary file in the
/// destination's folder as they are made; ``commit()`` flushes them to disk (`fsync`) and renames
/// the file over the destination. Until then — and for good if the writer fails, is discarded or
/// is released without a commit — the destination is untouched and the temporary file is removed.
///
/// `-` writes to standard output, and a path naming a character device or a FIFO (``OutputTarget``)
/// to it in place: neither can be taken back, so a failure midway leaves what was written. A
/// symbolic link is followed: the file it points at is replaced, the link stays.
package final class OutputFile {
    /// What the user named: a path or `-`.
    package let path: String
    /// The stdio stream the encoders write to (libjpeg takes one).
    package let stream: UnsafeMutablePointer<FILE>
    /// The file being written until ``commit()``: what an interrupted process removes.
    package let temporary: String?
    /// What ``commit()`` renames ``temporary`` to: the path after symbolic links.
    private let destination: String?
    private var done = false
    /// Where a memory output's bytes are (open_memstream's buffer and size), nil for a file.
    private let memory: (buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, size: UnsafeMutablePointer<Int>)?
    /// A memory output's bytes, once committed.
    package private(set) var bytes: [UInt8] = []

    /// An output held in memory (a response's body): ``commit()`` makes ``bytes``; `name` is how
    /// messages name it.
    package init(memoryNamed name: String) throws(FileError) {
        path = name
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        size.initialize(to: 0)
        guard let stream = open_memstream(buffer, size) else {
            buffer.deallocate()
            size.deallocate()
            throw .cannotWrite(path: name, reason: OutputFile.lastError())
        }
        self.stream = stream
        temporary = nil
        destination = nil
        memory = (buffer, size)
    }

    package init(path: String) throws(FileError) {
        self.path = path
        memory = nil
        if path == "-" {
            guard let stream = fdopen(dup(1), "wb") else { throw .cannotWrite(path: "standard output", reason: OutputFile.lastError()) }
            self.stream = stream
            temporary = nil
            destination = nil
            return
        }
        let file: String
        switch try OutputTarget.resolve(path) {
        case let .file(resolved): file = resolved
        case let .stream(target):
            let fd = try OutputTarget.openStream(target, named: path)
            guard let stream = fdopen(fd, "wb") else {
                let reason = OutputFile.lastError()
                close(fd)
                throw .cannotWrite(path: path, reason: reason)
            }
            self.stream = stream
            temporary = nil
            destination = nil
            return
        }
        let url = URL(fileURLWithPath: file)
        var template = Array("\(url.deletingLastPathComponent().path)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: OutputFile.lastError()) }
        let name = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let stream = fdopen(fd, "wb") else {
            let reason = OutputFile.lastError()
            close(fd)
            unlink(name)
            throw .cannotWrite(path: path, reason: reason)
        }
        setvbuf(stream, nil, _IOFBF, 1 << 16)
        self.stream = stream
        temporary = name
        destination = file
    }

    deinit {
        discard()
        if let memory {
            free(memory.buffer.pointee)
            memory.buffer.deallocate()
            memory.size.deallocate()
        }
    }

    /// Bytes written so far (buffered ones included).
    package var position: Int { ftell(stream) }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard !bytes.isEmpty else { return }
        if fwrite(bytes.baseAddress, 1, bytes.count, stream) != bytes.count {
            throw .cannotWrite(path: displayName, reason: OutputFile.lastError())
        }
    }

    /// Makes the file whole at its destination (or flushes standard output).
    package func commit() throws(FileError) {
        precondition(!done, "committed once")
        done = true
        var failure: String?
        if fflush(stream) != 0 || ferror(stream) != 0 { failure = OutputFile.lastError() }
        if let temporary {
            let fd = fileno(stream)
            if failure == nil, fchmod(fd, 0o644) != 0 || fsync(fd) != 0 { failure = OutputFile.lastError() }
            if fclose(stream) != 0, failure == nil { failure = OutputFile.lastError() }
            if failure == nil, let destination, rename(temporary, destination) != 0 { failure = OutputFile.lastError() }
            if failure != nil { unlink(temporary) }
        } else {
            fclose(stream)
            if let memory, failure == nil, let base = memory.buffer.pointee {
                bytes = Array(UnsafeRawBufferPointer(start: base, count: memory.size.pointee).bindMemory(to: UInt8.self))
            }
        }
        if let failure { throw .cannotWrite(path: displayName, reason: failure) }
    }

    /// Drops what was written: the destination stays as it was.
    package func discard() {
        guard !done else { return }
        done = true
        fclose(stream)
        if let temporary { unlink(temporary) }
    }

    private var displayName: String { path == "-" ? "standard output" : path }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
