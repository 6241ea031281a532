import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Synchronization
import Testing

/// The outside round of issue 51: a render cut at its time limit ran on for a second (two under
/// load) inside zlib — a PNG flush at level 9 compresses a strip of 256 KiB per core in one call.
/// The sink asks its cancellation before each strip and between 32-KiB steps of each, so a stop is
/// taken within one step; the bytes are those of one call.
@Suite struct PNGCancellationTests {
    /// A cancellation that says stop from its `after`-th ask on, counting the asks.
    final class Asks: Sendable {
        let after: Int
        private let count = Atomic<Int>(0)
        init(after: Int) { self.after = after }
        func ask() -> Bool { count.add(1, ordering: .relaxed).newValue >= after }
        var asked: Int { count.load(ordering: .relaxed) }
    }

    static let image = TestImages.smooth(width: 1500, height: 600)

    func encode(level: Int, asks: Asks?) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let cancellation = asks.map { asks in Cancellation(cancelled: { asks.ask() }) } ?? .never
        let sink = try PNGRowSink(width: Self.image.width, height: Self.image.height, alpha: true, level: level, parts: 1, cancellation: cancellation)
        {
            bytes.append(contentsOf: $0)
        }
        try Self.image.withPixels { view in
            try sink.write(view)
            try sink.finish()
        }
        return bytes
    }

    @Test func aStopIsTakenWithinOneStepOfACompression() throws {
        // 1500 × 600 RGBA: 3.6 MB filtered, 14 strips, each compressed in 8 steps.
        let asks = Asks(after: 5)
        do {
            _ = try encode(level: 9, asks: asks)
            Issue.record("the encoder finished after being told to stop")
        } catch PipelineError.cancelled {}
        // Told at the fifth ask, it asks once more at most (the flush's own look) before it stops.
        #expect(asks.asked <= 6, "\(asks.asked) asks")
    }

    @Test func theBytesAreThoseOfOneCall() throws {
        // Not stopped: every level gives a PNG that decodes to the image, the same bytes as without
        // a cancellation to ask.
        for level in [1, 6, 9] {
            let asked = try encode(level: level, asks: Asks(after: .max))
            let plain = try encode(level: level, asks: nil)
            #expect(asked == plain, "level \(level)")
            #expect(try ImageFile.decode(asked) == Self.image, "level \(level)")
        }
    }
}
