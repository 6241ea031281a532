import BlurCore
import CZlib
import Dispatch
import Foundation

/// PNG rows encoded as they come: rows gathered into strips of about 256 KiB, and each strip
/// Paeth-filtered and compressed on a core of its own; strips written in order.
///
/// The strips form one zlib stream, as pigz makes one: every strip is a raw deflate stream primed
/// with the 32 KiB of filtered rows before it and ended with a sync flush (the last with the final
/// block), so a strip's bytes depend only on the image and the level — not on the thread count.
/// The IDAT chunks hold a strip each; the Adler-32 of the whole comes from the strips' by
/// `adler32_combine`. Level 1, the default, chooses per strip from an 8-KiB sample of its middle:
/// zlib's run-length strategy, which on photos and blurs packs as tightly as level 6 in a fraction of
/// the time, or level 3's search for repeats when the sample packs 5 % smaller that way (textures,
/// flat graphics, text: a blurred grass texture 274 KB → 169 KB). Levels 2…9 are zlib's own.
///
/// libpng compresses with one thread; the chunk framing here is the 12 bytes
/// around each chunk (length, type, CRC-32), and every file is read back by libpng and Pillow in
/// the tests.
package final class PNGRowSink: RowSink {
    private let width: Int
    private let height: Int
    private let alpha: Bool
    private let level: Int32
    private let parts: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    /// Bytes a row, straight RGB or RGBA.
    private let lineBytes: Int
    private let stripRows: Int
    /// Rows before a strip whose filtered bytes make its 32 KiB dictionary, and one more (the row
    /// above them, for the filter).
    private let contextRows: Int
    /// Strips not compressed yet.
    private var pending: [Strip] = []
    /// The last raw rows written, up to `contextRows` of them: the context of the next strip.
    private var history: [UInt8] = []
    private var rowsWritten = 0
    private var adler: uLong = 1
    /// Whether the zlib header has gone out (with the first strip).
    private var startedStream = false

    /// A strip's raw rows and the raw rows just before it.
    private struct Strip: Sendable {
        var raw: [UInt8] = []
        var context: [UInt8] = []
        /// Whether `context` begins at the image's first row (nothing above it).
        var contextAtTop = true
    }

    /// Asked between steps of a strip's compression: at level 9 one strip of a smooth image takes a
    /// quarter of a second, all strips of a flush at once (a render cut at its time limit ran a
    /// second past it, two under load, in zlib).
    private let cancellation: Cancellation

    package init(
        width: Int, height: Int, alpha: Bool, level: Int = ImageFile.defaultCompression, parts: Int? = nil,
        profile: ColorProfile? = nil, cancellation: Cancellation = .never, output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        self.cancellation = cancellation
        self.width = width
        self.height = height
        self.alpha = alpha
        self.level = Int32(min(9, max(0, level)))
        self.parts = max(1, parts ?? ProcessInfo.processInfo.activeProcessorCount)
        self.output = output
        lineBytes = width * (alpha ? 4 : 3)
        stripRows = max(1, (256 << 10) / (lineBytes + 1))
        contextRows = (32 << 10 + lineBytes) / (lineBytes + 1) + 1
        var header = [UInt8](repeating: 0, count: 13)
        PNGRowSink.put32(UInt32(width), &header, 0)
        PNGRowSink.put32(UInt32(height), &header, 4)
        header[8] = 8
        header[9] = alpha ? 6 : 2
        try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try chunk("IHDR", header)
        if let profile, !profile.data.isEmpty { try chunk("iCCP", try PNGRowSink.iCCP(profile)) }
    }

    /// An `iCCP` chunk's data: a name, NUL, compression method 0, the profile deflated.
    private static func iCCP(_ profile: ColorProfile) throws -> [UInt8] {
        var size = compressBound(uLong(profile.data.count))
        var packed = [UInt8](repeating: 0, count: Int(size))
        let code = packed.withUnsafeMutableBufferPointer { out in
            profile.data.withUnsafeBufferPointer { compress2(out.baseAddress, &size, $0.baseAddress, uLong($0.count), 9) }
        }
        guard code == Z_OK else { throw EncodingError.failed(format: .png, message: "zlib could not compress the ICC profile") }
        return Array("ICC Profile".utf8) + [0, 0] + packed.prefix(Int(size))
    }

    /// The strips compressed at once: raw, filtered and compressed.
    package var heldBytes: Int {
        let strips = min(parts, (height + stripRows - 1) / stripRows)
        return 3 * strips * min(stripRows, height) * (lineBytes + 1) + 2 * contextRows * lineBytes
    }

    package func write(_ rows: PixelView) throws {
        let n = width
        for y in rows.rows {
            if pending.isEmpty || pending[pending.count - 1].raw.count == stripRows * lineBytes {
                if pending.count == parts { try flush(last: false) }
                let context = Array(history.suffix(contextRows * lineBytes))
                var strip = Strip(context: context, contextAtTop: rowsWritten < contextRows)
                strip.raw.reserveCapacity(min(stripRows, height - rowsWritten) * lineBytes)
                pending.append(strip)
            }
            let source = rows.row(y), at = pending[pending.count - 1].raw.count
            pending[pending.count - 1].raw.append(contentsOf: repeatElement(0, count: lineBytes))
            pending[pending.count - 1].raw.withUnsafeMutableBufferPointer { raw in
                let line = raw.baseAddress! + at
                if alpha {
                    Bitmap.unpremultiply(source, into: line, pixels: n)
                } else {
                    for x in 0..<n {
                        line[x * 3] = source[x * 4]
                        line[x * 3 + 1] = source[x * 4 + 1]
                        line[x * 3 + 2] = source[x * 4 + 2]
                    }
                }
                history.append(contentsOf: UnsafeBufferPointer(start: line, count: lineBytes))
            }
            if history.count >= 2 * contextRows * lineBytes { history.removeFirst(history.count - contextRows * lineBytes) }
            rowsWritten += 1
        }
    }

    package func finish() throws {
        precondition(rowsWritten == height, "\(rowsWritten) of \(height) rows written")
        try flush(last: true)
        try chunk("IEND", [])
    }

    /// Filters and compresses the pending strips (all at once), then writes them as IDAT chunks,
    /// in order.
    private func flush(last: Bool) throws {
        let strips = pending, level = level, lineBytes = lineBytes, bpp = alpha ? 4 : 3, cancellation = cancellation
        let results = Locked([(bytes: [UInt8], adler: uLong, count: Int)?](repeating: nil, count: strips.count))
        DispatchQueue.concurrentPerform(iterations: strips.count) { i in
            let strip = strips[i]
            // The filtered context is what the stream holds just before this strip: its dictionary.
            let contextLines = strip.context.count / lineBytes
            let skipped = strip.contextAtTop ? 0 : 1
            let above = [UInt8](repeating: 0, count: lineBytes)
            let filteredContext = PNGRowSink.filter(strip.context, lines: contextLines, first: skipped, above: above, bpp: bpp)
            let lastAbove = contextLines > 0 ? Array(strip.context.suffix(lineBytes)) : above
            let filtered = PNGRowSink.filter(strip.raw, lines: strip.raw.count / lineBytes, first: 0, above: lastAbove, bpp: bpp)
            let final = last && i == strips.count - 1
            guard !cancellation.isOver,
                let packed = PNGRowSink.deflateStrip(
                    filtered, dictionary: Array(filteredContext.suffix(32 << 10)), level: level, final: final, cancellation: cancellation)
            else { return }
            let sum = filtered.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }
            results.withLock { $0[i] = (packed, sum, filtered.count) }
        }
        let packed = results.withLock { $0 }
        if cancellation.isOver { throw PipelineError.cancelled }
        for (i, strip) in packed.enumerated() {
            guard let strip else { throw EncodingError.failed(format: .png, message: "zlib could not compress a strip (out of memory)") }
            var data = strip.bytes
            if !startedStream {
                startedStream = true
                // The zlib header: deflate, 32 KiB window, the level's hint, checked mod 31.
                let hint: UInt8 = level < 2 ? 0x01 : level < 6 ? 0x5E : level == 6 ? 0x9C : 0xDA
                data.insert(contentsOf: [0x78, hint], at: 0)
            }
            adler = adler32_combine(adler, strip.adler, off_t(strip.count))
            if last && i == packed.count - 1 {
                var tail = [UInt8](repeating: 0, count: 4)
                PNGRowSink.put32(UInt32(truncatingIfNeeded: adler), &tail, 0)
                data.append(contentsOf: tail)
            }
            try chunk("IDAT", data)
        }
        pending = []
    }

    /// Rows `first ..< lines` of `raw` (`lines` rows, the one before `first` — or `above` when
    /// `first` is 0 — being the row above), each as filter type 4, Paeth, and its bytes.
    static func filter(_ raw: [UInt8], lines: Int, first: Int, above: [UInt8], bpp: Int) -> [UInt8] {
        let length = lines == 0 ? 0 : raw.count / lines
        guard lines > first else { return [] }
        return [UInt8](unsafeUninitializedCapacity: (lines - first) * (length + 1)) { out, count in
            raw.withUnsafeBufferPointer { r in
                above.withUnsafeBufferPointer { top in
                    for line in first..<lines {
                        let row = r.baseAddress! + line * length
                        let up = line == 0 ? top.baseAddress! : row - length
                        let target = out.baseAddress! + (line - first) * (length + 1)
                        target[0] = 4
                        paeth(row, above: up, count: length, bpp: bpp, into: target + 1)
                    }
                }
            }
            count = (lines - first) * (length + 1)
        }
    }

    /// PNG's Paeth filter of one row: each byte less the one of left, above and above-left that is
    /// nearest to left + above − above-left (ties: left, then above). Sixteen bytes at a time; the
    /// predictors come from the unfiltered rows, so nothing waits on the previous lane.
    static func paeth(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int, into out: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func predict(_ a: Int, _ b: Int, _ c: Int) -> Int {
            let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
            return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        }
        for i in 0..<min(bpp, count) { out[i] = row[i] &- UInt8(predict(0, Int(above[i]), 0)) }
        var i = bpp
        while i + 16 <= count {
            let x = load(row + i), a = load(row + i - bpp), b = load(above + i), c = load(above + i - bpp)
            // Branch-free: |d| as max(d, −d); "x ≤ y" as the sign of y − x, all ones or zeros (the
            // differences lie within ±1020, far from Int16's edges).
            let pa = pointwiseMax(b &- c, c &- b), pb = pointwiseMax(a &- c, c &- a)
            let sum = a &+ b &- c &- c, pc = pointwiseMax(sum, 0 &- sum)
            let useA = ~((pb &- pa) &>> 15) & ~((pc &- pa) &>> 15), useB = ~((pc &- pb) &>> 15)
            let prediction = (a & useA) | (((b & useB) | (c & ~useB)) & ~useA)
            let difference = SIMD16<UInt8>(truncatingIfNeeded: x &- prediction)
            UnsafeMutableRawPointer(out + i).storeBytes(of: difference, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            out[i] = row[i] &- UInt8(predict(Int(row[i - bpp]), Int(above[i]), Int(above[i - bpp])))
            i += 1
        }
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<Int16> {
        SIMD16<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
    }

    /// A strip as a raw deflate stream, primed with `dictionary`, ended by a sync flush or, when
    /// `final`, by the final block. Level 1 is zlib's run-length strategy, or level 3 where a sample
    /// of the strip says it packs smaller (``choice(for:)``). Nil when zlib fails.
    private static func deflateStrip(
        _ data: [UInt8], dictionary: [UInt8], level requested: Int32, final: Bool, cancellation: Cancellation = .never
    ) -> [UInt8]? {
        let (level, strategy) = requested == 1 ? choice(for: data) : (requested, Z_DEFAULT_STRATEGY)
        return deflateRaw(data, dictionary: dictionary, level: level, strategy: strategy, final: final, cancellation: cancellation)
    }

    /// Input handed to zlib at a time when a cancellation is asked between steps: zlib's output
    /// does not depend on how its input is divided (without a flush it only waits for more), so
    /// the bytes are the one-call bytes.
    static let deflateStep = 32 << 10

    /// Level 1's choice for a strip: runs only, or level 3's matches when 8 KiB from the strip's
    /// middle pack at least 5 % smaller with them. A function of the strip's bytes alone.
    static func choice(for data: [UInt8]) -> (level: Int32, strategy: Int32) {
        let size = min(data.count, 8 << 10), start = (data.count - size) / 2
        let sample = Array(data[start..<start + size])
        guard let runs = deflateRaw(sample, level: 1, strategy: Z_RLE, final: true)?.count,
            let matches = deflateRaw(sample, level: 3, strategy: Z_DEFAULT_STRATEGY, final: true)?.count
        else { return (1, Z_RLE) }
        return matches * 20 < runs * 19 ? (3, Z_DEFAULT_STRATEGY) : (1, Z_RLE)
    }

    /// `data` as a raw deflate stream at `level` and `strategy`, primed with `dictionary`, ended by
    /// the final block when `final`, else by a sync flush. Nil when zlib fails.
    private static func deflateRaw(
        _ data: [UInt8], dictionary: [UInt8] = [], level: Int32, strategy: Int32, final: Bool, cancellation: Cancellation = .never
    ) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        if !dictionary.isEmpty {
            let ok = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
            guard ok == Z_OK else { return nil }
        }
        let bound = Int(deflateBound(&stream, uLong(data.count))) + 64
        var out = [UInt8](repeating: 0, count: bound)
        let code: Int32? = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { target in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                // Every step but the last without a flush, the deadline asked before each.
                var at = 0
                while input.count - at > deflateStep {
                    if cancellation.isOver { return nil }
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + at)
                    stream.avail_in = uInt(deflateStep)
                    guard deflate(&stream, Z_NO_FLUSH) == Z_OK, stream.avail_in == 0 else { return Z_STREAM_ERROR }
                    at += deflateStep
                }
                stream.next_in = input.count > 0 ? UnsafeMutablePointer(mutating: input.baseAddress! + at) : nil
                stream.avail_in = uInt(input.count - at)
                return deflate(&stream, final ? Z_FINISH : Z_SYNC_FLUSH)
            }
        }
        guard let code else { return nil }
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
