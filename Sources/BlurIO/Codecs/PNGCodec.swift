import BlurCore

/// PNG: decoded by libpng (`PNGRowSource`, behind a shim that keeps libpng's jumps in C),
/// encoded by `PNGRowSink` (rows Paeth-filtered, zlib strips compressed on all cores).
///
/// Reads every colour type and bit depth (palette, gray, gray + alpha, RGB, RGBA, tRNS, 1–16
/// bits); 16-bit samples are rounded to the nearest 8-bit value. Writes 8-bit RGBA, or RGB when
/// the image is opaque.
public enum PNGCodec {
    /// Decodes a PNG: any colour type and bit depth (see the type); for an APNG, its default image.
    /// The pixels are converted to sRGB from the file's `iCCP` profile.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
        try decode(bytes, keepingProfile: false).image
    }

    /// Decodes a PNG, converted to sRGB (profile nil) or, `keepingProfile`, as stored with its
    /// `iCCP` profile.
    public static func decode(_ bytes: [UInt8], keepingProfile: Bool) throws(DecodingError) -> (image: Bitmap, profile: ColorProfile?) {
        guard !bytes.isEmpty else { throw .empty }
        let result: Result<(image: Bitmap, profile: ColorProfile?), DecodingError> = bytes.withUnsafeBytes { data in
            do {
                let source = try PNGRowSource(bytes: data)
                if !keepingProfile { source.convertToSRGB() }
                return .success((try source.collect(), keepingProfile ? source.profile : nil))
            } catch let error as DecodingError {
                return .failure(error)
            } catch {
                return .failure(.corrupt(format: .png, message: "\(error)"))
            }
        }
        return try result.get()
    }

    /// PNG bytes for `bitmap`: RGB when it is opaque, RGBA (straight alpha) otherwise — or as
    /// `alpha` says when given (RGB then drops the alpha of a translucent image). `level`: zlib's,
    /// 0…9 (``ImageFile/compressionSpec``); `fast` means level 1. The same encoder as the streaming
    /// chain's (`PNGRowSink`), so both give the same bytes.
    public static func encode(
        _ bitmap: Bitmap, alpha: Bool? = nil, fast: Bool = false, level: Int = ImageFile.defaultCompression, profile: ColorProfile? = nil
    ) throws(EncodingError) -> [UInt8] {
        var out: [UInt8] = []
        do {
            let sink = try PNGRowSink(
                width: bitmap.width, height: bitmap.height, alpha: alpha ?? !bitmap.isOpaque, level: fast ? 1 : level, profile: profile
            ) { out.append(contentsOf: $0) }
            try bitmap.withPixels { try sink.write($0) }
            try sink.finish()
        } catch let error as EncodingError {
            throw error
        } catch {
            throw .failed(format: .png, message: "\(error)")
        }
        return out
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
