import BlurCore
import CJPEGShim

#if canImport(Glibc)
import Glibc
#endif

/// JPEG rows through libjpeg-turbo's scanline decoder, straight into RGBA rows (its extended pixel
/// formats: no conversion copy), optionally at 1/2, 1/4 or 1/8 of the size by DCT scaling.
///
/// The EXIF orientation is read from the header; ``orientation`` tells the caller, which must
/// turn the image (a whole-image step) when it is not ``ImageOrientation/up``.
package final class JPEGRowSource: RowSource {
    private let reader: OpaquePointer
    package let width: Int
    package let height: Int
    /// How the stored picture must be turned to be upright.
    package let orientation: ImageOrientation
    /// The embedded ICC profile (APP2 `ICC_PROFILE`, its chunks reassembled), if any.
    package let profile: ColorProfile?
    /// Whether the image is stored as CMYK (or YCCK).
    package let isCMYK: Bool
    /// The conversion of the rows to sRGB, once ``convertToSRGB()`` has found one.
    private var conversion: ColorConversion?
    private var cmykRow: [UInt8] = []
    private var started = false
    /// What the reader reads, kept alive as long as it is: an input file, or bytes in memory.
    private let owner: AnyObject?
    private let memory: UnsafeMutablePointer<FILE>?

    /// A source over an input file, from its current position.
    /// - Parameter reduction: 1, 2, 4 or 8.
    package convenience init(input: InputFile, reduction: Int = 1) throws(DecodingError) {
        try self.init(stream: input.stream, reduction: reduction, owner: input, memory: nil)
    }

    /// A source over bytes in memory, which must stay valid while rows are read.
    package convenience init(bytes: UnsafeRawBufferPointer, reduction: Int = 1) throws(DecodingError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let stream = fmemopen(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, "rb") else {
            throw .corrupt(format: .jpeg, message: "cannot read the bytes as a stream")
        }
        try self.init(stream: stream, reduction: reduction, owner: nil, memory: stream)
    }

    /// `memory`: a stream this source owns and closes (also when this initialiser throws).
    private init(stream: UnsafeMutablePointer<FILE>, reduction: Int, owner: AnyObject?, memory: UnsafeMutablePointer<FILE>?) throws(DecodingError) {
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        var w: Int32 = 0, h: Int32 = 0
        var exif: UnsafePointer<UInt8>?, icc: UnsafePointer<UInt8>?
        var exifSize = 0, iccSize = 0
        var cmyk: Int32 = 0
        guard let reader = bk_jpeg_reader_open(stream, Int32(reduction), &w, &h, &exif, &exifSize, &icc, &iccSize, &cmyk, &message) else {
            if let memory { fclose(memory) }
            throw JPEGRowSource.failure(message)
        }
        self.reader = reader
        width = Int(w)
        height = Int(h)
        orientation = exif.flatMap { EXIF.orientation(inTIFF: ArraySlice(UnsafeBufferPointer(start: $0, count: exifSize))) } ?? .up
        profile = icc.map { ColorProfile(data: Array(UnsafeBufferPointer(start: $0, count: iccSize))) }
        isCMYK = cmyk != 0
        self.owner = owner
        self.memory = memory
        // The object is whole: a throw closes the reader in `deinit`.
        try DecodingError.checkSize(.jpeg, width: width, height: height)
        try profile?.check(in: .jpeg)
    }

    deinit {
        bk_jpeg_reader_close(reader)
        if let memory { fclose(memory) }
    }

    package var heldBytes: Int { width * 4 }

    /// Has the rows converted from the file's profile to sRGB as they are read: an RGB image through
    /// lcms2 in place (nothing when its profile is sRGB's); a CMYK one from its stored inks
    /// through its own profile, instead of the naive inversion used without one. Before the first read.
    package func convertToSRGB() {
        guard let profile, !started else { return }
        if isCMYK {
            // Without a usable CMYK profile the reader keeps its own conversion.
            let layout = bk_jpeg_reader_raw_cmyk(reader, 0)
            guard layout != 0, let inks = ColorConversion(from: profile, input: .cmyk(inverted: layout == 2)) else { return }
            conversion = inks
            _ = bk_jpeg_reader_raw_cmyk(reader, 1)
        } else {
            conversion = ColorConversion(from: profile)
        }
    }

    package func read(into rows: MutablePixelView) throws {
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        if !started {
            guard bk_jpeg_reader_start(reader, &message) == 0 else { throw JPEGRowSource.failure(message) }
            started = true
        }
        guard bk_jpeg_reader_read(reader, rows.base, rows.bytesPerRow, Int32(rows.height), &message) == 0 else {
            throw JPEGRowSource.failure(message)
        }
        guard let conversion else { return }
        if case .rgba = conversion.input { return conversion.convert(rows) }
        // The inks as stored, then through the profile into the same row.
        if cmykRow.count < width * 4 { cmykRow = [UInt8](repeating: 0, count: width * 4) }
        cmykRow.withUnsafeMutableBufferPointer { inks in
            for y in rows.rows {
                inks.baseAddress!.update(from: rows.row(y), count: width * 4)
                conversion.convert(cmyk: inks.baseAddress!, into: rows.row(y), count: width)
            }
        }
    }

    static func failure(_ message: [CChar]) -> DecodingError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.contains("Premature end") { return .truncated(format: .jpeg) }
        return .corrupt(format: .jpeg, message: text)
    }
}
