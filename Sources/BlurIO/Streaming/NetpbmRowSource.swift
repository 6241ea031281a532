import BlurCore

#if canImport(Glibc)
import Glibc
#endif

/// PAM, PPM and PGM rows (binary, 8 or 16 bits a sample), read from the stream a row at a time.
package final class NetpbmRowSource: RowSource {
    private let stream: UnsafeMutablePointer<FILE>
    private let header: NetpbmCodec.Header
    private let format: ImageFormat
    private var raster: [UInt8]
    /// The file this source reads, kept open as long as the source is.
    private var input: InputFile?
    package var width: Int { header.width }
    package var height: Int { header.height }
    /// PGM and PPM, and PAM without an alpha channel.
    package var isOpaque: Bool { header.depth == 1 || header.depth == 3 }

    package convenience init(input: InputFile) throws(DecodingError) {
        try self.init(stream: input.stream)
        self.input = input
    }

    /// A source over `stream` from its start; the stream must stay open while rows are read.
    package init(stream: UnsafeMutablePointer<FILE>) throws(DecodingError) {
        self.stream = stream
        var prefix = [UInt8](repeating: 0, count: 1 << 16)
        let got = fread(&prefix, 1, prefix.count, stream)
        let (header, format, offset) = try NetpbmCodec.header(Array(prefix[0..<got]))
        self.header = header
        self.format = format
        guard fseek(stream, offset, SEEK_SET) == 0 else { throw .corrupt(format: format, message: "cannot seek to the raster") }
        raster = [UInt8](repeating: 0, count: header.width * header.depth * (header.maxval > 255 ? 2 : 1))
    }

    package var heldBytes: Int { raster.count }

    package func read(into rows: MutablePixelView) throws {
        for y in rows.rows {
            let got = raster.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, stream) }
            guard got == raster.count else { throw DecodingError.truncated(format: format) }
            let bad = raster.withUnsafeBufferPointer { NetpbmCodec.convert($0.baseAddress!, header, into: rows.row(y)) }
            if let bad { throw DecodingError.corrupt(format: format, message: "sample \(bad) exceeds maxval \(header.maxval)") }
        }
        if !isOpaque { Bitmap.premultiply(rows) }
    }
}
