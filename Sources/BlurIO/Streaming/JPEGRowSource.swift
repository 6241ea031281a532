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
///
/// A file of more than `BK_JPEG_MAXIMUM_SCANS` (1000) scans is refused as soon as the decoder
/// reaches the next one (``DecodingError/unsupported(format:feature:)``); an input file's
/// ``InputFile/cancellation`` is asked by libjpeg's progress monitor for every row of blocks of
/// every scan, so a progressive file (all of whose scans are read before the first row comes
/// out) stops within a row of blocks of its deadline, with `PipelineError.cancelled`.
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
    /// The input's cancellation, which libjpeg's progress monitor asks through the shim.
    private var stop: CancellationBox?

    /// A source over an input file, from its current position, stopping when the input's
    /// ``InputFile/cancellation`` says so.
    /// - Parameter reduction: 1, 2, 4 or 8.
    package convenience init(input: InputFile, reduction: Int = 1) throws(DecodingError) {
        try self.init(stream: input.stream, reduction: reduction, owner: input, memory: nil)
        let box = CancellationBox(input.cancellation)
        stop = box
        bk_jpeg_reader_set_stop(
            reader, { context in Unmanaged<CancellationBox>.fromOpaque(context!).takeUnretainedValue().value.isOver ? 1 : 0 },
            Unmanaged.passUnretained(box).toOpaque())
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
        // A progressive file is decoded whole into coefficients before its first row: counted.
        bufferedBytes = bk_jpeg_reader_buffered_bytes(reader)
        try DecodingError.checkBudget(.jpeg, width: width, height: height, bytes: heldBytes)
        try profile?.check(in: .jpeg)
    }

    deinit {
        bk_jpeg_reader_close(reader)
        if let memory { fclose(memory) }
    }

    /// Bytes libjpeg holds for the whole image's coefficients (a file of several scans), else 0.
    private var bufferedBytes = 0

    package var heldBytes: Int { width * 4 + bufferedBytes }

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
            let status = bk_jpeg_reader_start(reader, &message)
            guard status == 0 else { throw JPEGRowSource.failure(status, message) }
            started = true
        }
        let status = bk_jpeg_reader_read(reader, rows.base, rows.bytesPerRow, Int32(rows.height), &message)
        guard status == 0 else { throw JPEGRowSource.failure(status, message) }
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

    /// What a start or read that returned `status` throws: the caller's stop, the scan limit, or the decoder's error.
    static func failure(_ status: Int32, _ message: [CChar]) -> any Error {
        switch Int(status) {
        case BK_JPEG_STOPPED: return PipelineError.cancelled
        case BK_JPEG_TOO_MANY_SCANS:
            return DecodingError.unsupported(
                format: .jpeg, feature: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        default: return failure(message)
        }
    }

    static func failure(_ message: [CChar]) -> DecodingError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.contains("Premature end") { return .truncated(format: .jpeg) }
        return .corrupt(format: .jpeg, message: text)
    }
}

/// A cancellation kept at a fixed address for the C shim's callback.
private final class CancellationBox {
    let value: Cancellation
    init(_ value: Cancellation) { self.value = value }
}
