import BlurCore

#if canImport(Glibc)
import Glibc
#endif

/// Netpbm: PAM (`P7`), PPM (`P6`) and PGM (`P5`), binary, 8 or 16 bits a sample (maxval 1…65535).
///
/// PAM tuple types GRAYSCALE, GRAYSCALE_ALPHA, RGB and RGB_ALPHA are read (alpha is straight, as
/// the format defines). Writes PAM as RGB_ALPHA, 8 bits; PPM as RGB, composited over white when the
/// image is translucent. The raw format for pipes and benchmarks: no compression, no surprises.
public enum NetpbmCodec {
    /// Decodes binary PAM, PPM or PGM; samples are scaled from maxval to 0…255, rounded. A sample over
    /// maxval is ``DecodingError/corrupt(format:message:)``, a short raster ``DecodingError/truncated(format:)``.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
        guard !bytes.isEmpty else { throw .empty }
        var copy = bytes
        let result: Result<Bitmap, DecodingError> = copy.withUnsafeMutableBytes { raw in
            guard let stream = fmemopen(raw.baseAddress, raw.count, "rb") else {
                return .failure(.corrupt(format: .pam, message: "cannot open the bytes as a stream"))
            }
            defer { fclose(stream) }
            do {
                return .success(try NetpbmRowSource(stream: stream).collect())
            } catch let error as DecodingError {
                return .failure(error)
            } catch {
                return .failure(.corrupt(format: .pam, message: "\(error)"))
            }
        }
        return try result.get()
    }

    /// The header at the start of `bytes` (a prefix of the file) and the offset of the raster.
    static func header(_ bytes: [UInt8]) throws(DecodingError) -> (Header, format: ImageFormat, rasterOffset: Int) {
        guard !bytes.isEmpty else { throw .empty }
        var reader = HeaderReader(bytes: bytes)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw .unknownFormat }
        let header: Header
        switch bytes[1] {
        case UInt8(ascii: "5"), UInt8(ascii: "6"): header = try reader.readPNM(depth: bytes[1] == UInt8(ascii: "5") ? 1 : 3)
        case UInt8(ascii: "7"): header = try reader.readPAM()
        default: throw .unsupported(format: .ppm, feature: "Netpbm type P\(Character(UnicodeScalar(bytes[1]))) (only binary P5, P6 and P7 are read)")
        }
        let format: ImageFormat = bytes[1] == UInt8(ascii: "7") ? .pam : .ppm
        try DecodingError.checkSize(format, width: header.width, height: header.height)
        return (header, format, reader.position)
    }

    /// One raster row (`width × depth` samples of 1 or 2 bytes) as straight RGBA; the first sample
    /// over maxval, if any.
    static func convert(_ samples: UnsafePointer<UInt8>, _ header: Header, into row: UnsafeMutablePointer<UInt8>) -> Int? {
        let maxval = header.maxval, depth = header.depth, sampleBytes = maxval > 255 ? 2 : 1
        var bad: Int?
        for x in 0..<header.width {
            var values = (0, 0, 0, 255)
            for s in 0..<depth {
                let at = (x * depth + s) * sampleBytes
                let raw = sampleBytes == 2 ? Int(samples[at]) << 8 | Int(samples[at + 1]) : Int(samples[at])
                if raw > maxval { bad = bad ?? raw }
                let v = maxval == 255 ? raw : (min(raw, maxval) * 255 + maxval / 2) / maxval
                switch (depth, s) {
                case (1, _), (2, 0): values.0 = v; values.1 = v; values.2 = v
                case (2, 1), (4, 3): values.3 = v
                case (_, 0): values.0 = v
                case (_, 1): values.1 = v
                default: values.2 = v
                }
            }
            (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3]) =
                (UInt8(values.0), UInt8(values.1), UInt8(values.2), UInt8(values.3))
        }
        return bad
    }

    /// PAM bytes: `P7`, RGB_ALPHA, maxval 255, straight alpha.
    public static func encodePAM(_ bitmap: Bitmap) -> [UInt8] {
        let header = "P7\nWIDTH \(bitmap.width)\nHEIGHT \(bitmap.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        return Array(header.utf8) + bitmap.straightRGBA
    }

    /// PPM bytes: `P6`, maxval 255; translucent pixels are composited over white.
    public static func encodePPM(_ bitmap: Bitmap) -> [UInt8] {
        Array("P6\n\(bitmap.width) \(bitmap.height)\n255\n".utf8) + bitmap.flattenedRGB()
    }

    struct Header {
        var width = 0, height = 0, depth = 0, maxval = 0
    }

    /// Tokens of a Netpbm header: numbers and words separated by white space, `#` comments.
    struct HeaderReader {
        let bytes: [UInt8]
        var position = 2

        mutating func readPNM(depth: Int) throws(DecodingError) -> Header {
            var header = Header(depth: depth)
            header.width = try number(format: .ppm, field: "width")
            header.height = try number(format: .ppm, field: "height")
            header.maxval = try number(format: .ppm, field: "maxval")
            // Exactly one white-space byte separates the header from the raster.
            guard position < bytes.count else { throw .truncated(format: .ppm) }
            position += 1
            try check(header, format: .ppm)
            return header
        }

        mutating func readPAM() throws(DecodingError) -> Header {
            var header = Header()
            var tupleType = ""
            while true {
                guard let key = word() else { throw .truncated(format: .pam) }
                switch key {
                case "WIDTH": header.width = try number(format: .pam, field: "WIDTH")
                case "HEIGHT": header.height = try number(format: .pam, field: "HEIGHT")
                case "DEPTH": header.depth = try number(format: .pam, field: "DEPTH")
                case "MAXVAL": header.maxval = try number(format: .pam, field: "MAXVAL")
                case "TUPLTYPE": tupleType = word() ?? ""
                case "ENDHDR":
                    // The line ends with one newline.
                    guard position < bytes.count else { throw .truncated(format: .pam) }
                    position += 1
                    let expected = ["GRAYSCALE": 1, "GRAYSCALE_ALPHA": 2, "RGB": 3, "RGB_ALPHA": 4]
                    if let depth = expected[tupleType], depth != header.depth {
                        throw .corrupt(format: .pam, message: "TUPLTYPE \(tupleType) with DEPTH \(header.depth)")
                    }
                    try check(header, format: .pam)
                    return header
                default:
                    throw .corrupt(format: .pam, message: "unknown header field \"\(key.prefix(20))\"")
                }
            }
        }

        private func check(_ header: Header, format: ImageFormat) throws(DecodingError) {
            guard (1...4).contains(header.depth) else {
                throw .unsupported(format: format, feature: "depth \(header.depth) (1 to 4 channels are read)")
            }
            guard (1...65535).contains(header.maxval) else {
                throw .corrupt(format: format, message: "maxval \(header.maxval) is outside 1…65535")
            }
        }

        private mutating func skipSpaceAndComments() {
            while position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
                } else if b == 0x20 || (0x09...0x0D).contains(b) {
                    position += 1
                } else {
                    return
                }
            }
        }

        private mutating func word() -> String? {
            skipSpaceAndComments()
            let start = position
            while position < bytes.count, !(bytes[position] == 0x20 || (0x09...0x0D).contains(bytes[position])) {
                position += 1
                if position - start > 64 { break }
            }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        private mutating func number(format: ImageFormat, field: String) throws(DecodingError) -> Int {
            guard let text = word() else { throw .truncated(format: format) }
            guard let value = Int(text), value >= 0, value < 1 << 30 else {
                throw .corrupt(format: format, message: "\(field) \"\(text.prefix(20))\" is not a valid number")
            }
            return value
        }
    }
}
