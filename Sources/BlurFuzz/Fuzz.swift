// libFuzzer entry point for BlurKit's parsers (`make fuzz`). `make fuzz` builds it with
// `-sanitize=fuzzer,address -parse-as-library -DBLURKIT_FUZZ`; any other build makes a program that
// only says so.
//
// BLURKIT_FUZZ_TARGET chooses what the bytes feed: png, jpeg, netpbm, gif, webp, apng (animation
// decoders), any (format sniffed), pixels (decode, then blur and render effects on whatever
// decodes), scene (scene-file JSON, then render it small), path (SVG path data, then fill it),
// thumbhash (decode a hash, encode the result), or arguments (the command line's scanner: words split
// at NUL or newline). Every input must either decode
// or throw; a crash, a hang or a leak is a finding.
#if BLURKIT_FUZZ
import BlurCommandLine
import BlurKit

#if canImport(Glibc)
import Glibc
#endif

enum FuzzTarget: String {
    case png, jpeg, netpbm, any, pixels, gif, webp, apng, scene, path, thumbhash, arguments

    static let current: FuzzTarget = {
        guard let name = getenv("BLURKIT_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            return .any
        }
        return target
    }()

    /// The `arguments` target's option table: numbers with ranges, free values and flags.
    static let options: [OptionSpec] = [
        OptionSpec(GaussianBlur.sigmaSpec, value: "S"), OptionSpec(Scene.scaleSpec, value: "K"),
        OptionSpec(SceneRecording.frameRateSpec, value: "F"), OptionSpec(SceneRecording.durationSpec, value: "D"),
        OptionSpec(Placeholder.sizeSpec, value: "N"), OptionSpec(name: "format", value: "FMT", help: "a free value"),
        OptionSpec(name: "quiet", value: nil, help: "a flag"),
    ]
}

public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
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
        // Words split at NUL and newline, scanned against a table like the commands' own, then every
        // numeric option read through its parameter table.
        let words = bytes.split(whereSeparator: { $0 == 0 || $0 == 10 }).map { String(decoding: $0, as: UTF8.self) }
        guard let parsed = try? ParsedArguments(words[...], options: FuzzTarget.options) else { return 0 }
        for spec in [GaussianBlur.sigmaSpec, Scene.scaleSpec, SceneRecording.frameRateSpec, SceneRecording.durationSpec, Placeholder.sizeSpec] {
            _ = try? parsed.number(spec)
            _ = try? parsed.integer(spec)
        }
        _ = try? parsed.inputAndOutput(of: "fuzz")
        _ = helpText(usage: "fuzz", summary: "", options: FuzzTarget.options)
    case .pixels:
        guard let image = try? ImageFile.decode(bytes), image.width * image.height <= 4096 else { return 0 }
        let sigma = Double(bytes[size / 2] % 40) / 2
        _ = try? GaussianBlur(sigma: sigma, edges: size % 2 == 0 ? .clamp : .transparent).apply(to: image)
        var effect = VariableBlurEffect(direction: GradientDirection.allCases[size % 4])
        effect.maximumBlurRadius = sigma
        _ = effect.render(over: image, frame: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height) / 2))
        _ = Material(style: MaterialStyle.allCases[size % 15], blurEffectRadius: sigma, cornerRadius: 3)
            .render(over: image, frame: Rect(x: 1, y: 1, width: Double(image.width), height: Double(image.height)))
        _ = try? PNGCodec.decode(PNGCodec.encode(image))
    }
    return 0
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
