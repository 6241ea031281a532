import BlurCore
import BlurIO
import BlurTestSupport
import Testing

/// JPEG and PPM have no alpha: a translucent image is composited over white, premultiplied colour
/// c and alpha a becoming c + 255 − a (so a clear pixel is white and an opaque one unchanged).
@Suite struct FlatteningTests {
    static let image = TestImages.noise(width: 24, height: 16, seed: 21)

    static func overWhite(_ image: Bitmap) -> [[UInt8]] {
        (0..<image.height).flatMap { y in
            (0..<image.width).map { x in
                let p = image[x, y]
                return [p.r, p.g, p.b].map { $0 + (255 - p.a) }
            }
        }
    }

    @Test func ppmIsTheImageOverWhiteExactly() throws {
        #expect(!Self.image.isOpaque)
        let decoded = try NetpbmCodec.decode(NetpbmCodec.encodePPM(Self.image))
        #expect(decoded.isOpaque)
        let expected = Self.overWhite(Self.image)
        for (i, pixel) in expected.enumerated() {
            let p = decoded[i % Self.image.width, i / Self.image.width]
            #expect([p.r, p.g, p.b] == pixel, "pixel \(i)")
        }
    }

    @Test func jpegIsTheImageOverWhiteWithinItsLoss() throws {
        // Flat 16×16 blocks of one translucent colour each (whole JPEG blocks, chroma included),
        // compared away from their edges, where quality 100 keeps them within a few levels.
        let (w, h) = (64, 32)
        var bytes = [UInt8]()
        for y in 0..<h {
            for x in 0..<w {
                let a = UInt8([0, 64, 128, 255, 200, 30, 255, 0][(x / 16 + y / 16 * 4) % 8])
                bytes += [UInt8(Int(a) * 3 / 4), UInt8(Int(a) / 5), a, a]
            }
        }
        let image = try Bitmap(width: w, height: h, premultipliedRGBA: bytes)
        let decoded = try JPEGCodec.decode(JPEGCodec.encode(image, quality: 100))
        let expected = Self.overWhite(image)
        var worst = 0
        for y in 0..<h where (3..<13).contains(y % 16) {
            for x in 0..<w where (3..<13).contains(x % 16) {
                let p = decoded[x, y]
                worst = max(worst, zip([p.r, p.g, p.b], expected[y * w + x]).map { abs(Int($0) - Int($1)) }.max()!)
            }
        }
        // Without flattening (alpha dropped), the clear blocks would be black, 255 levels away.
        #expect(decoded.isOpaque && worst <= 3, "worst \(worst)")
    }
}
