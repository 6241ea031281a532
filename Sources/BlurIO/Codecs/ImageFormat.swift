import BlurCore

/// The file formats BlurKit reads and writes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG (`.png`, `.apng`); an APNG is read as its default image, except by ``AnimatedImage/decode(_:)``.
    case png
    /// JPEG (`.jpg`, `.jpeg`).
    case jpeg
    /// Netpbm PAM, `P7` (`.pam`).
    case pam
    /// Netpbm PPM, `P6`, and when read also PGM, `P5` (`.ppm`, `.pnm`).
    case ppm
    /// WebP (`.webp`); an animation is read as its first frame, except by ``AnimatedImage/decode(_:)``.
    case webp
    /// GIF (`.gif`); an animation is read as its first frame, except by ``AnimatedImage/decode(_:)``.
    case gif
    /// AVIF (`.avif`), read and written through libheif (AV1); a sequence is read as its primary image.
    case avif
    /// HEIF with HEVC (`.heic`, `.heif`), as phones save photos; read and written through libheif.
    case heic

    /// Human name for messages.
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .pam: return "PAM"
        case .ppm: return "PPM"
        case .webp: return "WebP"
        case .gif: return "GIF"
        case .avif: return "AVIF"
        case .heic: return "HEIC"
        }
    }

    /// The suffix after the last dot of `path`'s file name, or nil when the name has none (a leading
    /// dot alone, as in `.hidden`, is not a suffix).
    public static func suffix(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The format for an output path's suffix (see ``init(pathExtension:)``), or nil.
    public init?(path: String) {
        guard let suffix = ImageFormat.suffix(of: path) else { return nil }
        self.init(pathExtension: suffix)
    }

    /// The format a file name's suffix asks for (`.png`/`.apng`, `.jpg`/`.jpeg`, `.pam`, `.ppm`,
    /// `.webp`, `.gif`, `.avif`, `.heic`/`.heif`), or nil.
    public init?(pathExtension: String) {
        guard let format = try? ImageFormat.spec.parse(pathExtension) else { return nil }
        self = format
    }

    /// The parameter table entry: `format`, one of png, jpeg (jpg), webp, avif, heic (heif), gif,
    /// pam, ppm (pnm), in any case; no default (the output's suffix decides).
    public static let spec = ChoiceSpec<ImageFormat>(
        name: "format",
        choices: [
            .init(["png", "apng"], .png), .init(["jpeg", "jpg"], .jpeg), .init(["webp"], .webp), .init(["avif"], .avif),
            .init(["heic", "heif"], .heic), .init(["gif"], .gif), .init(["pam"], .pam), .init(["ppm", "pnm"], .ppm),
        ],
        defaultValue: nil, summary: "output format")

    /// Every suffix an image file may have, as ``init(pathExtension:)`` reads them.
    public static let suffixes = spec.choices.flatMap(\.words)

    /// The format named on a command line (`png`, `jpeg`/`jpg`, `pam`, `ppm`, `webp`, `gif`, `avif`,
    /// `heic`/`heif`), or nil.
    public init?(name: String) {
        self.init(pathExtension: name)
    }

    /// The format the first bytes of a file show, or nil. PGM and PPM both count as `.ppm`; a HEIF
    /// file (an ISO BMFF `ftyp` box) is `.avif` when its brands name AV1 images, else `.heic`.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: Array("P7".utf8)) {
            self = .pam
        } else if bytes.starts(with: Array("P6".utf8)) || bytes.starts(with: Array("P5".utf8)) {
            self = .ppm
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if let format = ImageFormat.heif(brands: bytes) {
            self = format
        } else {
            return nil
        }
    }

    /// The HEIF format an ISO BMFF `ftyp` box at the start of `bytes` names: `.avif` for the AV1
    /// brands (`avif`, `avis`, major or compatible), `.heic` for the HEVC and generic image
    /// brands (`heic`, `heix`, `hevc`, `hevx`, `heim`, `heis`, `mif1`, `msf1`), else nil.
    static func heif(brands bytes: [UInt8]) -> ImageFormat? {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(bytes.count, max(12, size))
        // The major brand, then the compatible brands after the minor version.
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= end {
            brands.append(String(decoding: bytes[at..<at + 4], as: UTF8.self))
            at += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
        return brands.contains(where: heif.contains) ? .heic : nil
    }
}

extension ImageFormat {
    /// Whether the format can hold an image of `width × height`: WebP at most 16383 px a side,
    /// JPEG 65500, GIF 65535; the others any size BlurKit makes.
    public func holds(width: Int, height: Int) -> Bool { max(width, height) <= largestSide }

    /// The longest side the format holds, in pixels (`Int.max` where the pixel limit comes first).
    public var largestSide: Int {
        switch self {
        case .webp: return 16383
        case .jpeg: return 65500
        case .gif: return 65535
        default: return .max
        }
    }
}
