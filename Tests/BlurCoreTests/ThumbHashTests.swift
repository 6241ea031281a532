import BlurCore
import Testing

struct ThumbHashVector: Sendable, CustomStringConvertible {
    let name: String
    let width: Int
    let height: Int
    /// Straight RGBA of pixel (x, y).
    let pixel: @Sendable (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8)
    let hash: [UInt8]
    let decodedWidth: Int
    let decodedHeight: Int
    /// FNV-1a 64 of the decoded RGBA bytes.
    let decodedFNV1a64: UInt64
    /// r, g, b, a, each 0…1.
    let averageColor: [Double]
    let aspectRatio: Double

    var description: String { name }

    /// Row-major, tightly packed straight RGBA8.
    var rgba: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                out += [p.0, p.1, p.2, p.3]
            }
        }
        return out
    }
}

func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
}

// A table of reference vectors, one hash per line: kept as written.
// swift-format-ignore
let thumbHashVectors: [ThumbHashVector] = [
    ThumbHashVector(
        name: "opaque 100×37 diagonal bands (landscape)", width: 100, height: 37,
        pixel: { x, y in (UInt8((x * 7 + y * 13) % 256), UInt8((x * 3) % 256), UInt8((x * x + y) % 256), 255) },
        hash: [0x1d, 0x18, 0x06, 0x1b, 0x90, 0x01, 0x2a, 0x49, 0x77, 0x77, 0x78, 0x87, 0x02, 0x88, 0xe8, 0x7f, 0x87],
        decodedWidth: 32, decodedHeight: 14, decodedFNV1a64: 0x17164c5125f9b0f1,
        averageColor: [0.4894179894179894, 0.44179894179894175, 0.44973544973544977, 1.0],
        aspectRatio: 2.3333333333333335),
    ThumbHashVector(
        name: "opaque 3×7 (portrait)", width: 3, height: 7,
        pixel: { x, y in (UInt8((x * 71 + y * y * 5) % 256), UInt8((y * 37 + x * 13) % 256), UInt8((x * y * 29 + 41) % 256), 255) },
        hash: [0xdb, 0xe8, 0x11, 0x33, 0x10, 0x54, 0x60, 0x7a, 0x79, 0x86, 0x79, 0x77, 0xc9, 0x40, 0x59, 0xf5, 0x73],
        decodedWidth: 14, decodedHeight: 32, decodedFNV1a64: 0xdd090ac6fe34cdae,
        averageColor: [0.44179894179894175, 0.4894179894179894, 0.3544973544973544, 1.0],
        aspectRatio: 0.42857142857142855),
    ThumbHashVector(
        name: "opaque 100×100 xor/product pattern", width: 100, height: 100,
        pixel: { x, y in (UInt8((x ^ y) % 256), UInt8((x * y) % 256), UInt8((x + y) % 256), 255) },
        hash: [0xd7, 0x87, 0x05, 0x27, 0x04, 0x70, 0x76, 0x77, 0x40, 0x78, 0x87, 0x87, 0x76, 0x68, 0x77, 0x77, 0x87, 0x87, 0xf7, 0xf7, 0x75, 0xa6, 0x06, 0x0a],
        decodedWidth: 32, decodedHeight: 32, decodedFNV1a64: 0x059d1c5a336af678,
        averageColor: [0.24074074074074064, 0.4788359788359788, 0.3756613756613757, 1.0],
        aspectRatio: 1.0),
    ThumbHashVector(
        name: "alpha 24×24 ramp", width: 24, height: 24,
        pixel: { x, y in (UInt8(255 - x * 10), UInt8(y * 10), 128, UInt8((x * x + 3 * y) % 256)) },
        hash: [0xde, 0xf7, 0x85, 0x1d, 0x08, 0x16, 0x6d, 0x77, 0x80, 0x88, 0x88, 0x77, 0x87, 0x6d, 0x80, 0xd8, 0xf4, 0x75, 0x10, 0xc6, 0x65, 0x87, 0x77, 0x78, 0x78],
        decodedWidth: 32, decodedHeight: 32, decodedFNV1a64: 0x1b03ea93bae9e616,
        averageColor: [0.46296296296296285, 0.4788359788359788, 0.4867724867724868, 0.4],
        aspectRatio: 1.0),
    ThumbHashVector(
        name: "alpha 60×100 (portrait), transparent disc", width: 60, height: 100,
        pixel: { x, y in (UInt8((x * 4) % 256), UInt8((y * 2) % 256), UInt8((x + 2 * y) % 256), (x - 30) * (x - 30) + (y - 50) * (y - 50) < 400 ? 0 : 255) },
        hash: [0x5c, 0x27, 0x8e, 0x2b, 0x16, 0x3c, 0x82, 0x70, 0x87, 0x67, 0x78, 0x73, 0x8f, 0x08, 0xe7, 0x87, 0xd8, 0x87, 0x78, 0x87, 0x7f, 0x74, 0x48],
        decodedWidth: 19, decodedHeight: 32, decodedFNV1a64: 0x1ded794604987333,
        averageColor: [0.45767195767195756, 0.37830687830687826, 0.4973544973544974, 0.8],
        aspectRatio: 0.6),
]

@Test(arguments: thumbHashVectors)
func thumbHashMatchesReference(_ v: ThumbHashVector) throws {
    let rgba = v.rgba
    #expect(try ThumbHash.encode(width: v.width, height: v.height, rgba: rgba) == v.hash)
    let image = try ThumbHash.decode(v.hash)
    #expect(image.width == v.decodedWidth && image.height == v.decodedHeight)
    #expect(fnv1a64(image.rgba) == v.decodedFNV1a64)
    let c = try ThumbHash.averageColor(v.hash)
    #expect([c.r, c.g, c.b, c.a] == v.averageColor)
    #expect(try ThumbHash.approximateAspectRatio(v.hash) == v.aspectRatio)
}

@Suite struct ThumbHashTests {
    @Test func roundTripsKeepTheColoursAndTheShape() throws {
        // A smooth landscape image: its hash decodes to the same aspect and close colours.
        var rgba = [UInt8]()
        for y in 0..<60 { for x in 0..<90 { rgba += [UInt8(40 + x * 2), UInt8(200 - y * 2), 120, 255] } }
        let image = try Bitmap(width: 90, height: 60, straightRGBA: rgba)
        let hash = image.thumbHash()
        #expect((17...25).contains(hash.count))
        let back = try Bitmap(thumbHash: hash)
        #expect(back.width == 32 && abs(Double(back.height) - 32.0 * 60 / 90) <= 3)  // ThumbHash keeps the aspect only roughly
        let small = try image.resized(width: back.width, height: back.height)
        #expect(ImageDifference(back, small).psnr > 25)
        #expect(abs(try ThumbHash.approximateAspectRatio(hash) - 1.5) < 0.2)
        // Larger than the format allows: shrunk first, same result as shrinking by hand.
        let big = try image.resized(width: 360, height: 240)
        #expect(big.thumbHash() == (try ThumbHash.encode(width: 100, height: 67, rgba: try big.resized(width: 100, height: 67).straightRGBA)))
    }

    @Test func badInputIsAnErrorNeverACrash() {
        #expect(throws: ThumbHashError.invalidSize(width: 640, height: 480)) { try ThumbHash.encode(width: 640, height: 480, rgba: []) }
        #expect(throws: ThumbHashError.self) { try ThumbHash.encode(width: 2, height: 2, rgba: [1, 2, 3]) }
        for length in 0..<30 {
            for seed in 0..<50 {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: ($0 + 1) * (seed * 37 + 11)) }
                _ = try? ThumbHash.decode(bytes)
                _ = try? ThumbHash.averageColor(bytes)
            }
        }
    }
}
