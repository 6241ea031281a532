import BlurCore
import CJPEGShim

#if canImport(Glibc)
import Glibc
#endif

/// JPEG through libjpeg-turbo, behind a C shim that owns libjpeg's setjmp.
///
/// Reads baseline and progressive JPEG in gray, YCbCr/RGB, CMYK and YCCK (Adobe-inverted or not);
/// applies the EXIF orientation so the picture comes out upright. A truncated file is an error.
/// Writes baseline JPEG at a quality of 1…100 (default 90), in one pass; JPEG has no alpha, so a
/// translucent image is composited over white.
public enum JPEGCodec {
    /// The quality used when none is given: 90 (of 1…100).
    public static let defaultQuality = 90

    /// The stored size (before orientation), read from the header alone.
    public static func size(of bytes: [UInt8]) throws(DecodingError) -> (width: Int, height: Int) {
        guard !bytes.isEmpty else { throw .empty }
        var width: Int32 = 0, height: Int32 = 0, model: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(BK_JPEG_MESSAGE_SIZE))
        let header = bytes.withUnsafeBufferPointer {
            bk_jpeg_read_header($0.baseAddress, $0.count, 1, &width, &height, &model, &message)
        }
        guard header == 0 else { throw JPEGRowSource.failure(message) }
        return (Int(width), Int(height))
    }

    /// - Parameters:
    ///   - bytes: a JPEG file's bytes.
    ///   - reduction: decode at 1/1, 1/2, 1/4 or 1/8 of the size through libjpeg's DCT scaling (much
    ///     faster than decoding in full and shrinking). Other values mean 1.
    ///   - applyOrientation: turn the image as its EXIF orientation says (default true).
    ///   The pixels are converted to sRGB from the file's ICC profile (a CMYK file through its own).
    public static func decode(_ bytes: [UInt8], reduction: Int = 1, applyOrientation: Bool = true) throws(DecodingError) -> Bitmap {
        try decode(bytes, reduction: reduction, applyOrientation: applyOrientation, keepingProfile: false).image
    }

    /// Decodes a JPEG, converted to sRGB (profile nil) or, `keepingProfile`, as stored with its ICC
    /// profile (a CMYK file is converted all the same).
    public static func decode(
        _ bytes: [UInt8], reduction: Int = 1, applyOrientation: Bool = true, keepingProfile: Bool
    ) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        guard !bytes.isEmpty else { throw .empty }
        // The streaming decoder over the bytes: one decoder for files and buffers.
        let result: Result<(image: Bitmap, profile: ColorProfile?), DecodingError> = bytes.withUnsafeBytes { data in
            do {
                let source = try JPEGRowSource(bytes: data, reduction: reduction)
                let kept = keepingProfile && !source.isCMYK ? source.profile : nil
                if kept == nil { source.convertToSRGB() }
                let image = try source.collect()
                return .success((applyOrientation ? image.oriented(source.orientation) : image, kept))
            } catch let error as DecodingError {
                return .failure(error)
            } catch {
                return .failure(.corrupt(format: .jpeg, message: "\(error)"))
            }
        }
        return try result.get()
    }

    /// JPEG bytes at `quality` 1…100: baseline, one pass (standard Huffman tables, so that the
    /// encoder never holds the whole image). The same encoder as the streaming chain's
    /// (`JPEGRowSink`), so both give the same bytes.
    /// `profile`: embedded in APP2 chunks when given.
    public static func encode(_ bitmap: Bitmap, quality: Int = defaultQuality, profile: ColorProfile? = nil) throws(EncodingError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { throw .failed(format: .jpeg, message: "out of memory") }
        do {
            let sink = try JPEGRowSink(stream: stream, width: bitmap.width, height: bitmap.height, quality: quality, profile: profile)
            try bitmap.withPixels { try sink.write($0) }
            try sink.finish()
        } catch {
            fclose(stream)
            free(buffer)
            throw error as? EncodingError ?? .failed(format: .jpeg, message: "\(error)")
        }
        fclose(stream)
        defer { free(buffer) }
        return buffer.map { Array(UnsafeRawBufferPointer(start: $0, count: size).bindMemory(to: UInt8.self)) } ?? []
    }
}
