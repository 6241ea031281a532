import BlurCore
import BlurIO
import BlurTestSupport
import Testing

@Suite struct PNGCodecTests {
    /// Expected straight RGBA for a gray level of `depth` bits.
    static func scale(_ v: Int, depth: Int) -> UInt8 { UInt8((v * 255 + ((1 << depth) - 1) / 2) / ((1 << depth) - 1)) }

    @Test(arguments: [1, 2, 4, 8, 16])
    func readsGrayAtEveryDepth(_ depth: Int) throws {
        let w = 13, h = 3, top = (1 << depth) - 1
        // 16-bit samples are multiples of 257, which scale to 8 bits exactly.
        let samples = (0..<h).map { y in (0..<w).map { x in depth == 16 ? (x * 37 + y * 91) % 256 * 257 : (x * 7 + y * 3) % (top + 1) } }
        let png = PNGFixtureWriter(
            width: w, height: h, bitDepth: UInt8(depth), colourType: 0,
            rows: samples.map { pack($0, depth: depth) }
        ).encode()
        let image = try PNGCodec.decode(png)
        for y in 0..<h {
            for x in 0..<w {
                let v = PNGCodecTests.scale(samples[y][x], depth: depth)
                #expect(image[x, y] == RGBA8(r: v, g: v, b: v, a: 255), "(\(x), \(y)) depth \(depth)")
            }
        }
    }

    @Test(arguments: [1, 2, 4, 8])
    func readsPalettesWithTransparency(_ depth: Int) throws {
        let w = 9, h = 2, entries = 1 << depth
        var palette: [UInt8] = [], alpha: [UInt8] = []
        for i in 0..<entries {
            let red: Int = i * 255 / max(1, entries - 1), green: Int = 255 - i * 10 % 256
            palette += [UInt8(red), UInt8(green), 40]
            alpha.append(i == 0 ? 0 : UInt8(255 - i * 7 % 200))
        }
        let indices: [[Int]] = (0..<h).map { y in (0..<w).map { x in (x + y) % entries } }
        let png = PNGFixtureWriter(
            width: w, height: h, bitDepth: UInt8(depth), colourType: 3, palette: palette,
            transparency: alpha, rows: indices.map { pack($0, depth: depth) }
        ).encode()
        let image = try PNGCodec.decode(png)
        var straight: [UInt8] = []
        for i in indices.joined() { straight += [palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], alpha[i]] }
        let expected = try Bitmap(width: w, height: h, straightRGBA: straight)
        #expect(image == expected)
    }

    @Test func readsSixteenBitRGBAAndGrayAlpha() throws {
        // 16-bit samples v·257 scale exactly to v.
        let rgba = [[10, 20, 30, 255], [200, 100, 0, 128], [255, 255, 255, 0]]
        let png = PNGFixtureWriter(
            width: 3, height: 1, bitDepth: 16, colourType: 6,
            rows: [pack(rgba.flatMap { $0.map { $0 * 257 } }, depth: 16)]
        ).encode()
        let expected = try Bitmap(width: 3, height: 1, straightRGBA: rgba.flatMap { $0.map(UInt8.init) })
        #expect(try PNGCodec.decode(png) == expected)

        let ga = [[0, 255], [128, 64], [255, 1]]
        let gray = PNGFixtureWriter(width: 3, height: 1, bitDepth: 8, colourType: 4, rows: [pack(ga.flatMap { $0 }, depth: 8)]).encode()
        let expectedGray = try Bitmap(width: 3, height: 1, straightRGBA: ga.flatMap { [UInt8($0[0]), UInt8($0[0]), UInt8($0[0]), UInt8($0[1])] })
        #expect(try PNGCodec.decode(gray) == expectedGray)
    }

    /// 16 → 8 bits: the nearest 8-bit value, v × 255 / 65535 rounded (halves up), also for samples
    /// that are not multiples of 257.
    static func eight(_ v: Int) -> UInt8 { UInt8((v * 255 + 32767) / 65535) }

    // The colour types and depths the tests did not build: RGB 16, gray + alpha 16, RGBA 8 and gray
    // with a tRNS key, from the independent writer.
    @Test func readsTheRemainingColourTypesAndDepths() throws {
        let w = 7
        let sixteen: [[Int]] = (0..<w).map { x in [x * 9_361 + 129, 65_535 - x * 7_001, (x * 30_011) % 65_536] }
        let rgb16 = PNGFixtureWriter(width: w, height: 1, bitDepth: 16, colourType: 2, rows: [pack(sixteen.flatMap { $0 }, depth: 16)])
        let expectedRGB = try Bitmap(width: w, height: 1, straightRGBA: sixteen.flatMap { $0.map(Self.eight) + [255] })
        #expect(try PNGCodec.decode(rgb16.encode()) == expectedRGB)

        let alphas = [0, 65_535, 32_768, 1_000, 60_000, 128, 40_000]
        let ga: [[Int]] = (0..<w).map { x in [x * 9_001 + 300, alphas[x]] }
        let ga16 = PNGFixtureWriter(width: w, height: 1, bitDepth: 16, colourType: 4, rows: [pack(ga.flatMap { $0 }, depth: 16)])
        let expectedGA = try Bitmap(
            width: w, height: 1, straightRGBA: ga.flatMap { [Self.eight($0[0]), Self.eight($0[0]), Self.eight($0[0]), Self.eight($0[1])] })
        #expect(try PNGCodec.decode(ga16.encode()) == expectedGA)

        let coverage = [255, 0, 1, 128, 254, 77, 200]
        let rgba: [[Int]] = (0..<w).map { x in [x * 40, 255 - x * 30, 17 * x, coverage[x]] }
        let rgba8 = PNGFixtureWriter(width: w, height: 1, bitDepth: 8, colourType: 6, rows: [pack(rgba.flatMap { $0 }, depth: 8)])
        #expect(try PNGCodec.decode(rgba8.encode()) == Bitmap(width: w, height: 1, straightRGBA: rgba.flatMap { $0.map(UInt8.init) }))

        let grey = [5, 80, 80, 200, 5, 255, 0]
        let keyed = PNGFixtureWriter(width: w, height: 1, bitDepth: 8, colourType: 0, transparency: [0, 80], rows: [grey.map(UInt8.init)])
        let expectedKeyed = try Bitmap(width: w, height: 1, straightRGBA: grey.flatMap { v in [UInt8(v), UInt8(v), UInt8(v), v == 80 ? 0 : 255] })
        #expect(try PNGCodec.decode(keyed.encode()) == expectedKeyed)
    }

    // Interlaced (Adam7) files decode to the same pixels as their progressive twins, at sizes that
    // leave some passes empty.
    @Test(arguments: [(1, 1), (3, 2), (13, 11), (8, 8)])
    func readsInterlacedPNG(_ w: Int, _ h: Int) throws {
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let r = UInt8(x * 19 % 256), g = UInt8(y * 23 % 256), b = UInt8(x * y % 256), a = UInt8(255 - x * 5 % 200)
            return [r, g, b, a]
        }
        let rows: [[UInt8]] = (0..<h).map { y in (0..<w).flatMap { x in pixel(x, y) } }
        var writer = PNGFixtureWriter(width: w, height: h, bitDepth: 8, colourType: 6, rows: rows)
        let plain = try PNGCodec.decode(writer.encode())
        writer.interlaced = true
        let interlaced = writer.encode()
        #expect(interlaced[28] == 1)  // IHDR's interlace method
        #expect(try PNGCodec.decode(interlaced) == plain)
        #expect(plain == (try Bitmap(width: w, height: h, straightRGBA: rows.flatMap { $0 })))
    }

    @Test func readsRGBWithAColourKey() throws {
        // tRNS on an RGB image marks one colour as fully transparent.
        let png = PNGFixtureWriter(
            width: 2, height: 1, bitDepth: 8, colourType: 2, transparency: [0, 1, 0, 2, 0, 3],
            rows: [[1, 2, 3, 9, 9, 9]]
        ).encode()
        let image = try PNGCodec.decode(png)
        #expect(image[0, 0].a == 0)
        #expect(image[1, 0] == RGBA8(r: 9, g: 9, b: 9, a: 255))
    }

    @Test func roundTripsBitExactly() throws {
        for seed in 1...3 {
            let translucent = TestImages.noise(width: 31, height: 17, seed: UInt64(seed))
            #expect(try PNGCodec.decode(PNGCodec.encode(translucent)) == translucent)
            let opaque = TestImages.noise(width: 16, height: 9, seed: UInt64(seed), opaque: true)
            let bytes = try PNGCodec.encode(opaque)
            #expect(bytes[25] == 2, "an opaque image is written as RGB")
            #expect(try PNGCodec.decode(bytes) == opaque)
        }
    }

    @Test func badInputGivesErrors() throws {
        let good = try PNGCodec.encode(TestImages.noise(width: 40, height: 30, seed: 9))
        #expect(throws: DecodingError.empty) { try PNGCodec.decode([]) }
        #expect(throws: DecodingError.self) { try PNGCodec.decode(Array(good.prefix(good.count / 2))) }
        #expect(throws: DecodingError.self) { try PNGCodec.decode(Array(good.prefix(40))) }
        var flipped = good
        flipped[good.count / 2] ^= 0x55
        #expect(throws: DecodingError.self) { try PNGCodec.decode(flipped) }
        #expect(throws: DecodingError.self) { try PNGCodec.decode([0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 7, count: 100)) }
    }

    @Test func refusesADecompressionBombFromItsHeader() throws {
        // A valid 1 × 1 file whose IHDR claims 100000 × 100000 (CRC fixed up).
        var png = PNGFixtureWriter(width: 1, height: 1, bitDepth: 8, colourType: 0, rows: [[0]]).encode()
        png.replaceSubrange(16..<24, with: be32(100_000) + be32(100_000))
        png.replaceSubrange(29..<33, with: be32(Int(PNGFixtureWriter.crc32(Array(png[12..<29])))))
        #expect(throws: DecodingError.tooLarge(format: .png, width: 100_000, height: 100_000, limit: ImageLimits.maximumPixelCount)) {
            try PNGCodec.decode(png)
        }
    }
}

/// What PNG files weigh: the fixture photo, and the same photo blurred (what users write most), at
/// every compression level, held to sizes measured on this encoder (within 1 %), and the default
/// held to level 1, the documented one (the same bytes, not just a similar size).
@Suite struct PNGSizeTests {
    /// Bytes measured at levels 0…9 for the photo, then its σ 4 blur (Debian 12's zlib 1.2.13, Paeth rows).
    static let measured: [String: [Int]] = [
        "photo": [406_315, 223_711, 234_171, 230_744, 230_163, 227_517, 225_629, 225_031, 224_395, 224_321],
        "blurred": [406_315, 104_594, 120_877, 114_916, 109_929, 105_607, 101_295, 99_627, 96_948, 96_124],
    ]

    @Test func everyLevelWeighsWhatItWasMeasuredAt() throws {
        let photo = TestImages.photo
        let blurred = try GaussianBlur(sigma: 4).apply(to: photo)
        for (name, image) in [("photo", photo), ("blurred", blurred)] {
            let sizes = try (0...9).map { try PNGCodec.encode(image, level: $0).count }
            let expected = try #require(Self.measured[name])
            for level in 0...9 {
                let bound = Double(expected[level]) * 0.01
                #expect(
                    abs(Double(sizes[level] - expected[level])) <= bound,
                    "\(name) at level \(level): \(sizes[level]) bytes, measured \(expected[level]); all: \(sizes)")
            }
            // Stored is the raw rows (a filter byte each) and little more.
            let raw = image.height * (1 + image.width * 3)
            #expect(sizes[0] >= raw && sizes[0] < raw + raw / 100 + 200, "\(name): \(sizes[0]) stored for \(raw) raw")
            // The default is level 1, byte for byte, through every way of asking for it.
            let level1 = try PNGCodec.encode(image, level: 1)
            #expect(try PNGCodec.encode(image) == level1)
            #expect(try ImageFile.encode(image, as: .png) == level1)
            #expect(Int(try #require(ImageFile.compressionSpec.defaultValue)) == 1)
        }
    }

    /// A texture that repeats (a tile of noise, as grass or brick is): the default finds the repeats
    /// that runs alone cannot, packing as level 3 does; a photo stays on runs (the sizes above).
    @Test func theDefaultFindsTheRepeatsOfATexture() throws {
        var seed: UInt32 = 12345
        var tile = [UInt8](repeating: 0, count: 37 * 29 * 4)
        for i in tile.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            tile[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        let (w, h) = (600, 400)
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<w { for k in 0..<4 { rgba[(y * w + x) * 4 + k] = tile[((y % 29) * 37 + x % 37) * 4 + k] } } }
        let texture = try Bitmap(width: w, height: h, straightRGBA: rgba)
        let chosen = try PNGCodec.encode(texture).count, matches = try PNGCodec.encode(texture, level: 3).count
        #expect(Double(chosen) <= Double(matches) * 1.02, "default \(chosen) bytes, level 3 \(matches)")
        #expect(Double(chosen) < Double(w * h * 3) / 4, "default \(chosen) bytes for \(w * h * 3) raw: the repeats were not found")
    }
}
