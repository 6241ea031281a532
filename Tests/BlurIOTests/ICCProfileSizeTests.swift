import BlurCore
import BlurIO
import BlurTestSupport
import CLCMS2
import Foundation
import Testing

/// The largest block lcms2 has asked for since the last reset, through a memory plugin that the
/// tests install once (it passes every call on to malloc, realloc and free).
private let largestLCMSBlock = Locked(0)

/// ICC profiles are sized from their tag tables before lcms2 opens them: a profile that declares
/// tables of gigabytes with no data behind them is refused, with no allocation by lcms2.
@Suite struct ICCProfileSizeTests {
    /// Installs the counting memory plugin (once, for the process).
    static let counting: Bool = {
        let plugin = UnsafeMutablePointer<cmsPluginMemHandler>.allocate(capacity: 1)
        plugin.initialize(to: cmsPluginMemHandler())
        plugin.pointee.base.Magic = cmsUInt32Number(cmsPluginMagicNumber)
        plugin.pointee.base.ExpectedVersion = cmsUInt32Number(LCMS_VERSION)
        plugin.pointee.base.`Type` = cmsUInt32Number(cmsPluginMemHandlerSig)
        plugin.pointee.MallocPtr = { _, size in
            largestLCMSBlock.withLock { $0 = max($0, Int(size)) }
            return malloc(Int(size))
        }
        plugin.pointee.ReallocPtr = { _, block, size in
            largestLCMSBlock.withLock { $0 = max($0, Int(size)) }
            return realloc(block, Int(size))
        }
        plugin.pointee.FreePtr = { _, block in free(block) }
        return cmsPlugin(plugin) != 0
    }()

    /// A v2 RGB display profile holding `tags` (signature, then the tag's bytes from its type on).
    static func profile(_ tags: [(String, [UInt8])], declaredCount: Int? = nil) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])
        header.replaceSubrange(12..<16, with: Array("mntr".utf8))
        header.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        header.replaceSubrange(20..<24, with: Array("XYZ ".utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        header.replaceSubrange(68..<80, with: be32(0xF6D6) + be32(0x1_0000) + be32(0xD32D))  // the D50 illuminant
        var table = be32(declaredCount ?? tags.count), body: [UInt8] = []
        var offset = 128 + 4 + 12 * tags.count
        for (name, bytes) in tags {
            table += Array(name.utf8) + be32(offset) + be32(bytes.count)
            body += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
            offset += bytes.count + (4 - bytes.count % 4) % 4
        }
        var data = header + table + body
        data.replaceSubrange(0..<4, with: be32(data.count))
        return data
    }

    /// A lut16 (`mft2`) tag of 3 inputs, 15 outputs and a 255-point grid, and no data: lcms2 would
    /// zero 255³ × 15 × 2 bytes (497 MB) for its CLUT before finding nothing to read.
    static let lut16Bomb: [UInt8] = Array("mft2".utf8) + [0, 0, 0, 0, 3, 15, 255, 0] + [UInt8](repeating: 0, count: 36) + [0, 2, 0, 2]

    /// The bomb: A2B0, A2B1 and A2B2 each such a lut16 (324 bytes).
    static let bomb = profile([("A2B0", lut16Bomb), ("A2B1", lut16Bomb), ("A2B2", lut16Bomb)])

    /// A lutAtoB (`mAB `) with no curves and a CLUT of 255 × 255 × 255 points, 15 outputs.
    static let lutAtoBBomb: [UInt8] =
        Array("mAB ".utf8) + [0, 0, 0, 0, 3, 15, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 32, 0, 0, 0, 0]
        + [255, 255, 255] + [UInt8](repeating: 0, count: 13) + [2, 0, 0, 0]

    /// A multiProcessElement (`mpet`) whose one element is a float CLUT of 255 × 255 × 255 points, 15 outputs.
    static let multiProcessBomb: [UInt8] =
        Array("mpet".utf8) + [0, 0, 0, 0, 0, 3, 0, 15, 0, 0, 0, 1] + [0, 0, 0, 24, 0, 0, 0, 28]
        + Array("clut".utf8) + [0, 0, 0, 0, 0, 3, 0, 15] + [255, 255, 255] + [UInt8](repeating: 0, count: 13)

    @Test func sizesTheBombFromItsDeclaredTables() throws {
        #expect(ICCProfileSizeTests.bomb.count == 324)
        let clut = 255 * 255 * 255 * 15 * 2
        let size = try ICCProfileSize(ICCProfileSizeTests.bomb)
        #expect(size.bytes >= 3 * clut, "\(size.bytes)")
        #expect(throws: DecodingError.profileTooLarge(format: .png, needed: size.bytes, limit: ColorProfile.maximumBytes)) {
            try ColorProfile(data: ICCProfileSizeTests.bomb).check(in: .png)
        }
        for (name, tag) in [("mAB ", ICCProfileSizeTests.lutAtoBBomb), ("mpet", ICCProfileSizeTests.multiProcessBomb)] {
            let bytes = try ICCProfileSize(ICCProfileSizeTests.profile([(name == "mpet" ? "D2B0" : "A2B0", tag)])).bytes
            #expect(bytes >= 255 * 255 * 255 * 15 * (name == "mpet" ? 4 : 2), "\(name): \(bytes)")
        }
    }

    /// Opening the bomb (its space, its name, a conversion) never reaches lcms2: its largest
    /// allocation stays far below the 497 MB one CLUT would take.
    @Test func lcms2NeverAllocatesForTheBomb() throws {
        try #require(ICCProfileSizeTests.counting)
        largestLCMSBlock.withLock { $0 = 0 }
        let profile = ColorProfile(data: ICCProfileSizeTests.bomb)
        #expect(profile.space == nil)
        #expect(profile.name == nil)
        let png = try PNGCodec.encode(ColorProfileTests.p3Grid(), profile: profile)
        #expect(throws: DecodingError.self) { try PNGCodec.decode(png) }
        let largest = largestLCMSBlock.withLock { $0 }
        // Other tests use lcms2 at the same time; none of their blocks comes near 64 MB.
        #expect(largest < 64 << 20, "lcms2 allocated a block of \(largest) bytes")
    }

    /// Every decoder refuses an image that embeds the bomb (the service answers 413), rather than
    /// dropping the profile.
    @Test(arguments: [ImageFormat.png, .jpeg, .webp, .heic])
    func refusesAnImageWhoseProfileIsABomb(_ format: ImageFormat) throws {
        let image = ColorProfileTests.p3Grid()
        let bytes = try ImageFile.encode(image, as: format, quality: 90, profile: ColorProfile(data: ICCProfileSizeTests.bomb))
        for keeping in [false, true] {
            let error = #expect(throws: DecodingError.self) { try ImageFile.decode(bytes, keepingProfile: keeping) }
            guard case let .profileTooLarge(found, needed, limit) = error else {
                Issue.record("\(format.name): \(String(describing: error))")
                continue
            }
            #expect(found == format)
            #expect(needed > limit)
        }
        // A budget below the profile's cost refuses it too: the limit is the render's share.
        #expect(ColorProfile.byteLimit == min(ImageLimits.memoryBudget, ColorProfile.maximumBytes))
    }

    @Test func refusesMalformedTagTables() throws {
        let curve: [UInt8] = Array("curv".utf8) + [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]
        var outside = ICCProfileSizeTests.profile([("rTRC", curve)])
        outside[128 + 4 + 8 + 3] = 200  // the tag's size, past the end
        var clutOutside = ICCProfileSizeTests.profile([("A2B0", ICCProfileSizeTests.lutAtoBBomb)])
        clutOutside[128 + 4 + 12 + 8 + 4 + 12 + 3] = 250  // the CLUT's offset, past the end
        let cases: [(String, [UInt8])] = [
            ("short", Array(ICCProfileSizeTests.profile([]).prefix(100))),
            ("no acsp", ICCProfileSizeTests.profile([]).enumerated().map { $0.offset == 36 ? 0 : $0.element }),
            ("101 tags", ICCProfileSizeTests.profile([("rTRC", curve)], declaredCount: 101)),
            ("tag past the end", outside),
            ("CLUT past the end", clutOutside),
        ]
        for (name, data) in cases {
            #expect(throws: ICCProfileSize.Malformed.self, "\(name)") { try ICCProfileSize(data) }
            let error = #expect(throws: DecodingError.self) { try ColorProfile(data: data).check(in: .jpeg) }
            guard case let .corrupt(format, message) = error else {
                Issue.record("\(name): \(String(describing: error))")
                continue
            }
            #expect(format == .jpeg)
            #expect(message.hasPrefix("its ICC profile is malformed"), "\(message)")
            #expect(ColorProfile(data: data).space == nil)
        }
    }

    /// Real profiles pass, each costing little: Display P3 and sRGB as lcms2 builds them, a
    /// 16,384-entry curve profile, the CMYK lutAtoB profile of ``CMYKProfileTests``, the fuzz corpus's.
    @Test func realProfilesPass() throws {
        let corpus = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fuzz/corpus/icc/display-p3.icc"))
        let profiles: [(String, ColorProfile)] = [
            ("Display P3", .displayP3), ("sRGB", .sRGB), ("long curves", try #require(ColorProfileTests.tabulatedP3())),
            ("CMYK", try CMYKProfileTests.profile()), ("corpus", ColorProfile(data: Array(corpus))),
        ]
        for (name, profile) in profiles {
            try profile.check(in: .png)
            let bytes = try ICCProfileSize(profile.data).bytes
            #expect(bytes < 4 << 20, "\(name): \(bytes) bytes")
            #expect(profile.space != nil, "\(name)")
        }
    }
}
