import BlurCore
import CWebP

/// WebP through libwebp: stills and animations decoded with its animation decoder (which
/// composites each frame onto the canvas), stills encoded with the simple API, animations with
/// `WebPAnimEncoder` (see ``WebPAnimationEncoder``).
public enum WebPCodec {
    /// What a WebP header declares, read without decoding: the canvas size, whether it is an
    /// animation, and whether its bitstream is lossless (which libwebp decodes through a second
    /// buffer of the whole image).
    public struct Header: Sendable, Equatable {
        /// Pixels.
        public let width: Int, height: Int
        /// An animation (several frames, composited by libwebp's animation decoder).
        public let animated: Bool
        /// A lossless (VP8L) bitstream, which libwebp decodes through a buffer of the whole image.
        public let lossless: Bool

        /// The most bytes decoding takes besides the file: libwebp's canvases, its lossless
        /// buffer, and the frames kept (`frames`, 1 for a still or the first frame only).
        public func decodingBytes(frames: Int) -> Int {
            let canvas = width * height * 4
            if !animated { return canvas * (lossless ? 2 : 1) }
            // The animation decoder's canvas and disposed copy, a lossless frame's buffer, the frames kept.
            return canvas * (3 + max(1, frames))
        }
    }

    /// The header of a WebP (`WebPGetFeatures`: the first few dozen bytes), checked against the
    /// pixel limit and the memory budget its first frame would need.
    public static func header(_ bytes: [UInt8]) throws(DecodingError) -> Header {
        guard !bytes.isEmpty else { throw .empty }
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else {
            throw status == VP8_STATUS_NOT_ENOUGH_DATA ? .truncated(format: .webp) : .corrupt(format: .webp, message: "not a valid WebP header")
        }
        let header = Header(
            width: Int(features.width), height: Int(features.height), animated: features.has_animation != 0, lossless: features.format == 2)
        try DecodingError.checkSize(.webp, width: header.width, height: header.height)
        try DecodingError.checkBudget(.webp, width: header.width, height: header.height, bytes: header.decodingBytes(frames: 1))
        return header
    }

    /// Every frame of a WebP file (a still is one frame), straight from libwebp's canvas. The size
    /// and the memory decoding takes are checked from the header first; a still is decoded straight
    /// into its bitmap.
    public static func decodeAnimation(_ bytes: [UInt8], firstFrameOnly: Bool = false) throws(DecodingError) -> AnimatedImage {
        try decodeAnimation(bytes, firstFrameOnly: firstFrameOnly, conversion: nil)
    }

    /// The same, each frame's straight pixels put through `conversion` before they are premultiplied.
    static func decodeAnimation(_ bytes: [UInt8], firstFrameOnly: Bool, conversion: ColorConversion?) throws(DecodingError) -> AnimatedImage {
        let header = try header(bytes)
        if !header.animated {
            return AnimatedImage(frames: [.init(image: try decodeStill(bytes, header, conversion: conversion), duration: 0)], loopCount: 0)
        }
        let result: Result<AnimatedImage, DecodingError> = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            // The demuxer reads the canvas size without allocating it: the limit is checked first.
            guard let demux = WebPDemux(&data) else { return .failure(.corrupt(format: .webp, message: "not a valid WebP container")) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            let declared = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            WebPDemuxDelete(demux)
            do throws(DecodingError) {
                try DecodingError.checkSize(.webp, width: width, height: height)
                let kept = firstFrameOnly ? 1 : declared
                let canvases = Header(width: width, height: height, animated: true, lossless: header.lossless)
                try DecodingError.checkBudget(.webp, width: width, height: height, bytes: canvases.decodingBytes(frames: kept))
            } catch { return .failure(error) }

            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return .failure(.corrupt(format: .webp, message: "libwebp version mismatch")) }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                return .failure(.corrupt(format: .webp, message: "the decoder rejected the data"))
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { return .failure(.corrupt(format: .webp, message: "no animation info")) }
            var frames: [AnimatedImage.Frame] = [], pixels = 0, previous: Int32 = 0
            frames.reserveCapacity(min(declared, 1000))
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                do throws(DecodingError) {
                    pixels = try DecodingError.checkFrame(.webp, width: width, height: height, frames: frames.count, decodedPixels: pixels)
                } catch { return .failure(error) }
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                    return .failure(
                        frames.isEmpty ? .corrupt(format: .webp, message: "the first frame cannot be decoded") : .truncated(format: .webp))
                }
                // libwebp's canvas, straight RGBA rows `width × 4` bytes apart, copied once into the frame.
                let image = try? Bitmap.filled(width: width, height: height, premultiplied: false) { pixels in
                    for y in 0..<pixels.height { pixels.row(y).update(from: canvas + y * width * 4, count: width * 4) }
                    conversion?.convert(pixels)
                }
                guard let image else {
                    return .failure(.corrupt(format: .webp, message: "frame \(frames.count) cannot be stored"))
                }
                frames.append(.init(image: image, duration: Double(max(0, timestamp - previous)) / 1000))
                previous = timestamp
                if firstFrameOnly { break }
            }
            guard !frames.isEmpty else { return .failure(.corrupt(format: .webp, message: "no frames")) }
            return .success(AnimatedImage(frames: frames, loopCount: Int(info.loop_count)))
        }
        return try result.get()
    }

    /// A still WebP decoded by libwebp straight into the bitmap's rows (straight RGBA, converted by
    /// `conversion` when given, then premultiplied in place).
    private static func decodeStill(_ bytes: [UInt8], _ header: Header, conversion: ColorConversion?) throws(DecodingError) -> Bitmap {
        do {
            return try Bitmap.filled(width: header.width, height: header.height, premultiplied: false) { pixels in
                let decoded = bytes.withUnsafeBufferPointer { input in
                    WebPDecodeRGBAInto(
                        input.baseAddress, input.count, pixels.base, pixels.bytesPerRow * pixels.height, Int32(pixels.bytesPerRow))
                }
                guard decoded != nil else { throw DecodingError.corrupt(format: .webp, message: "the image cannot be decoded") }
                conversion?.convert(pixels)
            }
        } catch let error as DecodingError {
            throw error
        } catch {
            throw .corrupt(format: .webp, message: "the image cannot be stored: \(error)")
        }
    }

    /// The ICC profile of a WebP (its `ICCP` chunk), or nil.
    public static func profile(of bytes: [UInt8]) -> ColorProfile? {
        bytes.withUnsafeBufferPointer { buffer -> ColorProfile? in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let demux = WebPDemux(&data) else { return nil }
            defer { WebPDemuxDelete(demux) }
            guard WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & UInt32(ICCP_FLAG.rawValue) != 0 else { return nil }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let bytes = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
            return ColorProfile(data: Array(UnsafeBufferPointer(start: bytes, count: chunk.chunk.size)))
        }
    }

    /// A still WebP: lossy at `quality` 1…99, lossless at 100; alpha kept; `profile` embedded as
    /// an `ICCP` chunk when given.
    public static func encode(_ bitmap: Bitmap, quality: Int, profile: ColorProfile? = nil) throws(EncodingError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        let rgba = bitmap.straightRGBA
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgba.withUnsafeBufferPointer { p in
            quality == 100
                ? WebPEncodeLosslessRGBA(p.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), &output)
                : WebPEncodeRGBA(p.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), Float(quality), &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else { throw .failed(format: .webp, message: "libwebp could not encode a \(bitmap.width)×\(bitmap.height) image") }
        guard let profile, !profile.data.isEmpty else { return Array(UnsafeBufferPointer(start: output, count: size)) }
        return try withProfile(UnsafeBufferPointer(start: output, count: size), profile)
    }

    /// A still's bytes with an `ICCP` chunk (libwebp's muxer writes the `VP8X` header it needs).
    private static func withProfile(_ still: UnsafeBufferPointer<UInt8>, _ profile: ColorProfile) throws(EncodingError) -> [UInt8] {
        var image = WebPData(bytes: still.baseAddress, size: still.count)
        guard let mux = WebPMuxCreate(&image, 0) else { throw .failed(format: .webp, message: "libwebp could not read its own output") }
        defer { WebPMuxDelete(mux) }
        var assembled = WebPData()
        WebPDataInit(&assembled)
        defer { WebPDataClear(&assembled) }
        let set = profile.data.withUnsafeBufferPointer { icc in
            var chunk = WebPData(bytes: icc.baseAddress, size: icc.count)
            return WebPMuxSetChunk(mux, "ICCP", &chunk, 1)
        }
        guard set == WEBP_MUX_OK, WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw .failed(format: .webp, message: "libwebp could not add the ICC profile")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}

/// An animated WebP built frame by frame with libwebp's `WebPAnimEncoder` (key frames and
/// sub-rectangles chosen by libwebp). Not thread-safe: one thread appends.
public final class WebPAnimationEncoder {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int, height: Int
    private var timestamp = 0

    /// - Parameters:
    ///   - width: the canvas width in pixels.
    ///   - height: the canvas height in pixels.
    ///   - quality: 1…99 lossy, 100 lossless.
    ///   - loopCount: 0 = forever.
    public init(width: Int, height: Int, quality: Int, loopCount: Int = 0) throws(EncodingError) {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            throw .failed(format: .webp, message: "WebP frames are at most 16383×16383 pixels, got \(width)×\(height)")
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw .failed(format: .webp, message: "libwebp version mismatch")
        }
        options.anim_params.loop_count = Int32(max(0, min(65535, loopCount)))
        options.allow_mixed = 0
        // Lossy sub-frames skip pixels that changed less than a quality-dependent step, which turns a
        // slow blur change into blocks that jump: every lossy frame is a key frame instead.
        if quality < 100 { options.kmin = 0; options.kmax = 1 }
        config.lossless = quality == 100 ? 1 : 0
        config.quality = quality == 100 ? 75 : Float(quality)
        config.method = 4
        config.thread_level = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw .failed(format: .webp, message: "could not start the animation encoder")
        }
        self.encoder = encoder
        self.width = width
        self.height = height
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds a frame (the canvas size) shown for `duration` milliseconds (≥ 1).
    public func append(_ frame: Bitmap, milliseconds duration: Int) throws(EncodingError) {
        guard frame.width == width, frame.height == height else {
            throw .failed(format: .webp, message: "frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .failed(format: .webp, message: "libwebp version mismatch") }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let rgba = frame.straightRGBA
        guard rgba.withUnsafeBufferPointer({ WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }) != 0,
            WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0
        else {
            throw .failed(format: .webp, message: message)
        }
        timestamp += max(1, duration)
    }

    /// The file's bytes. Call once, after the last frame.
    public func finish() throws(EncodingError) -> [UInt8] {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else { throw .failed(format: .webp, message: message) }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { throw .failed(format: .webp, message: message) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private var message: String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebp failed"
    }
}
