import BlurCore
import Foundation

/// Writes frames at a constant rate to an animated file (WebP, GIF, APNG) or a folder of numbered
/// PNGs. ``prepare(_:)`` does each frame's slow work (quantizing, compressing) and is safe on any
/// thread; ``append(_:)`` takes prepared frames in order on one thread; ``finish()`` writes the file
/// atomically (a PNG sequence writes each frame atomically as it is appended).
public final class AnimationWriter: @unchecked Sendable {
    /// A frame ready to append.
    public struct Prepared: Sendable {
        fileprivate enum Payload: Sendable {
            case bitmap(Bitmap)
            case indexed(IndexedImage)
            case png(APNGEncoder.Prepared)
            case file([UInt8])
        }
        fileprivate let payload: Payload
    }

    private enum Backend {
        case webp(WebPAnimationEncoder)
        case gif(GIFEncoder)
        case apng(APNGEncoder)
        case sequence
    }

    /// Where the animation goes: the file, or the folder of a PNG sequence.
    public let path: String
    /// The output format, as given or from the path.
    public let format: AnimationFormat
    /// The canvas size in pixels; ``prepare(_:)`` throws for a frame of any other size.
    public let width: Int, height: Int
    /// Frames per second.
    public let frameRate: Double
    /// How many frames ``append(_:)`` has taken so far.
    public private(set) var framesWritten = 0
    private let backend: Backend
    private let opaque: Bool
    private let quality: Int
    /// Bytes the writer holds for the file so far: the compressed frames of an APNG, and for WebP
    /// and GIF (whose encoders keep their frames out of sight) a bound per frame measured on
    /// noise, the worst case — lossless WebP 5 bytes a pixel (4.2 measured), lossy WebP ½ (0.35 at
    /// quality 90), GIF 1.5. A PNG
    /// sequence holds nothing: each frame is on disk once appended.
    public private(set) var heldBytes = 0
    /// The most bytes the file may need in memory (nil: no limit): ``append(_:)`` throws
    /// `BudgetError` before a frame takes ``heldBytes`` past half of it (``finish()`` assembles the
    /// file once more beside what is held). Set from the render's memory budget, so a long or
    /// incompressible animation is refused with its figure instead of outgrowing the budget.
    public var byteLimit: Int?
    /// Whether ``finish()`` keeps the file in ``bytes`` instead of writing it.
    private var inMemory = false
    /// The animation's bytes after ``finish()``, for a writer made with ``inMemory(format:width:height:frameRate:quality:opaque:loopCount:)``.
    public private(set) var bytes: [UInt8] = []

    /// A writer whose ``finish()`` keeps the file in ``bytes`` (a response's body); not for a PNG sequence.
    public static func inMemory(
        format: AnimationFormat, width: Int, height: Int, frameRate: Double, quality: Int = 90, opaque: Bool = false, loopCount: Int = 0
    ) throws -> AnimationWriter {
        guard format != .pngSequence else { throw FileError.cannotWrite(path: "memory", reason: "a PNG sequence is a folder of files") }
        let writer = try AnimationWriter(
            path: "", format: format, width: width, height: height, frameRate: frameRate, quality: quality, opaque: opaque, loopCount: loopCount)
        writer.inMemory = true
        return writer
    }

    /// - Parameters:
    ///   - path: the file to write, atomically, at ``finish()`` (a folder for PNG frames).
    ///   - format: nil = from the path (``AnimationFormat/init(path:)``).
    ///   - width: the canvas width in pixels.
    ///   - height: the canvas height in pixels.
    ///   - frameRate: frames per second.
    ///   - quality: WebP only: 1…99 lossy, 100 lossless.
    ///   - opaque: the frames have no transparency (APNG stores RGB, smaller and faster).
    ///   - loopCount: 0 = forever.
    public init(
        path: String, format: AnimationFormat? = nil, width: Int, height: Int, frameRate: Double,
        quality: Int = 90, opaque: Bool = false, loopCount: Int = 0
    ) throws {
        guard let format = format ?? AnimationFormat(path: path) else { throw FileError.unknownOutputFormat(path: path) }
        guard frameRate.isFinite, frameRate > 0 else { throw EncodingError.failed(format: .png, message: "frame rate must be positive") }
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.opaque = opaque
        self.quality = quality
        switch format {
        case .webp: backend = .webp(try WebPAnimationEncoder(width: width, height: height, quality: quality, loopCount: loopCount))
        case .gif: backend = .gif(try GIFEncoder(width: width, height: height, loopCount: loopCount))
        case .apng: backend = .apng(APNGEncoder(width: width, height: height, opaque: opaque, loopCount: loopCount))
        case .pngSequence:
            backend = .sequence
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw FileError.cannotWrite(path: path, reason: "cannot create the folder (\(error.localizedDescription))")
            }
        }
    }

    /// The file name of frame `index` in a PNG sequence.
    public static func sequenceFileName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
    }

    /// Does a frame's slow work. Thread-safe.
    public func prepare(_ frame: Bitmap) throws -> Prepared {
        guard frame.width == width, frame.height == height else {
            throw EncodingError.failed(format: .png, message: "frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        switch backend {
        case .webp: return Prepared(payload: .bitmap(frame))
        case .gif: return Prepared(payload: .indexed(frame.quantized()))
        case let .apng(encoder): return Prepared(payload: .png(try encoder.prepare(frame)))
        case .sequence: return Prepared(payload: .file(try PNGCodec.encode(frame, alpha: opaque ? false : nil, fast: true)))
        }
    }

    /// Appends the next frame; frame n shows from n/rate to (n+1)/rate seconds.
    public func append(_ frame: Prepared) throws {
        let added: Int
        switch frame.payload {
        case let .png(png): added = png.byteCount
        case .bitmap: added = quality >= 100 ? width * height * 5 : width * height / 2
        case .indexed: added = width * height * 3 / 2
        case .file: added = 0
        }
        if let byteLimit, (heldBytes + added) * 2 > byteLimit {
            throw BudgetError(
                job: "the \(format.rawValue) animation (\(framesWritten + 1) frames of \(width)×\(height))", needed: (heldBytes + added) * 2,
                budget: byteLimit)
        }
        heldBytes += added
        let n = framesWritten
        let start = Double(n) / frameRate, end = Double(n + 1) / frameRate
        switch (backend, frame.payload) {
        case let (.webp(encoder), .bitmap(image)):
            let ms = Int((end * 1000).rounded()) - Int((start * 1000).rounded())
            try encoder.append(image, milliseconds: ms)
        case let (.gif(encoder), .indexed(indexed)):
            try encoder.append(indexed, from: start, to: end)
        case let (.apng(encoder), .png(png)):
            if frameRate == frameRate.rounded(), frameRate <= 65535 {
                encoder.append(png, delay: 1, over: UInt16(frameRate))
            } else {
                let ms = Int((end * 1000).rounded()) - Int((start * 1000).rounded())
                encoder.append(png, delay: UInt16(max(0, min(65535, ms))), over: 1000)
            }
        case let (.sequence, .file(bytes)):
            try AtomicFile.write(bytes, to: (path as NSString).appendingPathComponent(Self.sequenceFileName(n)))
        default:
            preconditionFailure("a frame prepared by another writer")
        }
        framesWritten += 1
    }

    private func keep(_ file: [UInt8]) throws {
        if inMemory { bytes = file } else { try AtomicFile.write(file, to: path) }
    }

    /// Writes the file. For a PNG sequence, removes the frames a longer earlier run left past the
    /// last one written (`frame-NNNNN.png` only; nothing else in the folder is touched).
    public func finish() throws {
        switch backend {
        case let .webp(encoder): try keep(try encoder.finish())
        case let .gif(encoder): try keep(try encoder.finish())
        case let .apng(encoder): try keep(try encoder.finish())
        case .sequence:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names where name.hasPrefix("frame-") && name.hasSuffix(".png") {
                guard let index = Int(name.dropFirst(6).dropLast(4)), index >= framesWritten,
                    name == Self.sequenceFileName(index)
                else { continue }
                try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(name))
            }
        }
    }
}
