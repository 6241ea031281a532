import BlurCore
import BlurIO
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A time range of a scene rendered at a frame rate into an `AnimationWriter`: frames are
/// rendered (and prepared for the encoder) several at once, one per core, and appended in order,
/// so the file is the same whatever the number of cores.
public struct SceneRecording: Sendable {
    /// `fps`: 1…120 frames/s, default 30.
    public static let frameRateSpec = ParameterSpec(
        name: "fps", unit: "frames/s", range: 1...120, defaultValue: 30, summary: "frames per second of the animation")
    /// `duration`: 0.001…600 s, no default.
    public static let durationSpec = ParameterSpec(
        name: "duration", unit: "s", range: 0.001...600, defaultValue: nil, summary: "length of the animation")
    /// `time`: scene time of the first frame, −3600…3600 s, default 0.
    public static let startSpec = Animation.timeSpec.named("time", summary: "scene time of the first frame")
    /// The most frames one recording makes.
    public static let maximumFrames = 10_000

    /// Scene time of the first frame, seconds.
    public let start: Double
    /// Seconds.
    public let duration: Double
    /// Frames per second.
    public let frameRate: Double
    /// Pixels per point.
    public let scale: Double

    /// - Throws: `ParameterError` naming the parameter when a value is not finite or out of its
    ///   range, or when the frame count would pass ``maximumFrames``.
    public init(start: Double = 0, duration: Double, frameRate: Double = 30, scale: Double = 1) throws(ParameterError) {
        self.start = try Self.startSpec.validate(start)
        self.duration = try Self.durationSpec.validate(duration)
        self.frameRate = try Self.frameRateSpec.validate(frameRate)
        self.scale = try Scene.scaleSpec.validate(scale)
        if duration * frameRate > Double(Self.maximumFrames) {
            throw .outOfRange(
                name: "frames (duration × fps)", value: (duration * frameRate).rounded(), range: 1...Double(Self.maximumFrames), unit: "")
        }
    }

    /// Frames: the duration times the rate, rounded, at least 1.
    public var frameCount: Int { max(1, Int((duration * frameRate).rounded())) }

    /// Scene time of frame `n`.
    public func time(ofFrame n: Int) -> Double { start + Double(n) / frameRate }

    /// Renders every frame of `scene` into `writer` (which must be the scene's pixel size at
    /// `scale`) and finishes it. `progress` is called on the calling thread after each frame with
    /// (frames done, frame count); `cancelled` is polled between batches and before each layer of
    /// every frame — when it says true, the
    /// recording stops with `RecordingError/cancelled` and nothing is written (a PNG sequence
    /// keeps the complete frames it has).
    public func record(
        _ scene: Scene, to writer: AnimationWriter, parallelFrames: Int? = nil,
        progress: (Int, Int) -> Void = { _, _ in }, cancelled: @escaping @Sendable () -> Bool = { false }
    ) throws {
        let total = frameCount
        let batch = max(1, min(16, parallelFrames ?? ProcessInfoCores.count))
        let shared = SceneBox(scene)
        var next = 0
        while next < total {
            if cancelled() { throw RecordingError.cancelled(framesWritten: writer.framesWritten) }
            let range = next..<min(total, next + batch)
            let results = Locked<[Int: Result<AnimationWriter.Prepared, any Error>]>([:])
            let first = range.lowerBound, recording = self
            DispatchQueue.concurrentPerform(iterations: range.count) { k in
                let n = first + k
                let result = Result { () throws -> AnimationWriter.Prepared in
                    // Frames in flight share the memory budget's surfaces.
                    let frame = try shared.scene.renderReporting(
                        at: recording.time(ofFrame: n), scale: recording.scale, threads: range.count > 1 ? 1 : nil, cancelled: cancelled,
                        surfaceBudget: ImageLimits.memoryBudget / batch
                    ).image
                    return try writer.prepare(frame)
                }
                results.withLock { $0[n] = result }
            }
            let prepared = results.withLock { $0 }
            if cancelled() { throw RecordingError.cancelled(framesWritten: writer.framesWritten) }
            for n in range {
                try writer.append(try prepared[n]!.get())
                progress(n + 1, total)
            }
            next = range.upperBound
        }
        try writer.finish()
    }
}

/// Why a recording stopped.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
    /// `cancelled` returned true after `framesWritten` frames had reached the writer.
    case cancelled(framesWritten: Int)

    /// One line: how many frames were done, and that no animation was written.
    public var description: String {
        switch self {
        case let .cancelled(n): "interrupted after \(n) frames; no animation was written"
        }
    }
}

/// The scene crossing into the frame workers, which only read it (see ``Scene/render(at:scale:threads:cancelled:)``).
private struct SceneBox: @unchecked Sendable {
    let scene: Scene
    init(_ scene: Scene) { self.scene = scene }
}

enum ProcessInfoCores {
    static var count: Int {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }
}
