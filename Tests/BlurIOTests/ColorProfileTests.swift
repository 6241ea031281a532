import BlurCore
import BlurIO
import BlurTestSupport
import CLCMS2
import Foundation
import Testing

/// Colour profiles: read from every format that carries one, converted to sRGB by lcms2 (held to
/// an independent computation from the primaries), kept byte for byte on request.
@Suite struct ColorProfileTests {
    /// Display P3 → sRGB by hand: both spaces have a D65 white, so the conversion is
    /// sRGB's XYZ→RGB matrix after P3's RGB→XYZ one, each made from its primaries, between the curves.
    static func p3ToSRGB(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        func matrix(_ r: (Double, Double), _ g: (Double, Double), _ b: (Double, Double)) -> [[Double]] {
            let white = (0.3127 / 0.3290, 1.0, (1 - 0.3127 - 0.3290) / 0.3290)
            let columns = [r, g, b].map { p in [p.0 / p.1, 1, (1 - p.0 - p.1) / p.1] }
            let m = (0..<3).map { i in (0..<3).map { j in columns[j][i] } }
            let s = solve(m, [white.0, white.1, white.2])
            return (0..<3).map { i in (0..<3).map { j in m[i][j] * s[j] } }
        }
        func solve(_ m: [[Double]], _ v: [Double]) -> [Double] {
            let det = { (a: [[Double]]) -> Double in
                a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                    + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
            }
            let d = det(m)
            return (0..<3).map { k in det(m.enumerated().map { i, row in row.enumerated().map { j, x in j == k ? v[i] : x } }) / d }
        }
        func inverse(_ m: [[Double]]) -> [[Double]] {
            let columns = (0..<3).map { k in solve(m, (0..<3).map { $0 == k ? 1.0 : 0 }) }
            return (0..<3).map { i in (0..<3).map { j in columns[j][i] } }
        }
        let linear = { (v: Double) in v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let encode = { (v: Double) in v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        let p3 = matrix((0.680, 0.320), (0.265, 0.690), (0.150, 0.060))
        let srgb = inverse(matrix((0.64, 0.33), (0.30, 0.60), (0.15, 0.06)))
        let l = [linear(rgb.0), linear(rgb.1), linear(rgb.2)]
        let xyz = (0..<3).map { i in (0..<3).reduce(0.0) { $0 + p3[i][$1] * l[$1] } }
        let out = (0..<3).map { i in encode(min(1, max(0, (0..<3).reduce(0.0) { $0 + srgb[i][$1] * xyz[$1] }))) }
        return (out[0], out[1], out[2])
    }

    /// A Display P3 image of a grid of colours, each inside sRGB's gamut once converted.
    static func p3Grid() -> Bitmap {
        var image = try! Bitmap(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let r = UInt8(40 + x * 12), g = UInt8(40 + y * 12), b = UInt8(60 + (x * y) % 150)
                image[x, y] = RGBA8(r: r, g: g, b: b, a: 255)
            }
        }
        return image
    }

    @Test func buildsDisplayP3FromItsPrimaries() throws {
        #expect(ColorProfile.displayP3.space == .rgb)
        #expect(ColorProfile.displayP3.name == "Display P3")
        #expect(ColorProfile.sRGB.space == .rgb)
        #expect(ColorProfile(data: [1, 2, 3]).space == nil)
    }

    /// lcms2's 8-bit conversion against the matrices computed here: within one level.
    @Test func convertsDisplayP3ToSRGBAsThePrimariesSay() throws {
        let source = ColorProfileTests.p3Grid()
        let png = try PNGCodec.encode(source, profile: .displayP3)
        let converted = try PNGCodec.decode(png)
        var worst = 0
        for y in 0..<16 {
            for x in 0..<16 {
                let p = source[x, y], q = converted[x, y]
                let e = ColorProfileTests.p3ToSRGB((Double(p.r) / 255, Double(p.g) / 255, Double(p.b) / 255))
                for (got, want) in [(q.r, e.0), (q.g, e.1), (q.b, e.2)] { worst = max(worst, abs(Int(got) - Int((want * 255).rounded()))) }
            }
        }
        #expect(worst <= 1, "worst difference \(worst)")
        // And it moved colours: P3's saturated values are not sRGB's.
        #expect(ImageDifference(source, converted).maximum >= 10)
    }

    @Test func anSRGBProfileConvertsNothing() throws {
        let source = TestImages.noise(width: 24, height: 16, seed: 3, opaque: true)
        let png = try PNGCodec.encode(source, profile: .sRGB)
        #expect(try PNGCodec.decode(png) == source)
    }

    /// Every format that carries a profile writes it and reads it back byte for byte (kept), and
    /// converts through it (not kept) to the same pixels as PNG does.
    @Test(arguments: [ImageFormat.png, .jpeg, .webp, .avif, .heic])
    func keepsTheProfileByteForByte(_ format: ImageFormat) throws {
        let source = ColorProfileTests.p3Grid()
        let bytes = try ImageFile.encode(source, as: format, quality: format == .webp ? 100 : 95, profile: .displayP3)
        let kept = try ImageFile.decode(bytes, keepingProfile: true)
        #expect(kept.profile == .displayP3)
        let converted = try ImageFile.decode(bytes, keepingProfile: false)
        #expect(converted.profile == nil)
        let reference = try PNGCodec.decode(PNGCodec.encode(kept.image, profile: .displayP3))
        #expect(ImageDifference(converted.image, reference).maximum <= 1)
        // Without a profile: nothing embedded, nothing converted.
        let plain = try ImageFile.encode(source, as: format, quality: format == .webp ? 100 : 95)
        #expect(try ImageFile.decode(plain, keepingProfile: true).profile == nil)
    }

    /// A profile larger than one JPEG marker (65,519 bytes) is split across APP2 chunks and put
    /// back together in order: P3 with tabulated curves, about 98 KB.
    @Test func readsAProfileSplitAcrossJPEGMarkers() throws {
        let big = try #require(ColorProfileTests.tabulatedP3())
        #expect(big.data.count > 65_519)
        let source = ColorProfileTests.p3Grid()
        let jpeg = try JPEGCodec.encode(source, quality: 95, profile: big)
        #expect(try JPEGCodec.decode(jpeg, keepingProfile: true).profile == big)
        let viaBig = try JPEGCodec.decode(jpeg)
        let viaSmall = try JPEGCodec.decode(JPEGCodec.encode(source, quality: 95, profile: .displayP3))
        #expect(ImageDifference(viaBig, viaSmall).maximum <= 1)
        #expect(ImageDifference(viaBig, try JPEGCodec.decode(jpeg, keepingProfile: true).image).maximum >= 10)
    }

    /// Display P3 with its three curves as tables of 16,384, 16,383 and 16,382 entries (three tags;
    /// lcms2 reads no `curv` of more than 32,767 entries).
    static func tabulatedP3() -> ColorProfile? {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1), Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        let curves: [OpaquePointer?] = (0..<3).map { k in
            let count = 16_384 - k
            var table = (0..<count).map { i -> UInt16 in
                let v = Double(i) / Double(count - 1)
                let l = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
                return UInt16(min(65_535, (l * 65_535).rounded()))
            }
            return cmsBuildTabulatedToneCurve16(nil, UInt32(count), &table)
        }
        defer { for curve in curves { cmsFreeToneCurve(curve) } }
        var three = curves
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &three) else { return nil }
        defer { cmsCloseProfile(profile) }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else { return nil }
        var data = [UInt8](repeating: 0, count: Int(size))
        guard data.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else { return nil }
        return ColorProfile(data: data)
    }

    /// Translucent pixels are converted straight, then premultiplied again: colour and alpha as
    /// an opaque pixel of the same colour would convert.
    @Test func convertsTranslucentPixelsStraight() throws {
        let translucent = try Bitmap(width: 2, height: 1, straightRGBA: [200, 60, 40, 255, 200, 60, 40, 128])
        let converted = try PNGCodec.decode(PNGCodec.encode(translucent, profile: .displayP3))
        let opaque = converted.straightRGBA
        #expect(opaque[7] == 128)
        for c in 0..<3 { #expect(abs(Int(opaque[4 + c]) - Int(opaque[c])) <= 2, "channel \(c): \(opaque)") }
    }
}

/// A CMYK JPEG goes through its own profile: one built here whose inks map to a colour the naive
/// inversion would not give (cyan shows as blue, magenta as red, yellow as green).
@Suite struct CMYKProfileTests {
    /// The colour the test profile gives inks `c m y k` (0…1): the naive inversion with its
    /// channels turned, (1 − m)(1 − k), (1 − y)(1 − k), (1 − c)(1 − k).
    static func colour(_ c: Double, _ m: Double, _ y: Double, _ k: Double) -> (Double, Double, Double) {
        ((1 - m) * (1 - k), (1 - y) * (1 - k), (1 - c) * (1 - k))
    }

    /// A CMYK output-class profile whose A2B0 is an 18-point CLUT (nodes every 15 of 255) into
    /// Lab, each node's colour made sRGB → Lab by lcms2.
    static func profile() throws -> ColorProfile {
        let srgb = try #require(cmsCreate_sRGBProfile()), labProfile = try #require(cmsCreateLab4Profile(nil))
        defer {
            cmsCloseProfile(srgb)
            cmsCloseProfile(labProfile)
        }
        let toLab = try #require(
            cmsCreateTransform(
                srgb, BK_TYPE_RGB_16_FOR_TESTS, labProfile, BK_TYPE_LAB_16_FOR_TESTS, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0))
        defer { cmsDeleteTransform(toLab) }
        let profile = try #require(cmsCreateProfilePlaceholder(nil))
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        let pipeline = try #require(cmsPipelineAlloc(nil, 4, 3))
        defer { cmsPipelineFree(pipeline) }
        let clut = try #require(cmsStageAllocCLut16bit(nil, 18, 4, 3, nil))
        let sampled = cmsStageSampleCLut16bit(
            clut,
            { input, output, cargo in
                guard let input, let output, let cargo else { return 0 }
                let ink = (0..<4).map { Double(input[$0]) / 65_535 }
                let rgb = CMYKProfileTests.colour(ink[0], ink[1], ink[2], ink[3])
                var device = [rgb.0, rgb.1, rgb.2].map { UInt16(($0 * 65_535).rounded()) }
                cmsDoTransform(cargo, &device, output, 1)
                return 1
            }, toLab, 0)
        try #require(sampled != 0)
        // lutAtoBType takes A curves, CLUT, B curves: identity curves either side.
        let a = try #require(cmsStageAllocToneCurves(nil, 4, nil)), b = try #require(cmsStageAllocToneCurves(nil, 3, nil))
        for stage in [a, clut, b] { try #require(cmsPipelineInsertStage(pipeline, cmsAT_END, stage) != 0) }
        try #require(cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0)
        try #require(cmsWriteTag(profile, cmsSigMediaWhitePointTag, UnsafeRawPointer(cmsD50_XYZ())) != 0)
        var size: UInt32 = 0
        try #require(cmsSaveProfileToMem(profile, nil, &size) != 0)
        var data = [UInt8](repeating: 0, count: Int(size))
        try #require(data.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &size) } != 0)
        return ColorProfile(data: data)
    }

    /// `jpeg` with `profile` in APP2 `ICC_PROFILE` markers (65 519 bytes each at most) after SOI.
    static func tagged(_ jpeg: [UInt8], _ profile: ColorProfile) -> [UInt8] {
        let chunks = stride(from: 0, to: profile.data.count, by: 65_519).map { profile.data[$0..<min($0 + 65_519, profile.data.count)] }
        var file: [UInt8] = [0xFF, 0xD8]
        for (i, chunk) in chunks.enumerated() {
            let body = Array("ICC_PROFILE".utf8) + [0, UInt8(i + 1), UInt8(chunks.count)] + chunk
            file += [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        return file + jpeg.dropFirst(2)
    }

    @Test func convertsCMYKThroughItsOwnProfile() throws {
        let profile = try CMYKProfileTests.profile()
        #expect(profile.space == .cmyk)
        // 16 flat 8×8 patches (JPEG keeps a flat block's value), inks on the CLUT's nodes.
        let inks: [[Int]] = (0..<16).map { i in [(i % 4) * 60, (i / 4) * 60, ((i * 7) % 5) * 45, (i % 3) * 30] }
        let (w, h) = (32, 32)
        var stored = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                // Adobe stores 255 − ink.
                for c in 0..<4 { stored[(y * w + x) * 4 + c] = UInt8(255 - inks[(y / 8) * 4 + x / 8][c]) }
            }
        }
        let plain = try JPEGCodecTests.rawJPEG(stored, width: w, height: h, components: 4)
        let file = CMYKProfileTests.tagged(plain, profile)
        #expect(try JPEGCodec.decode(file, keepingProfile: true).profile == nil, "CMYK is converted even when the profile is kept")
        let converted = try JPEGCodec.decode(file), naive = try JPEGCodec.decode(plain)
        var worst = 0, apart = 0
        for (i, ink) in inks.enumerated() {
            let x = (i % 4) * 8 + 4, y = (i / 4) * 8 + 4
            let e = CMYKProfileTests.colour(Double(ink[0]) / 255, Double(ink[1]) / 255, Double(ink[2]) / 255, Double(ink[3]) / 255)
            let p = converted[x, y], q = naive[x, y]
            for (got, want) in [(p.r, e.0), (p.g, e.1), (p.b, e.2)] { worst = max(worst, abs(Int(got) - Int((want * 255).rounded()))) }
            apart = max(apart, abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b)))
        }
        #expect(worst <= 3, "worst difference from the profile's colours: \(worst)")
        #expect(apart >= 100, "the profile's colours are not the naive inversion's")
    }
}
