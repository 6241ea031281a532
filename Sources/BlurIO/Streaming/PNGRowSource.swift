import BlurCore
import CPNGShim

#if canImport(Glibc)
import Glibc
#endif

/// PNG rows through libpng, behind a C shim that owns libpng's setjmp: every colour type and bit
/// depth, with `tRNS`, as 8-bit RGBA. 16-bit samples become the nearest 8-bit value,
/// v × 255 / 65535 rounded. Interlaced images are decoded whole on the first read (their rows
/// arrive in seven passes); others a row at a time. (libpng unfilters Paeth rows with SIMD: on
/// photos it decodes about a quarter faster than libspng here.)
package final class PNGRowSource: RowSource {
    private let reader: OpaquePointer
    package let width: Int
    package let height: Int
    /// True when the file has no alpha channel and no `tRNS`: every pixel is opaque.
    package let isOpaque: Bool
    private let interlaced: Bool
    /// The embedded ICC profile (`iCCP`), if any; none for a file with an `sRGB` chunk.
    package let profile: ColorProfile?
    /// The conversion of the rows to sRGB, once ``convertToSRGB()`` has found one.
    private var conversion: ColorConversion?
    private var whole: [UInt8]?
    /// What the reader reads, kept alive as long as it is: an input file, or bytes in memory.
    private let owner: AnyObject?
    private let memory: UnsafeMutablePointer<FILE>?

    /// A source over an input file, from its current position.
    package convenience init(input: InputFile) throws(DecodingError) {
        try self.init(stream: input.stream, owner: input, memory: nil)
    }

    /// A source over bytes in memory, which must stay valid while rows are read.
    package convenience init(bytes: UnsafeRawBufferPointer) throws(DecodingError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let stream = fmemopen(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, "rb") else {
            throw .corrupt(format: .png, message: "cannot read the bytes as a stream")
        }
        try self.init(stream: stream, owner: nil, memory: stream)
    }

    /// `memory`: a stream this source owns and closes (also when this initialiser throws).
    private init(stream: UnsafeMutablePointer<FILE>, owner: AnyObject?, memory: UnsafeMutablePointer<FILE>?) throws(DecodingError) {
        var message = [CChar](repeating: 0, count: Int(BK_PNG_MESSAGE_SIZE))
        var w: Int32 = 0, h: Int32 = 0, refused: Int32 = 0, alpha: Int32 = 0, interlace: Int32 = 0, truncated: Int32 = 0, sRGB: Int32 = 0
        var icc: UnsafePointer<UInt8>?
        var iccSize = 0
        let limit = UInt64(ImageLimits.maximumPixelCount), budget = UInt64(ImageLimits.memoryBudget)
        guard
            let reader = bk_png_reader_open(
                stream, limit, budget, &w, &h, &refused, &alpha, &interlace, &icc, &iccSize, &sRGB, &truncated, &message)
        else {
            if let memory { fclose(memory) }
            let (width, height) = (Int(w), Int(h))
            switch refused {
            case 1: throw .tooLarge(format: .png, width: width, height: height, limit: ImageLimits.maximumPixelCount)
            case 2: throw .overBudget(format: .png, width: width, height: height, needed: width * 16, budget: ImageLimits.memoryBudget)
            default: throw PNGRowSource.failure(message, truncated: truncated)
            }
        }
        self.reader = reader
        width = Int(w)
        height = Int(h)
        isOpaque = alpha == 0
        interlaced = interlace != 0
        profile = sRGB != 0 ? nil : icc.map { ColorProfile(data: Array(UnsafeBufferPointer(start: $0, count: iccSize))) }
        self.owner = owner
        self.memory = memory
        // From here on the object is whole: a throw closes the reader in `deinit`.
        try DecodingError.checkSize(.png, width: width, height: height)
        try profile?.check(in: .png)
    }

    deinit {
        bk_png_reader_close(reader)
        if let memory { fclose(memory) }
    }

    package var heldBytes: Int { interlaced ? width * height * 4 : 0 }

    /// Has the rows converted from the file's profile to sRGB as they are read (straight, before
    /// they are premultiplied); nothing when the profile is sRGB's or there is none.
    package func convertToSRGB() {
        conversion = profile.flatMap { ColorConversion(from: $0) }
    }

    package func read(into rows: MutablePixelView) throws {
        var message = [CChar](repeating: 0, count: Int(BK_PNG_MESSAGE_SIZE))
        var truncated: Int32 = 0
        if interlaced {
            if whole == nil {
                var bytes = [UInt8](repeating: 0, count: width * height * 4)
                let code = bytes.withUnsafeMutableBufferPointer {
                    bk_png_reader_read(reader, $0.baseAddress, width * 4, Int32(height), &truncated, &message)
                }
                guard code == 0 else { throw PNGRowSource.failure(message, truncated: truncated) }
                whole = bytes
            }
            whole!.withUnsafeBufferPointer { source in
                for y in rows.rows { rows.row(y).update(from: source.baseAddress! + y * width * 4, count: width * 4) }
            }
        } else {
            guard bk_png_reader_read(reader, rows.base, rows.bytesPerRow, Int32(rows.height), &truncated, &message) == 0 else {
                throw PNGRowSource.failure(message, truncated: truncated)
            }
        }
        conversion?.convert(rows)
        if !isOpaque { Bitmap.premultiply(rows) }
    }

    private static func failure(_ message: [CChar], truncated: Int32) -> DecodingError {
        if truncated != 0 { return .truncated(format: .png) }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .corrupt(format: .png, message: text)
    }
}
