import BlurCore
import CSPNG

#if canImport(Glibc)
import Glibc
#endif

/// PNG rows through libspng, which reports every error as a return code (no jumps): every colour
/// type and bit depth, with `tRNS`, as 8-bit RGBA. 16-bit samples become the nearest 8-bit value,
/// v × 255 / 65535 rounded, as libpng gives them. Interlaced images are decoded whole (their rows
/// arrive in seven passes); others a row at a time.
package final class PNGRowSource: RowSource {
    private let context: OpaquePointer
    package let width: Int
    package let height: Int
    /// True when the file has no alpha channel and no `tRNS`: every pixel is opaque.
    package let isOpaque: Bool
    private var whole: [UInt8]?
    private var started = false
    /// 16 bits a sample: rows are decoded as RGBA16 into `wide`, then rounded to 8 bits.
    private let sixteen: Bool
    private var wide: [UInt16] = []

    /// The file this source reads, kept open as long as the source is.
    private var input: InputFile?

    /// A source over an input file, from its current position.
    package convenience init(input: InputFile) throws(DecodingError) {
        guard let context = spng_ctx_new(0) else { throw .corrupt(format: .png, message: "out of memory") }
        spng_set_png_file(context, input.stream)
        try self.init(context: context)
        self.input = input
    }

    /// A source over bytes in memory, which must stay valid while rows are read.
    package convenience init(bytes: UnsafeRawBufferPointer) throws(DecodingError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let context = spng_ctx_new(0) else { throw .corrupt(format: .png, message: "out of memory") }
        spng_set_png_buffer(context, bytes.baseAddress, bytes.count)
        try self.init(context: context)
    }

    private init(context: OpaquePointer) throws(DecodingError) {
        self.context = context
        // No ancillary chunk may make libspng allocate more than 64 MiB (text, ICC and the like).
        spng_set_chunk_limits(context, 1 << 26, 1 << 26)
        var header = spng_ihdr()
        let code = spng_get_ihdr(context, &header)
        guard code == 0 else {
            let error = PNGRowSource.failure(code)
            spng_ctx_free(context)
            throw error
        }
        width = Int(header.width)
        height = Int(header.height)
        var trns = spng_trns()
        // Reads the chunks before the first IDAT: a file cut short fails here.
        let transparency = spng_get_trns(context, &trns)
        guard transparency == 0 || transparency == Int32(SPNG_ECHUNKAVAIL.rawValue) else {
            spng_ctx_free(context)
            throw PNGRowSource.failure(transparency)
        }
        sixteen = header.bit_depth == 16
        let alphaTypes: Set<UInt8> = [4, 6]
        isOpaque = !alphaTypes.contains(header.color_type) && transparency != 0
        // From here on the object is whole: a throw frees the context in `deinit`.
        try DecodingError.checkSize(.png, width: width, height: height)
        if header.interlace_method != 0 {
            var size = 0
            spng_decoded_image_size(context, pixelFormat, &size)
            var bytes = [UInt8](repeating: 0, count: size)
            let code = bytes.withUnsafeMutableBytes {
                spng_decode_image(context, $0.baseAddress, $0.count, pixelFormat, Int32(SPNG_DECODE_TRNS.rawValue))
            }
            guard code == 0 else { throw PNGRowSource.failure(code) }
            whole = bytes
        }
    }

    deinit { spng_ctx_free(context) }

    private var pixelFormat: Int32 { Int32((sixteen ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8).rawValue) }

    /// Row `y` of RGBA16 samples (host order) at `samples`, rounded into `row`.
    private static func narrow(_ samples: UnsafePointer<UInt16>, into row: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count { row[i] = UInt8(truncatingIfNeeded: (UInt32(samples[i]) &* 255 &+ 32767) / 65535) }
    }

    package var heldBytes: Int { whole?.count ?? 0 }

    package func read(into rows: MutablePixelView) throws {
        let count = width * 4
        if let whole {
            whole.withUnsafeBytes { source in
                for y in rows.rows {
                    if sixteen {
                        PNGRowSource.narrow(source.baseAddress!.assumingMemoryBound(to: UInt16.self) + y * count, into: rows.row(y), count: count)
                    } else {
                        rows.row(y).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * count, count: count)
                    }
                }
            }
        } else {
            if !started {
                let flags = Int32(SPNG_DECODE_PROGRESSIVE.rawValue | SPNG_DECODE_TRNS.rawValue)
                let code = spng_decode_image(context, nil, 0, pixelFormat, flags)
                guard code == 0 else { throw PNGRowSource.failure(code) }
                started = true
                if sixteen { wide = [UInt16](repeating: 0, count: count) }
            }
            for y in rows.rows {
                let code: Int32
                if sixteen {
                    code = wide.withUnsafeMutableBufferPointer { spng_decode_row(context, $0.baseAddress, count * 2) }
                    wide.withUnsafeBufferPointer { PNGRowSource.narrow($0.baseAddress!, into: rows.row(y), count: count) }
                } else {
                    code = spng_decode_row(context, rows.row(y), count)
                }
                // The last row answers SPNG_EOI: the image is complete.
                guard code == 0 || (code == Int32(SPNG_EOI.rawValue) && y == height - 1) else { throw PNGRowSource.failure(code) }
            }
        }
        if !isOpaque { Bitmap.premultiply(rows) }
    }

    private static func failure(_ code: Int32) -> DecodingError {
        if code == Int32(SPNG_IO_EOF.rawValue) || code == Int32(SPNG_EOF.rawValue) { return .truncated(format: .png) }
        let text = String(cString: spng_strerror(code))
        return .corrupt(format: .png, message: text)
    }
}
