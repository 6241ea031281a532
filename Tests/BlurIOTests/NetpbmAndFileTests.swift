import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Testing

@Suite struct NetpbmTests {
    @Test func pamRoundTripsBitExactly() throws {
        let image = TestImages.noise(width: 23, height: 11, seed: 4)
        #expect(try NetpbmCodec.decode(NetpbmCodec.encodePAM(image)) == image)
        #expect(try ImageFile.decode(ImageFile.encode(image, as: .pam)) == image)
    }

    @Test func ppmRoundTripsOpaqueImages() throws {
        let image = TestImages.noise(width: 8, height: 5, seed: 2, opaque: true)
        #expect(try NetpbmCodec.decode(NetpbmCodec.encodePPM(image)) == image)
    }

    @Test func readsCommentsSixteenBitsAndGrayscale() throws {
        let pgm: [UInt8] = Array("P5\n# a comment\n2 1\n# another\n65535\n".utf8) + [0xFF, 0xFF, 0x80, 0x80]
        let image = try NetpbmCodec.decode(pgm)
        #expect(image[0, 0] == RGBA8(r: 255, g: 255, b: 255, a: 255))
        #expect(image[1, 0] == RGBA8(r: 128, g: 128, b: 128, a: 255))
        let pam: [UInt8] = Array("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 2\nMAXVAL 255\nTUPLTYPE GRAYSCALE_ALPHA\nENDHDR\n".utf8) + [200, 0]
        #expect(try NetpbmCodec.decode(pam)[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
    }

    @Test func badInputGivesErrors() {
        let cases: [[UInt8]] = [
            Array("P6\n2 2\n255\n".utf8) + [1, 2, 3],  // truncated raster
            Array("P6\n2 x\n255\n".utf8),  // not a number
            Array("P6\n2 2\n0\n".utf8) + [UInt8](repeating: 0, count: 12),  // maxval 0
            Array("P5\n1 1\n10\n".utf8) + [11],  // sample over maxval
            Array("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 9\nMAXVAL 255\nENDHDR\n".utf8),  // depth
            Array("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8) + [0, 0, 0],
            Array("P7\nWIDTH 1\nBOGUS 1\n".utf8),
            Array("P3\n1 1\n255\n0 0 0\n".utf8),  // ASCII variant, not read
            Array("P6".utf8),
        ]
        for bytes in cases {
            #expect(throws: DecodingError.self, "\(String(decoding: bytes.prefix(30), as: UTF8.self))") {
                try NetpbmCodec.decode(bytes)
            }
        }
        #expect(throws: DecodingError.tooLarge(format: .ppm, width: 100_000, height: 100_000, limit: ImageLimits.maximumPixelCount)) {
            try NetpbmCodec.decode(Array("P6\n100000 100000\n255\n".utf8) + [0, 0, 0])
        }
    }
}

@Suite struct ImageFileTests {
    @Test func sniffsTheFormatFromContent() throws {
        let image = TestImages.noise(width: 6, height: 4, seed: 8, opaque: true)
        for format in ImageFormat.allCases {
            let bytes = try ImageFile.encode(image, as: format)
            #expect(ImageFormat(sniffing: bytes) == format)
            let back = try ImageFile.decode(bytes)
            #expect(back.width == 6 && back.height == 4)
        }
        #expect(throws: DecodingError.unknownFormat) { try ImageFile.decode(Array("hello, world".utf8)) }
        #expect(throws: DecodingError.empty) { try ImageFile.decode([]) }
    }

    @Test func writesAtomicallyAndLeavesNoTemporaryFiles() throws {
        let folder = TestImages.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.png"
        let image = TestImages.noise(width: 5, height: 5, seed: 1)
        try ImageFile.write(image, to: path)
        try ImageFile.write(image, to: path)  // replacing an existing file
        #expect(try ImageFile.read(path) == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.png"])
        #expect(throws: FileError.self) { try ImageFile.write(image, to: folder + "/missing/out.png") }
        #expect(throws: FileError.unknownOutputFormat(path: folder + "/out.gifx")) { try ImageFile.write(image, to: folder + "/out.gifx") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.png"])
        #expect(throws: FileError.self) { try ImageFile.read(folder + "/nothing.png") }
        #expect(throws: FileError.self) { try ImageFile.read(folder) }
    }

    @Test func recognisesTheSameFileThroughLinks() throws {
        let folder = TestImages.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.write([1, 2, 3], to: folder + "/a")
        try FileManager.default.createSymbolicLink(atPath: folder + "/s", withDestinationPath: folder + "/a")
        try FileManager.default.linkItem(atPath: folder + "/a", toPath: folder + "/h")
        try AtomicFile.write([1, 2, 3], to: folder + "/b")
        #expect(AtomicFile.sameFile(folder + "/a", folder + "/s"))
        #expect(AtomicFile.sameFile(folder + "/a", folder + "/h"))
        #expect(!AtomicFile.sameFile(folder + "/a", folder + "/b"))
        #expect(!AtomicFile.sameFile(folder + "/a", folder + "/none"))
    }

    @Test func decoderLimitFollowsTheConfiguredPixelCount() throws {
        let saved = ImageLimits.maximumPixelCount
        defer { ImageLimits.maximumPixelCount = saved }
        ImageLimits.maximumPixelCount = 2_000_000
        let bytes = Array("P6\n2000 1001\n255\n".utf8)
        #expect(throws: DecodingError.tooLarge(format: .ppm, width: 2000, height: 1001, limit: 2_000_000)) {
            try NetpbmCodec.decode(bytes)
        }
    }
}
