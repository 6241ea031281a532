import BlurCore
import BlurIO
import BlurTestSupport
import CJPEGShim
import Foundation
import Testing

/// Progressive JPEG inside libjpeg: a file of thousands of scans is refused at the scan limit, and a
/// decode stops at its deadline while libjpeg is still reading scans (before any row comes out).
@Suite struct JPEGProgressiveTests {
    /// A progressive `width × height` JPEG (libjpeg's standard progression: 10 scans) of noise, or
    /// flat grey (whose scans are a few bytes each).
    static func progressive(width: Int, height: Int, noise: Bool = true) throws -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let samples = (0..<(width * height * 3)).map { _ -> UInt8 in
            guard noise else { return 128 }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return try JPEGCodecTests.rawJPEG(samples, width: width, height: height, components: 3, progressive: true)
    }

    /// `jpeg` with its last scan (and the tables written before it) repeated `extra` more times
    /// before the end: each copy is a pass over the whole image, as in a hostile file of empty scans.
    static func repeatingLastScan(_ jpeg: [UInt8], extra: Int) throws -> [UInt8] {
        // The end of each scan's entropy-coded data: the first marker after it that is not a restart.
        var i = 2, scanEnds: [Int] = []
        while i + 4 <= jpeg.count {
            try #require(jpeg[i] == 0xFF)
            let marker = jpeg[i + 1]
            if marker == 0xD9 { break }
            i += 2 + Int(jpeg[i + 2]) << 8 + Int(jpeg[i + 3])
            guard marker == 0xDA else { continue }
            while i + 1 < jpeg.count, !(jpeg[i] == 0xFF && jpeg[i + 1] != 0 && !(0xD0...0xD7).contains(jpeg[i + 1])) { i += 1 }
            scanEnds.append(i)
        }
        try #require(scanEnds.count >= 2)
        let last = jpeg[scanEnds[scanEnds.count - 2]..<scanEnds[scanEnds.count - 1]]
        return Array(jpeg[..<scanEnds[scanEnds.count - 1]]) + Array([[UInt8]](repeating: Array(last), count: extra).joined()) + [0xFF, 0xD9]
    }

    @Test func refusesAFileOfThousandsOfScansQuickly() throws {
        let scans = try JPEGProgressiveTests.repeatingLastScan(
            try JPEGProgressiveTests.progressive(width: 64, height: 64, noise: false), extra: 7_000)
        #expect(scans.count < 600_000)
        #expect(throws: DecodingError.unsupported(format: .jpeg, feature: "more than 1000 scans (a progressive JPEG has about 10)")) {
            try JPEGCodec.decode(scans)
        }
        // Under the limit the same scans decode.
        let many = try JPEGProgressiveTests.repeatingLastScan(try JPEGProgressiveTests.progressive(width: 64, height: 64, noise: false), extra: 980)
        #expect(try JPEGCodec.decode(many).width == 64)
    }

    /// A deadline already passed, or a caller that has cancelled, stops the decoder at its first
    /// row of blocks; the same file decodes with time to spare.
    @Test func stopsAtAPassedDeadlineOrCancellation() throws {
        let jpeg = try JPEGProgressiveTests.progressive(width: 1024, height: 768)
        for cancellation in [Cancellation(deadline: Date().addingTimeInterval(-1)), Cancellation(cancelled: { true })] {
            let input = try InputFile(bytes: jpeg, name: "the body")
            input.cancellation = cancellation
            let error = #expect(throws: PipelineError.self) { try ImagePipeline.open(input).source.collect() }
            #expect(error?.description == "cancelled")
        }
        let input = try InputFile(bytes: jpeg, name: "the body")
        input.cancellation = Cancellation(deadline: Date().addingTimeInterval(600))
        #expect(try ImagePipeline.open(input).source.collect().width == 1024)
    }

    /// A decode that would take seconds (990 passes over a 4096 × 4096 image, from a file of a few
    /// KB) stops within a fraction of a second of a deadline 0.1 s away, while libjpeg is absorbing its scans.
    @Test func stopsWithinItsDeadlineInsideLibjpeg() throws {
        let flat = try JPEGProgressiveTests.progressive(width: 4096, height: 4096, noise: false)
        let jpeg = try JPEGProgressiveTests.repeatingLastScan(flat, extra: 980)
        let input = try InputFile(bytes: jpeg, name: "the body")
        let deadline = Date().addingTimeInterval(0.1)
        input.cancellation = Cancellation(deadline: deadline)
        let source = try ImagePipeline.open(input).source
        let error = #expect(throws: PipelineError.self) { try source.collect() }
        #expect(error?.description == "cancelled")
        let late = Date().timeIntervalSince(deadline)
        // 0.1 s in principle (a row of blocks); more only when the machine is busy.
        #expect(late < 0.5, "stopped \(late) s after the deadline")
    }
}
