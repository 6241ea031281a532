import BlurCore
import CJPEGShim

#if canImport(Glibc)
import Glibc
#endif

/// JPEG rows encoded as they come by libjpeg-turbo, from RGBX rows (its extended pixel format: the
/// fourth byte is skipped, no RGB copy): an opaque band is read where it lies. JPEG has no alpha: a
/// band with a translucent pixel is composited over white first, into a band of its own
/// (premultiplied colour over white is c + 255 − a), as ``JPEGCodec/encode(_:quality:)`` does.
package final class JPEGRowSink: RowSink {
    private let writer: OpaquePointer
    private var scratch: [UInt8] = []

    /// - Parameter profile: written in APP2 chunks when given (the input's, under `keep-profile`).
    package init(
        stream: UnsafeMutablePointer<FILE>, width: Int, height: Int, quality: Int, profile: ColorProfile? = nil
    ) throws(EncodingError) {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        let icc = profile?.data ?? []
        let opened = icc.withUnsafeBufferPointer {
            bk_jpeg_writer_open(stream, Int32(width), Int32(height), Int32(quality), $0.baseAddress, $0.count, &message)
        }
        guard let writer = opened else {
            throw JPEGRowSink.failure(message)
        }
        self.writer = writer
    }

    deinit { bk_jpeg_writer_close(writer) }

    package var heldBytes: Int { scratch.count }

    package func write(_ rows: PixelView) throws {
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        // Opaque rows over white are themselves: libjpeg reads them where they lie.
        if rows.isOpaque {
            let code = bk_jpeg_writer_write(writer, rows.row(rows.firstRow), rows.bytesPerRow, Int32(rows.height), &message)
            guard code == 0 else { throw JPEGRowSink.failure(message) }
            return
        }
        let count = rows.width * 4
        if scratch.count < count * rows.height { scratch = [UInt8](repeating: 0, count: count * rows.height) }
        let code = scratch.withUnsafeMutableBufferPointer { flat in
            for (i, y) in rows.rows.enumerated() {
                let source = rows.row(y), target = flat.baseAddress! + i * count
                for x in stride(from: 0, to: count, by: 4) {
                    let clear = 255 &- source[x + 3]
                    target[x] = source[x] &+ clear
                    target[x + 1] = source[x + 1] &+ clear
                    target[x + 2] = source[x + 2] &+ clear
                }
            }
            return bk_jpeg_writer_write(writer, flat.baseAddress, count, Int32(rows.height), &message)
        }
        guard code == 0 else { throw JPEGRowSink.failure(message) }
    }

    package func finish() throws {
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        guard bk_jpeg_writer_finish(writer, &message) == 0 else { throw JPEGRowSink.failure(message) }
    }

    private static func failure(_ message: [CChar]) -> EncodingError {
        .failed(format: .jpeg, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// PAM (RGB_ALPHA, straight alpha) or PPM (RGB over white) rows, as ``NetpbmCodec`` writes them.
package final class NetpbmRowSink: RowSink {
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private let pam: Bool
    private var line: [UInt8]

    package init(pam: Bool, width: Int, height: Int, output: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        self.pam = pam
        self.output = output
        line = [UInt8](repeating: 0, count: width * (pam ? 4 : 3))
        let header =
            pam
            ? "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" : "P6\n\(width) \(height)\n255\n"
        try Array(header.utf8).withUnsafeBytes { try output($0) }
    }

    package var heldBytes: Int { line.count }

    package func write(_ rows: PixelView) throws {
        let n = rows.width, pam = pam
        for y in rows.rows {
            let source = rows.row(y)
            try line.withUnsafeMutableBufferPointer { target in
                if pam {
                    Bitmap.unpremultiply(source, into: target.baseAddress!, pixels: n)
                } else {
                    for x in 0..<n {
                        let clear = 255 &- source[x * 4 + 3]
                        for c in 0..<3 { target[x * 3 + c] = source[x * 4 + c] &+ clear }
                    }
                }
                try output(UnsafeRawBufferPointer(target))
            }
        }
    }

    package func finish() throws {}
}

/// The formats encoded whole (WebP, GIF, AVIF, HEIC): rows gathered into a bitmap, encoded at the end.
package final class WholeImageSink: RowSink {
    private var image: Bitmap
    private let encode: (Bitmap) throws -> [UInt8]
    private let output: (UnsafeRawBufferPointer) throws -> Void
    /// What the encoder itself takes beyond the bitmap and the file it returns.
    private let encoderBytes: Int

    package init(
        width: Int, height: Int, encoderBytes: Int = 0, encode: @escaping (Bitmap) throws -> [UInt8],
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        // Sized before its bitmap is allocated (zeroed, so resident at once): a 16000² WebP took a
        // gigabyte here before the render's own check refused it.
        let pixels = width.multipliedReportingOverflow(by: height), bytes = pixels.partialValue.multipliedReportingOverflow(by: 8)
        let total = bytes.partialValue.addingReportingOverflow(encoderBytes)
        try ImageLimits.checkBudget(
            pixels.overflow || bytes.overflow || total.overflow ? .max : total.partialValue, for: "encoding a \(width)×\(height) image whole")
        image = try Bitmap(width: width, height: height)
        self.encoderBytes = encoderBytes
        self.encode = encode
        self.output = output
    }

    package var heldBytes: Int { image.width * image.height * 4 * 2 + encoderBytes }

    package func write(_ rows: PixelView) throws {
        image.withMutablePixels { target in
            for y in rows.rows { target.row(y).update(from: rows.row(y), count: rows.width * 4) }
        }
    }

    package func finish() throws {
        try encode(image).withUnsafeBytes { try output($0) }
    }
}
