import BlurCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An image file opened for streaming: a stdio stream positioned at its start and the format its
/// first bytes name. A regular file is read as the decoder goes, never whole; standard input or a
/// pipe, which cannot be rewound after the format is sniffed, is read into memory first.
package final class InputFile {
    /// What the user named: a path or `-`.
    package let path: String
    package let stream: UnsafeMutablePointer<FILE>
    /// The format, from the first bytes.
    package let format: ImageFormat
    /// When decoding must stop (a render's deadline and cancellation), asked inside the decoders'
    /// long calls; by default never. Set before the decoder is opened.
    package var cancellation = Cancellation.never
    /// The bytes of a stream that could not be rewound, kept alive under `stream`.
    private var held: UnsafeMutableRawBufferPointer?

    package init(path: String) throws {
        self.path = path
        let name = path == "-" ? "standard input" : path
        var stream: UnsafeMutablePointer<FILE>?
        if path == "-" {
            stream = fdopen(dup(0), "rb")
        } else {
            if AtomicFile.isFolder(path) { throw FileError.cannotRead(path: path, reason: "it is a directory") }
            stream = fopen(path, "rb")
        }
        guard var stream else { throw FileError.cannotRead(path: name, reason: String(cString: strerror(errno))) }
        var info = stat()
        if fstat(fileno(stream), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            fclose(stream)
            throw FileError.cannotRead(path: name, reason: "it is a directory")
        }
        var head = [UInt8](repeating: 0, count: 64)
        let got = fread(&head, 1, 64, stream)
        if ferror(stream) != 0 {
            let reason = String(cString: strerror(errno))
            fclose(stream)
            throw FileError.cannotRead(path: name, reason: reason)
        }
        if fseek(stream, 0, SEEK_SET) != 0 {
            // Not seekable: take the whole stream (bounded) and read it from memory.
            var bytes = Array(head[0..<got])
            do {
                try InputFile.readRest(of: stream, into: &bytes, name: name)
                fclose(stream)
            } catch {
                fclose(stream)
                throw error
            }
            (stream, held) = try InputFile.memoryStream(bytes, name: name)
        }
        self.stream = stream
        guard got > 0 else {
            fclose(stream)
            held?.deallocate()
            throw DecodingError.empty
        }
        guard let format = ImageFormat(sniffing: Array(head[0..<got])) else {
            fclose(stream)
            held?.deallocate()
            throw DecodingError.unknownFormat
        }
        self.format = format
    }

    /// Over bytes already in memory (a request's body): read in place, never written to disk.
    /// `name` is how messages name them (`the body`).
    package init(bytes: [UInt8], name: String) throws {
        guard !bytes.isEmpty else { throw DecodingError.empty }
        guard let format = ImageFormat(sniffing: Array(bytes.prefix(64))) else { throw DecodingError.unknownFormat }
        path = name
        (stream, held) = try InputFile.memoryStream(bytes, name: name)
        self.format = format
    }

    /// Over a stream the caller owns (and closes, after this object is gone): bytes in memory.
    init(stream: UnsafeMutablePointer<FILE>, path: String) throws {
        var head = [UInt8](repeating: 0, count: 64)
        let got = fread(&head, 1, 64, stream)
        guard got > 0 else { throw DecodingError.empty }
        guard let format = ImageFormat(sniffing: Array(head[0..<got])) else { throw DecodingError.unknownFormat }
        guard fseek(stream, 0, SEEK_SET) == 0 else { throw FileError.cannotRead(path: path, reason: "cannot rewind") }
        self.path = path
        self.stream = stream
        self.format = format
        borrowed = true
    }

    /// Whether `stream` belongs to the caller.
    private var borrowed = false

    deinit {
        if !borrowed { fclose(stream) }
        held?.deallocate()
    }

    /// Back to the first byte, for a second decoder.
    package func rewind() throws {
        guard fseek(stream, 0, SEEK_SET) == 0 else { throw FileError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Every byte from the start: for the formats decoded whole (WebP, GIF, Netpbm).
    package func readAll() throws -> [UInt8] {
        try rewind()
        var bytes = [UInt8]()
        try InputFile.readRest(of: stream, into: &bytes, name: path == "-" ? "standard input" : path)
        return bytes
    }

    /// A stdio stream reading a copy of `bytes`, and the memory under it (the caller frees it).
    private static func memoryStream(_ bytes: [UInt8], name: String) throws(FileError) -> (UnsafeMutablePointer<FILE>, UnsafeMutableRawBufferPointer)
    {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        memory.copyBytes(from: bytes)
        guard let opened = fmemopen(memory.baseAddress, bytes.count, "rb") else {
            memory.deallocate()
            throw .cannotRead(path: name, reason: String(cString: strerror(errno)))
        }
        return (opened, memory)
    }

    /// Appends what is left of `stream` to `bytes`, at most ``AtomicFile/maximumReadBytes`` in all.
    private static func readRest(of stream: UnsafeMutablePointer<FILE>, into bytes: inout [UInt8], name: String) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = fread(&chunk, 1, chunk.count, stream)
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > AtomicFile.maximumReadBytes {
                throw FileError.cannotRead(path: name, reason: "it holds more than \(AtomicFile.maximumReadBytes >> 20) MiB")
            }
        }
        if ferror(stream) != 0 { throw FileError.cannotRead(path: name, reason: String(cString: strerror(errno))) }
    }
}
