import BlurCore
import CLCMS2

/// An ICC colour profile as an image file embeds it: its bytes, read and written unchanged.
///
/// BlurKit reads the profile of every input (JPEG `APP2 ICC_PROFILE`, PNG `iCCP`, WebP `ICCP`,
/// HEIF `colr`) and by default converts the pixels to sRGB before any effect (relative colorimetric with black-point compensation),
/// as browsers show untagged images; `keep-profile` keeps the input's numbers and writes this
/// profile into the output instead.
public struct ColorProfile: Sendable, Hashable {
    /// The profile, byte for byte as the file holds it.
    public let data: [UInt8]

    /// Wraps profile bytes; nothing is checked until the profile is used.
    public init(data: [UInt8]) { self.data = data }

    /// The colour space a profile's pixels are in, as far as BlurKit converts them.
    public enum Space: String, Sendable {
        /// Red, green and blue (sRGB, Display P3, Adobe RGB, …).
        case rgb
        /// One channel.
        case gray
        /// Cyan, magenta, yellow and black (printing).
        case cmyk
        /// Any other (Lab, a device link, …): not converted.
        case other
    }

    /// The profile's space, or nil when lcms2 cannot read the bytes as a profile.
    public var space: Space? {
        withHandle { profile in
            switch cmsGetColorSpace(profile) {
            case cmsSigRgbData: return .rgb
            case cmsSigGrayData: return .gray
            case cmsSigCmykData: return .cmyk
            default: return .other
            }
        }
    }

    /// The profile's description (`Display P3`, `sRGB IEC61966-2.1`), or nil when it has none or is
    /// not a profile lcms2 reads.
    public var name: String? {
        withHandle { profile -> String? in
            var text = [CChar](repeating: 0, count: 256)
            let count = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, UInt32(text.count))
            guard count > 1 else { return nil }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } ?? nil
    }

    /// The most memory lcms2 may take to read a profile, whatever the memory budget: 256 MB. A
    /// print profile's largest tables (CMYK in, a 33⁴-point CLUT for each of three intents) take
    /// about 45 MB; BlurKit converts only RGB, gray and CMYK profiles.
    public static let maximumBytes = 256 << 20

    /// The most memory lcms2 may take to read a profile now: the smaller of
    /// `ImageLimits/memoryBudget` (a render's share, under `blurkit serve`) and ``maximumBytes``.
    public static var byteLimit: Int { min(ImageLimits.memoryBudget, maximumBytes) }

    /// Checks the profile before lcms2 ever opens it: its tag table must lie inside it and what
    /// lcms2 would allocate to read its tags, from the sizes they declare (CLUT grids, curve
    /// lengths, record counts: `ICCProfileSize`), must be within ``byteLimit``. Costs one pass
    /// over the tag table, no allocation.
    ///
    /// Every decoder calls it on the profile a file embeds and refuses the image when it throws,
    /// rather than ignoring the profile: an image shown without its profile has the wrong colours
    /// and no one is told, and a profile built to exhaust memory marks the file as hostile.
    /// - Throws: ``DecodingError/profileTooLarge(format:needed:limit:)`` over the limit,
    ///   ``DecodingError/corrupt(format:message:)`` for a malformed profile; `format` names the file.
    public func check(in format: ImageFormat) throws(DecodingError) {
        let needed: Int
        do {
            needed = try ICCProfileSize(data).bytes
        } catch {
            throw .corrupt(format: format, message: "its ICC profile is malformed: \(error.reason)")
        }
        let limit = ColorProfile.byteLimit
        if needed > limit { throw .profileTooLarge(format: format, needed: needed, limit: limit) }
    }

    /// `body` with the profile open in lcms2, or nil when the bytes are not a profile or fail
    /// ``check(in:)`` (nothing reaches lcms2 unchecked).
    func withHandle<T>(_ body: (cmsHPROFILE) -> T) -> T? {
        guard !data.isEmpty, data.count < Int(UInt32.max), (try? check(in: .png)) != nil,
            let profile = data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(profile) }
        return body(profile)
    }
}

extension ColorProfile {
    /// A transfer curve: how an RGB space's stored values relate to light.
    public enum TransferCurve: Sendable, Hashable {
        /// IEC 61966-2-1's piecewise curve (sRGB, Display P3).
        case sRGB
        /// ITU-R BT.709's (and BT.601's, BT.2020's at 8–10 bits) camera curve.
        case bt709
        /// A pure power, value = stored ^ `gamma` (2.2 for Adobe RGB's 563/256 ≈ 2.2).
        case gamma(Double)
        /// Stored values are light.
        case linear
    }

    /// A chromaticity, CIE 1931 x and y.
    public typealias Chromaticity = (x: Double, y: Double)

    /// An RGB profile from its primaries and white point and a transfer curve, as lcms2 builds
    /// one (chromatically adapted to D50 by Bradford, as ICC v4 asks): how a file that names its
    /// colours rather than embedding a profile (HEIF `nclx`) is described, and how the tests make
    /// a Display P3 profile from its published numbers.
    public static func rgb(
        red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity, transfer: TransferCurve, name: String
    ) -> ColorProfile {
        var whitePoint = cmsCIExyY(x: white.x, y: white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.x, y: red.y, Y: 1), Green: cmsCIExyY(x: green.x, y: green.y, Y: 1),
            Blue: cmsCIExyY(x: blue.x, y: blue.y, Y: 1))
        var parameters: [Double]
        let type: Int32
        switch transfer {
        case .sRGB: (type, parameters) = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case .bt709: (type, parameters) = (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
        case let .gamma(gamma): (type, parameters) = (1, [gamma])
        case .linear: (type, parameters) = (1, [1])
        }
        let curve = cmsBuildParametricToneCurve(nil, type, &parameters)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&whitePoint, &primaries, &curves) else { return ColorProfile(data: []) }
        defer { cmsCloseProfile(profile) }
        if let text = cmsMLUalloc(nil, 1) {
            cmsMLUsetASCII(text, "en", "US", name)
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
            cmsMLUfree(text)
        }
        return ColorProfile(saving: profile)
    }

    /// Display P3 (Apple's): the DCI-P3 primaries with a D65 white and the sRGB curve.
    public static let displayP3 = rgb(
        red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.3127, 0.3290), transfer: .sRGB, name: "Display P3")

    /// sRGB as lcms2 builds it (`cmsCreate_sRGBProfile`).
    public static let sRGB: ColorProfile = {
        guard let profile = cmsCreate_sRGBProfile() else { return ColorProfile(data: []) }
        defer { cmsCloseProfile(profile) }
        return ColorProfile(saving: profile)
    }()

    /// The bytes of an open profile.
    init(saving profile: cmsHPROFILE) {
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else {
            self.init(data: [])
            return
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &size) }
        self.init(data: saved != 0 ? bytes : [])
    }
}
