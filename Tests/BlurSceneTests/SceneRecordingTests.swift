import BlurCore
import BlurIO
import BlurScene
import Foundation
import Testing

@Suite struct SceneRecordingTests {
    /// A square sliding and fading over a gradient, with a blurred circle: 0.5 s.
    static func scene() -> Scene {
        let scene = Scene(width: 48, height: 32)
        scene.addLayer(
            Layer(
                frame: Rect(x: 0, y: 0, width: 48, height: 32),
                content: .gradient(from: Color(red: 0.2, green: 0.1, blue: 0.6), to: Color(red: 1, green: 0.6, blue: 0.2), start: (0, 0), end: (1, 1))
            ))
        let square = Layer(frame: Rect(x: 2, y: 8, width: 12, height: 12), content: .color(.white))
        let circle = Layer(
            frame: Rect(x: 30, y: 10, width: 12, height: 12), content: .shape(Path(ellipseIn: Rect(x: 0, y: 0, width: 12, height: 12)), fill: .black))
        circle.blurRadius = 3
        scene.addLayer(square)
        scene.addLayer(circle)
        scene.animate(at: 0, duration: 0.5, curve: .easeInOut) {
            square.frame = Rect(x: 30, y: 8, width: 12, height: 12)
            square.opacity = 0.3
            circle.blurRadius = 0
        }
        return scene
    }

    @Test(arguments: ["apng", "webp", "gif"])
    func framesAreTheSceneAtTheirTimes(_ suffix: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scene = Self.scene()
        let recording = try SceneRecording(duration: 0.5, frameRate: 10, scale: 1)
        let path = folder + "/out." + suffix
        let writer = try AnimationWriter(path: path, width: 48, height: 32, frameRate: 10, quality: 100, opaque: true)
        var reported: [Int] = []
        try recording.record(scene, to: writer, parallelFrames: 3) { done, total in
            reported.append(done); #expect(total == 5)
        }
        #expect(reported == [1, 2, 3, 4, 5])
        let decoded = try AnimatedImage.decode(try AtomicFile.read(path))
        #expect(decoded.frames.count == 5)
        for (n, frame) in decoded.frames.enumerated() {
            let expected = try scene.render(at: Double(n) / 10)
            if suffix == "gif" {
                #expect(ImageDifference(frame.image, expected).psnr > 30)
                #expect(abs(frame.duration - 0.1) < 1e-9)
            } else {
                #expect(frame.image == expected)
                #expect(abs(frame.duration - 0.1) < 1e-9)
            }
        }
        // The frames really change.
        #expect(decoded.frames[0].image != decoded.frames[4].image)
    }

    @Test func theFileIsTheSameWhateverTheParallelism() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let recording = try SceneRecording(duration: 0.5, frameRate: 12, scale: 2)
        var files: [[UInt8]] = []
        for parallel in [1, 4] {
            let path = folder + "/p\(parallel).gif"
            let writer = try AnimationWriter(path: path, width: 96, height: 64, frameRate: 12)
            try recording.record(Self.scene(), to: writer, parallelFrames: parallel)
            files.append(try AtomicFile.read(path))
        }
        #expect(files[0] == files[1])
    }

    @Test func boundsAreCheckedAndCancellingWritesNothing() throws {
        #expect(throws: ParameterError.self) { try SceneRecording(duration: .nan) }
        #expect(throws: ParameterError.self) { try SceneRecording(duration: 1, frameRate: 0) }
        #expect(throws: ParameterError.self) { try SceneRecording(duration: 1, frameRate: .infinity) }
        #expect(throws: ParameterError.self) { try SceneRecording(duration: 601) }
        #expect(throws: ParameterError.self) { try SceneRecording(duration: 100, frameRate: 120) }  // 12 000 frames
        #expect(throws: ParameterError.self) { try SceneRecording(duration: 1, scale: -1) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writer = try AnimationWriter(path: folder + "/x.webp", width: 48, height: 32, frameRate: 10)
        // Stopped once the first batch of two frames is written: the next batch never starts.
        let stop = StopFlag()
        #expect(throws: RecordingError.cancelled(framesWritten: 2)) {
            try SceneRecording(duration: 0.5, frameRate: 10).record(
                Self.scene(), to: writer, parallelFrames: 2, progress: { done, _ in if done >= 2 { stop.set() } },
                cancelled: { stop.isSet })
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.webp"))
    }
}

/// A flag one thread sets and others read.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
