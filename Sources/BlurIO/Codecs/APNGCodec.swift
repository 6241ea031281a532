import BlurCore

/// Animated PNG. Debian's libpng has no APNG patch, so the animation chunks (`acTL`, `fcTL`,
/// `fdAT`) are written and read here around frames that ``PNGCodec`` encodes and decodes as
/// ordinary PNGs. A file without `acTL` is a one-frame animation.
public enum APNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk: four-letter type and data.
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    /// The chunks of a PNG stream; a bad CRC or a short chunk is corrupt/truncated.
    static func chunks(_ bytes: [UInt8]) throws(DecodingError) -> [Chunk] {
        guard bytes.starts(with: signature) else { throw .corrupt(format: .png, message: "no PNG signature") }
        var out: [Chunk] = [], at = 8
        while at < bytes.count {
            guard at + 12 <= bytes.count else { throw .truncated(format: .png) }
            let length = Int(bigEndian32(bytes, at))
            guard length <= 0x7FFF_FFFF, at + 12 + length <= bytes.count else { throw .truncated(format: .png) }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let crc = bigEndian32(bytes, at + 8 + length)
            guard CRC32.checksum(bytes[(at + 4)..<(at + 8 + length)]) == crc else {
                throw .corrupt(format: .png, message: "bad CRC in the \(type) chunk")
            }
            out.append(Chunk(type: type, data: Array(bytes[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
            if type == "IEND" { break }
        }
        return out
    }

    /// Every frame, composited with its blend and dispose operations onto the canvas.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> AnimatedImage {
        let all = try chunks(bytes)
        guard let header = all.first, header.type == "IHDR", header.data.count == 13 else {
            throw .corrupt(format: .png, message: "the first chunk is not IHDR")
        }
        guard let control = all.first(where: { $0.type == "acTL" }), control.data.count == 8 else {
            return AnimatedImage(frames: [.init(image: try PNGCodec.decode(bytes), duration: 0)])
        }
        let width = Int(bigEndian32(header.data, 0)), height = Int(bigEndian32(header.data, 4))
        try DecodingError.checkSize(.png, width: width, height: height)
        let plays = Int(bigEndian32(control.data, 4))
        // Chunks every frame's stand-alone PNG needs: palette, transparency, colour space.
        let shared = all.filter { ["PLTE", "tRNS", "gAMA", "sRGB", "iCCP", "cHRM", "sBIT"].contains($0.type) }

        var canvas: Bitmap
        do { canvas = try Bitmap(width: width, height: height) } catch { throw .corrupt(format: .png, message: "\(error)") }
        var frames: [AnimatedImage.Frame] = [], pixels = 0
        var pending: (x: Int, y: Int, w: Int, h: Int, delay: Double, dispose: UInt8, blend: UInt8)?
        var data: [UInt8] = []
        func finishFrame() throws(DecodingError) {
            guard let f = pending else { return }
            pending = nil
            pixels = try DecodingError.checkFrame(.png, width: width, height: height, frames: frames.count, decodedPixels: pixels)
            var ihdr = header.data
            for (k, v) in [(0, f.w), (4, f.h)] { for b in 0..<4 { ihdr[k + b] = UInt8(truncatingIfNeeded: v >> (24 - 8 * b)) } }
            var png = signature
            png += chunkBytes("IHDR", ihdr)
            for chunk in shared { png += chunkBytes(chunk.type, chunk.data) }
            png += chunkBytes("IDAT", data) + chunkBytes("IEND", [])
            data = []
            let image = try PNGCodec.decode(png)
            guard image.width == f.w, image.height == f.h else { throw .corrupt(format: .png, message: "frame \(frames.count) has the wrong size") }
            let before = canvas
            let region = PixelRect(x: f.x, y: f.y, width: f.w, height: f.h)
            if f.blend == 0 { canvas.replacePixels(at: f.x, f.y, with: image) } else { canvas.composite(image, at: region) }
            frames.append(.init(image: canvas, duration: f.delay))
            switch f.dispose {
            case 1: canvas.replacePixels(at: f.x, f.y, with: image.clearedLike())
            case 2: canvas = before
            default: break
            }
        }
        for chunk in all {
            switch chunk.type {
            case "fcTL":
                try finishFrame()
                guard chunk.data.count == 26 else { throw .corrupt(format: .png, message: "fcTL has \(chunk.data.count) bytes, not 26") }
                let d = chunk.data
                let (w, h, x, y) = (Int(bigEndian32(d, 4)), Int(bigEndian32(d, 8)), Int(bigEndian32(d, 12)), Int(bigEndian32(d, 16)))
                guard w > 0, h > 0, x + w <= width, y + h <= height else {
                    throw .corrupt(format: .png, message: "frame \(frames.count) (\(w)×\(h) at \(x),\(y)) lies outside the \(width)×\(height) canvas")
                }
                let numerator = Double(Int(d[20]) << 8 | Int(d[21])), denominator = Double(Int(d[22]) << 8 | Int(d[23]))
                pending = (x, y, w, h, numerator / (denominator == 0 ? 100 : denominator), frames.isEmpty && d[24] == 2 ? 1 : d[24], d[25])
            case "IDAT", "fdAT":
                guard pending != nil else { continue }  // an IDAT that is not part of the animation
                data += chunk.type == "fdAT" ? Array(chunk.data.dropFirst(4)) : chunk.data
            default:
                break
            }
        }
        try finishFrame()
        guard !frames.isEmpty else { throw .corrupt(format: .png, message: "acTL but no frames") }
        return AnimatedImage(frames: frames, loopCount: plays)
    }

    static func bigEndian32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    static func chunkBytes(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return uint32(data.count) + body + uint32(Int(CRC32.checksum(body[...])))
    }

    static func uint32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
}

/// An APNG written frame by frame: each frame is compressed by ``PNGCodec`` on its own (so frames can be
/// prepared on any thread with ``prepare(_:)``) and stored as `IDAT` (the first, which readers
/// without APNG show) or `fdAT`. Every frame covers the whole canvas. Not thread-safe to append.
public final class APNGEncoder {
    /// A frame compressed by ``PNGCodec``, ready to append.
    public struct Prepared: Sendable {
        let header: [UInt8]
        let data: [[UInt8]]
        /// The compressed bytes this frame adds to the file.
        var byteCount: Int { data.reduce(0) { $0 + $1.count + 16 } }
    }

    private let width: Int, height: Int, loopCount: Int, opaque: Bool
    private var body: [UInt8] = []
    private var header: [UInt8]?
    private var frames = 0, sequence = 0

    /// - Parameters:
    ///   - width: the canvas width in pixels.
    ///   - height: the canvas height in pixels.
    ///   - opaque: store RGB (every frame must then be opaque: alpha is dropped) rather than RGBA.
    ///   - loopCount: 0 = forever.
    public init(width: Int, height: Int, opaque: Bool, loopCount: Int = 0) {
        self.width = width
        self.height = height
        self.opaque = opaque
        self.loopCount = max(0, loopCount)
    }

    /// Compresses a frame. Thread-safe.
    public func prepare(_ frame: Bitmap) throws(EncodingError) -> Prepared {
        guard frame.width == width, frame.height == height else {
            throw .failed(format: .png, message: "frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        let png = try PNGCodec.encode(frame, alpha: !opaque, fast: true)
        guard let chunks = try? APNGCodec.chunks(png), let ihdr = chunks.first(where: { $0.type == "IHDR" }) else {
            throw .failed(format: .png, message: "the PNG encoder wrote an unreadable stream")
        }
        return Prepared(header: ihdr.data, data: chunks.filter { $0.type == "IDAT" }.map(\.data))
    }

    /// Adds a prepared frame shown for `numerator / denominator` seconds (APNG's own fraction).
    public func append(_ frame: Prepared, delay numerator: UInt16, over denominator: UInt16) {
        if header == nil { header = frame.header }
        var control = APNGCodec.uint32(sequence) + APNGCodec.uint32(width) + APNGCodec.uint32(height) + APNGCodec.uint32(0) + APNGCodec.uint32(0)
        // Dispose none, blend source.
        control += [UInt8(numerator >> 8), UInt8(numerator & 255), UInt8(denominator >> 8), UInt8(denominator & 255), 0, 0]
        sequence += 1
        body += APNGCodec.chunkBytes("fcTL", control)
        for part in frame.data {
            if frames == 0 {
                body += APNGCodec.chunkBytes("IDAT", part)
            } else {
                body += APNGCodec.chunkBytes("fdAT", APNGCodec.uint32(sequence) + part)
                sequence += 1
            }
        }
        frames += 1
    }

    /// The file's bytes.
    public func finish() throws(EncodingError) -> [UInt8] {
        guard let header, frames > 0 else { throw .failed(format: .png, message: "an animation needs at least one frame") }
        return APNGCodec.signature + APNGCodec.chunkBytes("IHDR", header)
            + APNGCodec.chunkBytes("acTL", APNGCodec.uint32(frames) + APNGCodec.uint32(loopCount))
            + body + APNGCodec.chunkBytes("IEND", [])
    }
}

/// CRC-32 (ISO 3309, as PNG uses it).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
