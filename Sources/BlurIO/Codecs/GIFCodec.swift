import BlurCore
import CGIF

/// GIF through giflib: decoding composites every frame onto the logical screen with its disposal
/// rule; encoding writes GIF89a with a local palette per frame (`Bitmap/quantized(colors:dithering:)`)
/// and a looping extension. giflib reports errors by return codes, never by jumps.
public enum GIFCodec {
    /// Every frame of a GIF (a still is one frame), as full canvases. Frames count against the
    /// pixel limit before their rasters are read; a frame outside the screen is clipped to it.
    public static func decodeAnimation(_ bytes: [UInt8], firstFrameOnly: Bool = false) throws(DecodingError) -> AnimatedImage {
        guard !bytes.isEmpty else { throw .empty }
        let source = GIFSource(bytes)
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), gifRead, &status) else {
            throw .corrupt(format: .gif, message: errorText(status))
        }
        defer { DGifCloseFile(gif, &status) }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try DecodingError.checkSize(.gif, width: width, height: height)
        try DecodingError.checkBudget(.gif, width: width, height: height, bytes: decodingBytes(width: width, height: height, frames: 1))

        var canvas = [UInt8](repeating: 0, count: width * height * 4)  // straight RGBA
        var frames: [AnimatedImage.Frame] = [], pixels = 0, loopCount = 1
        var control = GraphicsControlBlock(
            DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        func fail() -> DecodingError {
            let code = gif.pointee.Error
            if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
                return frames.isEmpty ? .truncated(format: .gif) : .truncated(format: .gif)
            }
            return .corrupt(format: .gif, message: errorText(code))
        }
        records: while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) != GIF_ERROR else {
                if !frames.isEmpty, gif.pointee.Error == D_GIF_ERR_READ_FAILED { break records }  // missing trailer
                throw fail()
            }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) != GIF_ERROR else { throw fail() }
                var first = true, netscape = false
                while let data = block {
                    let length = Int(data[0])
                    if first, code == GRAPHICS_EXT_FUNC_CODE, length >= 4 {
                        _ = DGifExtensionToGCB(length, data + 1, &control)
                    } else if first, code == APPLICATION_EXT_FUNC_CODE, length == 11 {
                        netscape = Array(UnsafeBufferPointer(start: data + 1, count: 11)) == Array("NETSCAPE2.0".utf8)
                    } else if netscape, length >= 3, data[1] == 1 {
                        loopCount = Int(data[2]) | Int(data[3]) << 8
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) != GIF_ERROR else { throw fail() }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) != GIF_ERROR else { throw fail() }
                let desc = gif.pointee.Image
                let (fx, fy, fw, fh) = (Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height))
                try DecodingError.checkSize(.gif, width: fw, height: fh)
                try DecodingError.checkBudget(
                    .gif, width: width, height: height, bytes: decodingBytes(width: width, height: height, frames: frames.count + 1) + fw * fh)
                pixels = try DecodingError.checkFrame(.gif, width: width, height: height, frames: frames.count, decodedPixels: pixels)
                guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
                    throw .corrupt(format: .gif, message: "frame \(frames.count) has no colour table")
                }
                let mapSize = Int(map.pointee.ColorCount)
                var raster = [GifPixelType](repeating: 0, count: fw * fh)
                let rows: [Int] =
                    desc.Interlace
                    ? Array(stride(from: 0, to: fh, by: 8)) + Array(stride(from: 4, to: fh, by: 8)) + Array(stride(from: 2, to: fh, by: 4))
                        + Array(stride(from: 1, to: fh, by: 2))
                    : Array(0..<fh)
                for row in rows {
                    let ok = raster.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress! + row * fw, Int32(fw)) }
                    guard ok != GIF_ERROR else { throw fail() }
                }
                let saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
                let transparent = Int(control.TransparentColor)
                for y in 0..<fh where fy + y < height {
                    for x in 0..<fw where fx + x < width {
                        let index = Int(raster[y * fw + x])
                        if index == transparent || index >= mapSize { continue }
                        let c = colors[index], o = ((fy + y) * width + fx + x) * 4
                        (canvas[o], canvas[o + 1], canvas[o + 2], canvas[o + 3]) = (c.Red, c.Green, c.Blue, 255)
                    }
                }
                let image: Bitmap
                do { image = try Bitmap(width: width, height: height, straightRGBA: canvas) } catch {
                    throw .corrupt(format: .gif, message: "frame \(frames.count) cannot be stored")
                }
                frames.append(.init(image: image, duration: Double(control.DelayTime) / 100))
                if firstFrameOnly { break records }
                switch control.DisposalMode {
                case DISPOSE_BACKGROUND:
                    // The frame's rectangle, clipped to the screen (a frame may lie wholly outside it).
                    let (x0, y0) = (min(fx, width), min(fy, height))
                    let (x1, y1) = (max(x0, min(width, fx + fw)), max(y0, min(height, fy + fh)))
                    for y in y0..<y1 { for x in x0..<x1 { for k in 0..<4 { canvas[(y * width + x) * 4 + k] = 0 } } }
                case DISPOSE_PREVIOUS:
                    canvas = saved ?? canvas
                default: break
                }
                control = GraphicsControlBlock(
                    DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
            case TERMINATE_RECORD_TYPE:
                break records
            default:
                break
            }
        }
        guard !frames.isEmpty else { throw .corrupt(format: .gif, message: "no frames") }
        return AnimatedImage(frames: frames, loopCount: loopCount)
    }

    /// The logical screen of a GIF, from its first 13 bytes (through giflib), checked against the
    /// pixel limit and the memory its first frame's decoding takes.
    public static func header(_ bytes: [UInt8]) throws(DecodingError) -> (width: Int, height: Int) {
        guard !bytes.isEmpty else { throw .empty }
        let source = GIFSource(bytes)
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), gifRead, &status) else {
            throw status == D_GIF_ERR_READ_FAILED ? .truncated(format: .gif) : .corrupt(format: .gif, message: errorText(status))
        }
        defer { DGifCloseFile(gif, &status) }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try DecodingError.checkSize(.gif, width: width, height: height)
        try DecodingError.checkBudget(.gif, width: width, height: height, bytes: decodingBytes(width: width, height: height, frames: 1))
        return (width, height)
    }

    /// The bytes decoding holds for `frames` frames of a `width × height` screen: the canvas, the
    /// copy a "restore previous" frame keeps, and the frames (each a whole screen).
    static func decodingBytes(width: Int, height: Int, frames: Int) -> Int { width * height * 4 * (2 + frames) }

    /// A GIF of every frame of `animation` (quantized here; see ``GIFEncoder`` to quantize frames
    /// in parallel).
    public static func encode(_ animation: AnimatedImage) throws(EncodingError) -> [UInt8] {
        let (w, h) = animation.size
        let encoder = try GIFEncoder(width: w, height: h, loopCount: animation.loopCount)
        var elapsed = 0.0
        for frame in animation.frames {
            try encoder.append(frame.image.quantized(), from: elapsed, to: elapsed + frame.duration)
            elapsed += frame.duration
        }
        return try encoder.finish()
    }

    static func errorText(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}

/// A GIF written frame by frame. Not thread-safe: one thread appends (quantizing, the slow part,
/// can happen beforehand on any thread).
public final class GIFEncoder {
    private let sink = GIFSink()
    private let gif: UnsafeMutablePointer<GifFileType>
    private let width: Int, height: Int
    private var closed = false

    /// - Parameters:
    ///   - width: the canvas width in pixels, 1…65,535.
    ///   - height: the canvas height in pixels, 1…65,535.
    ///   - loopCount: 0 = forever; 1 = once (no looping extension).
    public init(width: Int, height: Int, loopCount: Int = 0) throws(EncodingError) {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw .failed(format: .gif, message: "GIF frames are at most 65535×65535 pixels, got \(width)×\(height)")
        }
        var status: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), gifWrite, &status) else {
            throw .failed(format: .gif, message: GIFCodec.errorText(status))
        }
        self.gif = gif
        self.width = width
        self.height = height
        EGifSetGifVersion(gif, true)
        guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil) != GIF_ERROR else { throw failure() }
        if loopCount != 1 {
            let times = max(0, min(65535, loopCount))
            var application = Array("NETSCAPE2.0".utf8), repeats: [UInt8] = [1, UInt8(times & 255), UInt8(times >> 8)]
            guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) != GIF_ERROR,
                EGifPutExtensionBlock(gif, 11, &application) != GIF_ERROR,
                EGifPutExtensionBlock(gif, 3, &repeats) != GIF_ERROR,
                EGifPutExtensionTrailer(gif) != GIF_ERROR
            else { throw failure() }
        }
    }

    deinit {
        if !closed { var status: Int32 = 0; EGifCloseFile(gif, &status) }
    }

    /// Adds a frame shown from `start` to `end` seconds: its delay is the difference of the two
    /// times rounded to centiseconds, so rounding never accumulates.
    public func append(_ frame: IndexedImage, from start: Double, to end: Double) throws(EncodingError) {
        guard frame.width == width, frame.height == height else {
            throw .failed(format: .gif, message: "frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        let delay = Int((end * 100).rounded()) - Int((start * 100).rounded())
        var control = GraphicsControlBlock(
            DisposalMode: frame.transparentIndex == nil ? DISPOSE_DO_NOT : DISPOSE_BACKGROUND, UserInputFlag: false,
            DelayTime: Int32(max(0, min(65535, delay))), TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        _ = EGifGCBToExtension(&control, &extensionBytes)
        guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extensionBytes) != GIF_ERROR else { throw failure() }

        // The colour table size is a power of two ≥ 2.
        var size = 2
        while size < frame.palette.count { size *= 2 }
        var colors = frame.palette.map { GifColorType(Red: $0.x, Green: $0.y, Blue: $0.z) }
        colors += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colors.count)
        guard let map = GifMakeMapObject(Int32(size), colors) else { throw .failed(format: .gif, message: "out of memory") }
        defer { GifFreeMapObject(map) }
        guard EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, map) != GIF_ERROR else { throw failure() }
        var indices = frame.indices
        for row in 0..<height {
            let ok = indices.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress! + row * width, Int32(width)) }
            guard ok != GIF_ERROR else { throw failure() }
        }
    }

    /// The file's bytes. Call once, after the last frame.
    public func finish() throws(EncodingError) -> [UInt8] {
        var status: Int32 = 0
        closed = true
        guard EGifCloseFile(gif, &status) != GIF_ERROR else { throw .failed(format: .gif, message: GIFCodec.errorText(status)) }
        return sink.bytes
    }

    private func failure() -> EncodingError { .failed(format: .gif, message: GIFCodec.errorText(gif.pointee.Error)) }
}

/// The bytes giflib reads from, through its input callback.
final class GIFSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// The bytes giflib writes, through its output callback.
final class GIFSink {
    var bytes: [UInt8] = []
}

private func gifRead(_ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ count: Int32) -> Int32 {
    guard let gif, let buffer, let user = gif.pointee.UserData, count > 0 else { return 0 }
    let source = Unmanaged<GIFSource>.fromOpaque(user).takeUnretainedValue()
    let n = min(Int(count), source.bytes.count - source.offset)
    guard n > 0 else { return 0 }
    source.bytes.withUnsafeBufferPointer { (buffer).update(from: $0.baseAddress! + source.offset, count: n) }
    source.offset += n
    return Int32(n)
}

private func gifWrite(_ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafePointer<GifByteType>?, _ count: Int32) -> Int32 {
    guard let gif, let buffer, let user = gif.pointee.UserData, count > 0 else { return 0 }
    Unmanaged<GIFSink>.fromOpaque(user).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(count)))
    return count
}
