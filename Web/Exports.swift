// The C functions blurkit.wasm exports, compiled with BlurCore's own sources into one module by
// `make wasm` (Embedded Swift, wasm32). Pixels are the canvas's: straight-alpha RGBA bytes at
// `pixels`, `width × height`, rewritten in place. Names (styles, directions, edge modes) arrive as
// UTF-8 at a pointer and a length; a number given as NaN takes its parameter table's default. Every
// function returns 0, or 1 with the message left for `bk_error` (the same message the command line
// prints, the parameter named).

/// The message of the last call that failed, NUL-terminated, kept until the next failure (one thread:
/// WebAssembly has no other).
nonisolated(unsafe) private var lastError: UnsafeMutableBufferPointer<UInt8> = {
    let empty = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1)
    empty[0] = 0
    return empty
}()

private func fail(_ message: String) -> Int32 {
    let bytes = Array(message.utf8)
    lastError.deallocate()
    lastError = .allocate(capacity: bytes.count + 1)
    _ = lastError.initialize(from: bytes + [0])
    return 1
}

private func text(_ bytes: UnsafePointer<UInt8>, _ count: Int32) -> String {
    String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
}

/// `name` as one of `Choice`'s cases, or nil.
private func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _: Choice.Type) -> Choice? where Choice.RawValue == String {
    Choice(rawValue: name)
}

private func unknown<Choice: RawRepresentable & CaseIterable>(_ parameter: String, _ name: String, _: Choice.Type) -> Int32
where Choice.RawValue == String {
    var known = ""
    for option in Choice.allCases { known += (known.isEmpty ? "" : ", ") + option.rawValue }
    return fail("\(parameter): unknown value '\(name)' (known: \(known))")
}

/// The image at `pixels` as a bitmap (straight alpha → premultiplied), at `scale` pixels per point.
private func bitmap(_ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, scale: Double) -> Bitmap? {
    let bytes = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
    return try? Bitmap(width: Int(width), height: Int(height), straightRGBA: bytes, scale: scale)
}

/// Writes `image` back over `pixels`, straight alpha.
private func store(_ image: Bitmap, _ pixels: UnsafeMutablePointer<UInt8>) {
    let bytes = image.straightRGBA
    bytes.withUnsafeBufferPointer { pixels.update(from: $0.baseAddress!, count: $0.count) }
}

@_cdecl("bk_alloc")
public func bkAlloc(_ bytes: Int32) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer.allocate(byteCount: Int(bytes), alignment: 16) }

@_cdecl("bk_free")
public func bkFree(_ pointer: UnsafeMutableRawPointer?) { pointer?.deallocate() }

@_cdecl("bk_error")
public func bkError() -> UnsafePointer<UInt8> { UnsafePointer(lastError.baseAddress!) }

/// The Gaussian blur of σ `sigma` pixels (``GaussianBlur/sigmaSpec``) with edges `edges`.
@_cdecl("bk_blur")
public func bkBlur(
    _ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ sigma: Double, _ edgesName: UnsafePointer<UInt8>, _ edgesLength: Int32
)
    -> Int32
{
    let name = text(edgesName, edgesLength)
    guard let edges = choice(name, EdgeMode.self) else { return unknown("edges", name, EdgeMode.self) }
    let blur: GaussianBlur
    do { blur = try GaussianBlur(sigma: try check(GaussianBlur.sigmaSpec, sigma), edges: edges) } catch { return fail(error.description) }
    guard let image = bitmap(pixels, width, height, scale: 1) else { return fail("the image is empty or too large") }
    store(blur.apply(to: image), pixels)
    return 0
}

/// The tint of the dimming gradient from its word: `background` (BlurUIKit's default), `none`, or
/// `#RRGGBB` / `#RRGGBBAA`. Nil (the outer optional) for anything else.
private func tint(_ word: String) -> DynamicColor?? {
    switch word {
    case "background": return .some(.systemBackground)
    case "none": return .some(nil)
    default: return Color(hex: word).map { .some(DynamicColor($0)) }
    }
}

/// `value` checked against `spec`, or the spec's default for NaN (an error if it has none).
private func check(_ spec: ParameterSpec, _ value: Double) throws(ParameterError) -> Double {
    try spec.validate(value.isNaN ? spec.defaultValue ?? value : value)
}

/// The progressive blur (BlurUIKit's `VariableBlurView`) over the whole image at `pointScale` pixels
/// per point: radii in points; `dimmingAlpha` NaN for BlurUIKit's default (0.5 light, 0.25 dark).
@_cdecl("bk_progressive")
public func bkProgressive(
    _ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ pointScale: Double,
    _ directionName: UnsafePointer<UInt8>, _ directionLength: Int32, _ maximumRadius: Double, _ minimumRadius: Double,
    _ dimmingAlpha: Double, _ tintName: UnsafePointer<UInt8>, _ tintLength: Int32,
    _ appearanceName: UnsafePointer<UInt8>, _ appearanceLength: Int32
) -> Int32 {
    let directionWord = text(directionName, directionLength), appearanceWord = text(appearanceName, appearanceLength)
    let tintWord = text(tintName, tintLength)
    guard let direction = choice(directionWord, GradientDirection.self) else { return unknown("direction", directionWord, GradientDirection.self) }
    guard let appearance = choice(appearanceWord, Appearance.self) else { return unknown("appearance", appearanceWord, Appearance.self) }
    guard let dimmingTint = tint(tintWord) else { return fail("dimmingTint: '\(tintWord)' is not background, none, #RRGGBB or #RRGGBBAA") }
    var effect = VariableBlurEffect(direction: direction), scale = pointScale
    do {
        scale = try check(Bitmap.scaleSpec, scale)
        effect.maximumBlurRadius = try check(VariableBlurEffect.maximumRadiusSpec, maximumRadius)
        effect.minimumBlurRadius = try check(VariableBlurEffect.minimumRadiusSpec, minimumRadius)
        if !dimmingAlpha.isNaN { effect.dimmingAlpha = .constant(alpha: try check(VariableBlurEffect.dimmingAlphaSpec, dimmingAlpha)) }
    } catch { return fail(error.description) }
    effect.dimmingTintColor = dimmingTint
    guard let image = bitmap(pixels, width, height, scale: scale) else { return fail("the image is empty or too large") }
    let frame = Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
    store(effect.render(over: image, frame: frame, appearance: appearance), pixels)
    return 0
}

/// A material (`UIBlurEffect` style `styleName`) over `x, y, regionWidth, regionHeight` points of the
/// image at `scale` (a NaN size: to the image's edge); `blurRadius` NaN for the style's own.
@_cdecl("bk_material")
public func bkMaterial(
    _ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ pointScale: Double,
    _ styleName: UnsafePointer<UInt8>, _ styleLength: Int32, _ appearanceName: UnsafePointer<UInt8>, _ appearanceLength: Int32,
    _ x: Double, _ y: Double, _ regionWidth: Double, _ regionHeight: Double,
    _ cornerRadius: Double, _ blurRadius: Double, _ dimmingAlpha: Double
) -> Int32 {
    let styleWord = text(styleName, styleLength), appearanceWord = text(appearanceName, appearanceLength)
    guard let style = choice(styleWord, MaterialStyle.self) else { return unknown("style", styleWord, MaterialStyle.self) }
    guard let appearance = choice(appearanceWord, Appearance.self) else { return unknown("appearance", appearanceWord, Appearance.self) }
    var material = Material(style: style), scale = pointScale
    let frame: Rect
    do {
        scale = try check(Bitmap.scaleSpec, scale)
        material.cornerRadius = try check(Material.cornerRadiusSpec, cornerRadius)
        material.dimmingAlpha = try check(Material.dimmingSpec, dimmingAlpha)
        if !blurRadius.isNaN { material.blurEffectRadius = try check(Material.radiusSpec, blurRadius) }
        // No region (NaN): the whole image.
        let whole = (Double(width) / scale, Double(height) / scale)
        frame = Rect(
            x: try check(Rect.coordinateSpec.named("x"), x), y: try check(Rect.coordinateSpec.named("y"), y),
            width: try check(Rect.lengthSpec.named("width"), regionWidth.isNaN ? whole.0 : regionWidth),
            height: try check(Rect.lengthSpec.named("height"), regionHeight.isNaN ? whole.1 : regionHeight))
    } catch { return fail(error.description) }
    guard let image = bitmap(pixels, width, height, scale: scale) else { return fail("the image is empty or too large") }
    store(material.render(over: image, frame: frame, appearance: appearance), pixels)
    return 0
}

/// The ThumbHash of the image (at most 25 bytes into `hash`): its length, or 0 on failure.
@_cdecl("bk_thumbhash")
public func bkThumbHash(_ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ hash: UnsafeMutablePointer<UInt8>) -> Int32 {
    guard let image = bitmap(pixels, width, height, scale: 1) else { return Int32(fail("the image is empty or too large") - 1) }
    let bytes = image.thumbHash()
    hash.update(from: bytes, count: bytes.count)
    return Int32(bytes.count)
}

/// The image a ThumbHash stands for, straight RGBA: its size into `size[0]`, `size[1]`, the pixels
/// at the pointer returned (freed with `bk_free`), or nil with the message for `bk_error`.
@_cdecl("bk_from_thumbhash")
public func bkFromThumbHash(_ hash: UnsafePointer<UInt8>, _ length: Int32, _ size: UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<UInt8>? {
    let image: Bitmap
    do { image = try Bitmap(thumbHash: Array(UnsafeBufferPointer(start: hash, count: Int(length)))) } catch {
        _ = fail(error.description)
        return nil
    }
    let bytes = image.straightRGBA
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    out.update(from: bytes, count: bytes.count)
    size[0] = Int32(image.width)
    size[1] = Int32(image.height)
    return out
}
