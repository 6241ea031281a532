import BlurCore
import CZlib
import Dispatch
import Foundation

/// PNG rows encoded as they come: each row filtered (`up`, the filter that costs least and, at
/// zlib's fast levels, packs photos as tightly as Paeth), rows gathered into strips of about
/// 256 KiB, strips compressed on all cores, written in order.
///
/// The strips form one zlib stream, as pigz makes one: every strip is a raw deflate stream primed
/// with the 32 KiB before it and ended with a sync flush (the last with the final block), so a
/// strip's bytes depend only on the image and the level — not on the thread count. The IDAT chunks
/// hold a strip each; the Adler-32 of the whole comes from the strips' by `adler32_combine`.
///
/// libpng and libspng both compress with one thread; the chunk framing here is the 12 bytes
/// around each chunk (length, type, CRC-32), and every file is checked by libpng, libspng and
/// Pillow in the tests.
package final class PNGRowSink: RowSink {
    private let width: Int
    private let alpha: Bool
    private let level: Int32
    private let parts: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private let lineBytes: Int
    private let stripRows: Int
    /// The row before, straight (RGB or RGBA), for the filter; zeros above the first.
    private var previous: [UInt8]
    private var current: [UInt8]
    /// Filtered rows not compressed yet, strip after strip.
    private var pending: [[UInt8]] = [[]]
    /// The last 32 KiB of the strip before the pending ones: the next strip's dictionary.
    private var dictionary: [UInt8] = []
    private var adler: uLong = 1
    private var rowsWritten = 0
    private let height: Int

    /// - Parameters:
    ///   - alpha: RGBA (straight alpha) when true, RGB otherwise (the alpha is dropped).
    ///   - level: zlib level 0…9.
    ///   - parts: strips compressed at once (nil: as many as suit the cores). No byte depends on it.
    ///   - output: takes the file's bytes in order.
    package init(
        width: Int, height: Int, alpha: Bool, level: Int = ImageFile.defaultCompression, parts: Int? = nil,
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        self.width = width
        self.height = height
        self.alpha = alpha
        self.level = Int32(min(9, max(0, level)))
        self.parts = max(1, parts ?? ProcessInfo.processInfo.activeProcessorCount)
        self.output = output
        lineBytes = width * (alpha ? 4 : 3)
        stripRows = max(1, (256 << 10) / (lineBytes + 1))
        previous = [UInt8](repeating: 0, count: lineBytes)
        current = [UInt8](repeating: 0, count: lineBytes)
        var header = [UInt8](repeating: 0, count: 13)
        PNGRowSink.put32(UInt32(width), &header, 0)
        PNGRowSink.put32(UInt32(height), &header, 4)
        header[8] = 8
        header[9] = alpha ? 6 : 2
        try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try chunk("IHDR", header)
    }

    /// The strips compressed at once, filtered and compressed, and two rows.
    package var heldBytes: Int {
        let strips = min(parts, (height + stripRows - 1) / stripRows)
        return 2 * strips * min(stripRows, height) * (lineBytes + 1) + 2 * lineBytes
    }

    package func write(_ rows: PixelView) throws {
        let n = width, bpp = alpha ? 4 : 3
        for y in rows.rows {
            let source = rows.row(y)
            current.withUnsafeMutableBufferPointer { line in
                if alpha {
                    Bitmap.unpremultiply(source, into: line.baseAddress!, pixels: n)
                } else {
                    for x in 0..<n {
                        line[x * 3] = source[x * 4]
                        line[x * 3 + 1] = source[x * 4 + 1]
                        line[x * 3 + 2] = source[x * 4 + 2]
                    }
                }
            }
            // Filter type 2, "up": each byte less the byte above it.
            var strip = pending.removeLast()
            if strip.isEmpty { strip.reserveCapacity(stripRows * (lineBytes + 1)) }
            strip.append(2)
            let start = strip.count
            strip.append(contentsOf: current)
            strip.withUnsafeMutableBufferPointer { s in
                previous.withUnsafeBufferPointer { above in
                    let out = s.baseAddress! + start
                    for i in 0..<(n * bpp) { out[i] = out[i] &- above[i] }
                }
            }
            swap(&previous, &current)
            pending.append(strip)
            rowsWritten += 1
            if strip.count == stripRows * (lineBytes + 1) {
                if pending.count == parts { try flush(last: false) } else { pending.append([]) }
            }
        }
    }

    package func finish() throws {
        precondition(rowsWritten == height, "\(rowsWritten) of \(height) rows written")
        if pending.last?.isEmpty == true { pending.removeLast() }
        try flush(last: true)
        try chunk("IEND", [])
    }

    /// Compresses the pending strips (all at once) and writes them as IDAT chunks, in order.
    private func flush(last: Bool) throws {
        let strips = pending, level = level
        let dictionaries = [dictionary] + strips.dropLast().map { Array($0.suffix(32 << 10)) }
        let results = Locked([(bytes: [UInt8], adler: uLong)](repeating: ([], 0), count: strips.count))
        let failed = Locked(false)
        DispatchQueue.concurrentPerform(iterations: strips.count) { i in
            let final = last && i == strips.count - 1
            guard let packed = PNGRowSink.deflateStrip(strips[i], dictionary: dictionaries[i], level: level, final: final) else {
                failed.withLock { $0 = true }
                return
            }
            let sum = strips[i].withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }
            results.withLock { $0[i] = (packed, sum) }
        }
        guard !failed.withLock({ $0 }) else { throw EncodingError.failed(format: .png, message: "zlib could not compress a strip") }
        let packed = results.withLock { $0 }
        for (i, strip) in packed.enumerated() {
            var data = strip.bytes
            if !startedStream {
                startedStream = true
                // The zlib header: deflate, 32 KiB window, the level's hint, checked mod 31.
                let hint: UInt8 = level < 2 ? 0x01 : level < 6 ? 0x5E : level == 6 ? 0x9C : 0xDA
                data.insert(contentsOf: [0x78, hint], at: 0)
            }
            adler = adler32_combine(adler, strip.adler, off_t(strips[i].count))
            if last && i == packed.count - 1 {
                var tail = [UInt8](repeating: 0, count: 4)
                PNGRowSink.put32(UInt32(truncatingIfNeeded: adler), &tail, 0)
                data.append(contentsOf: tail)
            }
            try chunk("IDAT", data)
        }
        dictionary = Array((strips.last ?? []).suffix(32 << 10))
        pending = [[]]
    }

    /// Whether the zlib header has gone out (with the first strip).
    private var startedStream = false

    /// A raw deflate stream of `data`, primed with `dictionary`, ended by a sync flush or, when
    /// `final`, by the final block. Nil when zlib fails (out of memory).
    private static func deflateStrip(_ data: [UInt8], dictionary: [UInt8], level: Int32, final: Bool) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        if !dictionary.isEmpty {
            let ok = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
            guard ok == Z_OK else { return nil }
        }
        let bound = Int(deflateBound(&stream, uLong(data.count))) + 64
        var out = [UInt8](repeating: 0, count: bound)
        let code = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, final ? Z_FINISH : Z_SYNC_FLUSH)
            }
        }
        guard final ? code == Z_STREAM_END : (code == Z_OK && stream.avail_in == 0) else { return nil }
        out.removeLast(Int(stream.avail_out))
        return out
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws {
        var head = [UInt8](repeating: 0, count: 8)
        PNGRowSink.put32(UInt32(data.count), &head, 0)
        let name = Array(type.utf8)
        head.replaceSubrange(4..<8, with: name)
        var crc = name.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 4) }
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        var tail = [UInt8](repeating: 0, count: 4)
        PNGRowSink.put32(UInt32(truncatingIfNeeded: crc), &tail, 0)
        try write(head)
        try write(data)
        try write(tail)
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try output($0) }
    }

    private static func put32(_ value: UInt32, _ bytes: inout [UInt8], _ at: Int) {
        bytes[at] = UInt8(value >> 24)
        bytes[at + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[at + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[at + 3] = UInt8(truncatingIfNeeded: value)
    }
}
