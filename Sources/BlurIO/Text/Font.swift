import BlurCore
import CFreeType
import Foundation

/// A TrueType or OpenType font at a pixel size, rasterised by FreeType (grey-level anti-aliasing).
///
/// Finding a system font: ``system(bold:size:)`` tries, in order, the file named by the
/// `BLURKIT_FONT` environment variable, what fontconfig's `fc-match` answers for "DejaVu Sans"
/// (bold or book), and the usual DejaVu paths of Debian, Ubuntu, Fedora and Homebrew; it throws
/// ``FontError/notFound(searched:)`` naming them all when none exists.
///
/// Not thread-safe (a FreeType face is not): use one `Font` per thread.
public final class Font {
    /// The font file.
    public let path: String
    /// Pixels per em.
    public let size: Double
    private var library: FT_Library?
    private var face: FT_Face?

    /// Loads the font file at `path` at `size` pixels per em.
    /// - Throws: `ParameterError/outOfRange(name:value:range:unit:)` when `size` is not within 1…2000 (NaN
    ///   included); ``FontError/cannotLoad(path:code:)`` when FreeType cannot open or size the file.
    public init(path: String, size: Double) throws {
        guard size.isFinite, size >= 1, size <= 2000 else {
            throw ParameterError.outOfRange(name: "font size", value: size, range: 1...2000, unit: "px")
        }
        self.path = path
        self.size = size
        var error = FT_Init_FreeType(&library)
        guard error == 0 else { throw FontError.cannotLoad(path: path, code: error) }
        error = FT_New_Face(library, path, 0, &face)
        if error == 0 { error = FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72) }
        guard error == 0 else {
            // deinit runs for a class whose initialiser throws: it releases what was made.
            throw FontError.cannotLoad(path: path, code: error)
        }
    }

    deinit {
        if face != nil { FT_Done_Face(face) }
        if library != nil { FT_Done_FreeType(library) }
    }

    /// The system's sans-serif font; see the type's documentation for where it looks.
    public static func system(bold: Bool = false, size: Double) throws -> Font {
        var candidates: [String] = []
        if let named = ProcessInfo.processInfo.environment["BLURKIT_FONT"], !named.isEmpty { candidates.append(named) }
        if let matched = fontconfigMatch(bold ? "DejaVu Sans:bold" : "DejaVu Sans") { candidates.append(matched) }
        let file = bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf"
        candidates += [
            "/usr/share/fonts/truetype/dejavu/\(file)", "/usr/share/fonts/dejavu/\(file)",
            "/usr/share/fonts/dejavu-sans-fonts/\(file)", "/opt/homebrew/share/fonts/\(file)", "/usr/local/share/fonts/\(file)",
        ]
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            throw FontError.notFound(searched: candidates)
        }
        return try Font(path: path, size: size)
    }

    private static func fontconfigMatch(_ pattern: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["fc-match", "-f", "%{file}", pattern]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    /// Ascent and descent above and below the baseline, pixels.
    public var lineMetrics: (ascent: Double, descent: Double) {
        guard let metrics = face?.pointee.size.pointee.metrics else { return (0, 0) }
        return (Double(metrics.ascender) / 64, -Double(metrics.descender) / 64)
    }

    /// The advance width of `text` in pixels.
    public func width(of text: String) -> Double {
        var x = 0.0
        for scalar in text.unicodeScalars where FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_DEFAULT)) == 0 {
            x += Double(face!.pointee.glyph.pointee.advance.x) / 64
        }
        return x
    }

    /// Draws `text` source-over into `bitmap` with its baseline starting at pixel (x, y). Returns
    /// how many pixels received any coverage (0 for blank text or text entirely outside).
    @discardableResult
    public func draw(_ text: String, into bitmap: inout Bitmap, x: Double, y: Double, color: Color) -> Int {
        var penX = x, touched = 0
        let colour = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * 255
        for scalar in text.unicodeScalars {
            guard FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0, let glyph = face?.pointee.glyph else { continue }
            let image = glyph.pointee.bitmap
            let left = Int((penX).rounded(.down)) + Int(glyph.pointee.bitmap_left)
            let top = Int(y.rounded()) - Int(glyph.pointee.bitmap_top)
            if let buffer = image.buffer, image.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                for row in 0..<Int(image.rows) {
                    let py = top + row
                    guard py >= 0 && py < bitmap.height else { continue }
                    for column in 0..<Int(image.width) {
                        let px = left + column
                        guard px >= 0 && px < bitmap.width else { continue }
                        let coverage = Float(buffer[row * Int(image.pitch) + column]) / 255 * Float(color.alpha)
                        if coverage <= 0 { continue }
                        touched += 1
                        let under = bitmap[px, py]
                        func over(_ s: Float, _ d: UInt8) -> UInt8 { UInt8((s * coverage + Float(d) * (1 - coverage)).rounded()) }
                        bitmap[px, py] = RGBA8(
                            r: over(colour.x, under.r), g: over(colour.y, under.g), b: over(colour.z, under.b), a: over(255, under.a))
                    }
                }
            }
            penX += Double(glyph.pointee.advance.x) / 64
        }
        return touched
    }
}
