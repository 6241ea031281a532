import BlurCore
import CPNG

/// PNG through libpng's simplified API (`png_image_*`), which keeps its setjmp inside libpng:
/// every error comes back as a return code and a message, never as a jump.
///
/// Reads every colour type and bit depth (palette, gray, gray + alpha, RGB, RGBA, tRNS, 1–16
/// bits). 16-bit samples are taken as sRGB-encoded and scaled to 8 bits. Writes 8-bit RGBA, or
/// RGB when the image is opaque.
public enum PNGCodec {
    // Composite macros that Swift does not import.
    private static let formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    private static let formatRGB = UInt32(PNG_FORMAT_FLAG_COLOR)

    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
        guard !bytes.isEmpty else { throw .empty }
        // libpng keeps a pointer to the data from `begin_read` to `finish_read`: both happen while
        // the bytes are pinned.
        let result: Result<Bitmap, DecodingError> = bytes.withUnsafeBytes { data in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, data.baseAddress, data.count) != 0 else {
                return .failure(failure(&image))
            }
            let width = Int(image.width), height = Int(image.height)
            do throws(DecodingError) {
                try DecodingError.checkSize(.png, width: width, height: height)
            } catch {
                png_image_free(&image)
                return .failure(error)
            }
            image.format = formatRGBA
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            // libpng writes every row of the view (straight alpha), or fails.
            var finished: Int32 = 0
            let bitmap = try? Bitmap.filled(width: width, height: height, premultiplied: false) { pixels in
                finished = png_image_finish_read(&image, nil, pixels.base, Int32(pixels.bytesPerRow), nil)
            }
            guard let bitmap else {
                png_image_free(&image)
                return .failure(.corrupt(format: .png, message: "\(width)×\(height) cannot be stored"))
            }
            guard finished != 0 else { return .failure(failure(&image)) }
            return .success(bitmap)
        }
        return try result.get()
    }

    /// PNG bytes for `bitmap`: RGB when it is opaque, RGBA (straight alpha) otherwise — or as
    /// `alpha` says when given (RGB then drops the alpha of a translucent image). `fast` trades size
    /// for speed (libpng's `PNG_IMAGE_FLAG_FAST`: larger files, several times quicker on big frames).
    public static func encode(_ bitmap: Bitmap, alpha: Bool? = nil, fast: Bool = false) throws(EncodingError) -> [UInt8] {
        let opaque = alpha.map { !$0 } ?? bitmap.isOpaque
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        image.format = opaque ? formatRGB : formatRGBA
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        let pixels = opaque ? bitmap.packedRGB() : bitmap.straightRGBA
        let stride = Int32(bitmap.width * (opaque ? 3 : 4))
        var size = 0
        // First call measures, second writes.
        var ok = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, stride, nil) }
        guard ok != 0 else { throw .failed(format: .png, message: message(of: &image)) }
        var out = [UInt8](repeating: 0, count: size)
        ok = pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { png_image_write_to_memory(&image, $0.baseAddress, &size, 0, src.baseAddress, stride, nil) }
        }
        guard ok != 0 else { throw .failed(format: .png, message: message(of: &image)) }
        out.removeLast(out.count - size)
        return out
    }

    private static func failure(_ image: inout png_image) -> DecodingError {
        let text = message(of: &image)
        png_image_free(&image)
        if text.contains("end of") || text.contains("Read Error") || text.contains("truncated") {
            return .truncated(format: .png)
        }
        return .corrupt(format: .png, message: text)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension Bitmap {
    /// RGB bytes, 3 a pixel, of an opaque bitmap (alpha is dropped: it is 255).
    func packedRGB() -> [UInt8] {
        rgbRows { source, rgb, count in
            for x in 0..<count {
                rgb[x * 3] = source[x * 4]
                rgb[x * 3 + 1] = source[x * 4 + 1]
                rgb[x * 3 + 2] = source[x * 4 + 2]
            }
        }
    }

    /// RGB bytes, 3 a pixel, row after row, each row made by `convert(rgba row, rgb row, width)`.
    private func rgbRows(
        _ convert: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) -> [UInt8] {
        let (w, h) = (width, height)
        return withPixels { pixels in
            [UInt8](unsafeUninitializedCapacity: w * h * 3) { rgb, count in
                for y in 0..<h { convert(pixels.row(y), rgb.baseAddress! + y * w * 3, w) }
                count = w * h * 3
            }
        }
    }

    /// RGB bytes of this image composited over white: a transparent pixel becomes white.
    /// (Premultiplied colour over white is c + 255 − a.)
    func flattenedRGB() -> [UInt8] {
        rgbRows { source, rgb, count in
            for x in 0..<count {
                let a = source[x * 4 + 3]
                for c in 0..<3 { rgb[x * 3 + c] = source[x * 4 + c] &+ (255 &- a) }
            }
        }
    }
}
