// libFuzzer entry point for BlurKit's parsers (`make fuzz`). `make fuzz` builds it with
// `-sanitize=fuzzer,address -parse-as-library -DBLURKIT_FUZZ`; any other build makes a program that
// only says so.
//
// BLURKIT_FUZZ_TARGET chooses what the bytes feed: png, jpeg, netpbm, gif, webp, apng (animation
// decoders), heif (HEIC and AVIF through libheif: the header, then the image), icc (an ICC profile
// read by lcms2, then its conversion to sRGB made and run on a few pixels), any (format sniffed), pixels (decode, then blur and render effects on whatever
// decodes; also raw pixels read from any input, 1×1 to 16×16, built tight and with padded rows,
// which must give the same effects), scene (scene-file JSON, then render it small), path (SVG path
// data, then fill it), thumbhash (decode a hash, encode the result), or arguments (the command
// line's scanner: words split at NUL or newline), or request (`blurkit serve`'s request targets:
// decoded, the path resolved under a root, the signature checked; a path that resolves outside the
// root is a finding). Every input must either decode or throw; a crash, a hang or a leak is a finding.
#if BLURKIT_FUZZ
import BlurCommandLine
import BlurKit
import BlurServe
import Foundation

#if canImport(Glibc)
import Glibc
#endif

enum FuzzTarget: String {
    case png, jpeg, netpbm, any, pixels, gif, webp, apng, heif, icc, scene, path, thumbhash, arguments, request

    /// The `request` target's root: a file, a folder, and a link that leads out.
    static let root: ServeRoot = {
        let folder = NSTemporaryDirectory() + "blurkit-fuzz-root-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/root/sub", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/root/a.png", contents: Data([1]))
        FileManager.default.createFile(atPath: folder + "/root/sub/b.png", contents: Data([2]))
        FileManager.default.createFile(atPath: folder + "/outside.png", contents: Data([3]))
        try? FileManager.default.createSymbolicLink(atPath: folder + "/root/link.png", withDestinationPath: folder + "/outside.png")
        return try! ServeRoot(folder + "/root")
    }()
    static let signer = try! URLSigner(hexKey: "000102030405060708090a0b0c0d0e0f")

    static let current: FuzzTarget = {
        guard let name = getenv("BLURKIT_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            return .any
        }
        return target
    }()

    /// The `arguments` target's option table: numbers with ranges, choices, values with a form of
    /// their own, and flags.
    /// Every operation's command-line options (the first of each flag), and a flag.
    static let options: [OptionSpec] = {
        var seen = Set<String>(), options: [OptionSpec] = []
        for operation in BlurOperation.all {
            for option in OptionSpec.options(for: operation) where seen.insert(option.name).inserted { options.append(option) }
        }
        return options + [StandardOptions.quiet]
    }()
}

public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    // Small images only: a fuzzer should find bugs, not allocate gigabytes.
    ImageLimits.maximumPixelCount = 1 << 20
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch FuzzTarget.current {
    case .png: _ = try? PNGCodec.decode(bytes)
    case .jpeg: _ = try? JPEGCodec.decode(bytes, reduction: bytes.first.map { 1 << Int($0 % 4) } ?? 1)
    case .netpbm: _ = try? NetpbmCodec.decode(bytes)
    case .any: _ = try? ImageFile.decode(bytes)
    case .gif: _ = try? GIFCodec.decodeAnimation(bytes)
    case .webp: _ = try? WebPCodec.decodeAnimation(bytes)
    case .apng: _ = try? APNGCodec.decode(bytes)
    case .heif:
        if (try? HEIFCodec.header(bytes)) != nil { _ = try? HEIFCodec.decode(bytes) }
    case .icc:
        let profile = ColorProfile(data: bytes)
        _ = profile.name
        if var image = try? Bitmap(width: 4, height: 2, straightRGBA: (0..<32).map { UInt8($0 * 8) }) {
            ColorConversion(from: profile)?.convert(premultiplied: &image)
        }
    case .thumbhash:
        if let image = try? Bitmap(thumbHash: bytes) { _ = image.thumbHash() }
    case .path:
        guard let path = try? Path(svg: String(decoding: bytes, as: UTF8.self)) else { return 0 }
        _ = path.coverage(in: PixelRect(x: -3, y: -3, width: 40, height: 30)) { Point($0.x * 0.5, $0.y * 0.5) }
    case .scene:
        // Images come from memory: a scene must not make the fuzzer read files.
        let tile = try! Bitmap(width: 4, height: 3, premultipliedRGBA: [UInt8](repeating: 128, count: 48))
        guard let file = try? SceneFile.parse(bytes, baseDirectory: "/nonexistent", imageLoader: { _ in tile }) else { return 0 }
        let scale = min(1, 64 / max(1, max(file.scene.width, file.scene.height)))
        for t in [0, 0.3, file.lastAnimationEnd] { _ = try? file.scene.render(at: t, scale: max(0.01, scale)) }
    case .arguments:
        // Words split at NUL and newline, scanned against every operation's options, then read by each
        // operation through the registry and built into its typed value.
        let words = bytes.split(whereSeparator: { $0 == 0 || $0 == 10 }).map { String(decoding: $0, as: UTF8.self) }
        guard let parsed = try? ParsedArguments(words[...], options: FuzzTarget.options) else { return 0 }
        for operation in BlurOperation.all {
            guard let given = try? parsed.arguments(for: operation) else { continue }
            _ = try? operation.image?.prepare(given)
            _ = try? BlurOperation.context(given, width: 64, height: 48, scale: given.pointScale)
            if let output = parsed.operands.last { _ = try? parsed.stillFormat(for: output, asked: given.given(StillOutput.format)) }
        }
        _ = helpText(usage: "fuzz", summary: "", options: FuzzTarget.options)
    case .request:
        let raw = String(decoding: bytes, as: UTF8.self)
        _ = try? FuzzTarget.signer.verify(raw)
        guard let target = try? RequestTarget(raw) else { return 0 }
        for parameter in target.parameters { precondition(!parameter.name.isEmpty, "a parameter without a name") }
        if let path = try? FuzzTarget.root.resolve(target.rest) {
            precondition(path.hasPrefix(FuzzTarget.root.path + "/"), "\(target.rest) resolved outside the root: \(path)")
        }
    case .pixels:
        if let image = try? ImageFile.decode(bytes), image.width * image.height <= 4096 {
            _ = FuzzTarget.effects(on: image, sigma: Double(bytes[size / 2] % 40) / 2, choice: size)
            _ = try? PNGCodec.decode(PNGCodec.encode(image))
        }
        // Any input also builds raw pixels, tight and through padded rows: both must give the same
        // bitmap and the same effects. A difference is a finding.
        if let (tight, padded, sigma) = FuzzTarget.paddedPair(bytes) {
            precondition(padded == tight, "padded rows built a different bitmap")
            precondition(
                FuzzTarget.effects(on: padded, sigma: sigma, choice: size) == FuzzTarget.effects(on: tight, sigma: sigma, choice: size),
                "padded and tight rows blur differently")
        }
    }
    return 0
}

extension FuzzTarget {
    /// The `pixels` target's effects over `image`; `choice` picks the edge mode, direction and style.
    static func effects(on image: Bitmap, sigma: Double, choice: Int) -> [Bitmap] {
        var results: [Bitmap] = []
        if let blurred = try? GaussianBlur(sigma: sigma, edges: choice % 2 == 0 ? .clamp : .transparent).apply(to: image) {
            results.append(blurred)
        }
        var effect = VariableBlurEffect(direction: GradientDirection.allCases[choice % 4])
        effect.maximumBlurRadius = sigma
        results.append(effect.render(over: image, frame: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height) / 2)))
        results.append(
            Material(style: MaterialStyle.allCases[choice % 15], blurEffectRadius: sigma, cornerRadius: 3)
                .render(over: image, frame: Rect(x: 1, y: 1, width: Double(image.width), height: Double(image.height))))
        return results
    }

    /// Raw pixels from any input of 5 bytes or more: width 1…16 (byte 0), height 1…16 (byte 1), row
    /// padding 0…63 bytes (byte 2), the last row's padding left off when byte 3 is odd, σ 0…31.75
    /// from byte 3's other bits; then the rest of the input, repeated, as RGBA with each colour cut
    /// to its alpha, and as the padding bytes. Built tight and through
    /// `Bitmap(width:height:bytesPerRow:premultipliedRGBA:)`.
    static func paddedPair(_ bytes: [UInt8]) -> (tight: Bitmap, padded: Bitmap, sigma: Double)? {
        guard bytes.count >= 5 else { return nil }
        let width = 1 + Int(bytes[0] % 16), height = 1 + Int(bytes[1] % 16), padding = Int(bytes[2] % 64)
        let trimmed = bytes[3] & 1 == 1, sigma = Double(bytes[3] >> 1) / 4
        let data = bytes[4...]
        var next = data.startIndex
        func byte() -> UInt8 {
            defer { next = next + 1 == data.endIndex ? data.startIndex : next + 1 }
            return data[next]
        }
        var pixels = [UInt8](), rows = [UInt8]()
        for y in 0..<height {
            for _ in 0..<width {
                let r = byte(), g = byte(), b = byte(), a = byte()
                pixels += [min(r, a), min(g, a), min(b, a), a]
            }
            rows += pixels[(y * width * 4)...]
            if !(trimmed && y == height - 1) { for _ in 0..<padding { rows.append(byte()) } }
        }
        guard let tight = try? Bitmap(width: width, height: height, premultipliedRGBA: pixels),
            let padded = try? Bitmap(width: width, height: height, bytesPerRow: width * 4 + padding, premultipliedRGBA: rows)
        else { preconditionFailure("valid premultiplied rows of \(width)×\(height), padding \(padding), were refused") }
        return (tight, padded, sigma)
    }
}

// SwiftPM links an executable with `main` defined as `BlurFuzz_main`; hand control to libFuzzer's
// driver from there.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("BlurFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    _ = fuzzInitialize(&count, &arguments)
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOne(data, size) }
}
#else
@main
enum FuzzerNotBuilt {
    static func main() {
        print("BlurFuzz holds libFuzzer targets: build and run them with `make fuzz`.")
    }
}
#endif
