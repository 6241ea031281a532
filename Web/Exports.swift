// The C functions blurkit.wasm exports, compiled with BlurCore's own sources into one module by
// `make wasm` (Embedded Swift, wasm32). Pixels are the canvas's: straight-alpha RGBA bytes,
// `width × height`.
//
// No effect is named here: `bk_run` runs any of `BlurOperation.effects` (BlurCore's image
// operations, each one type) and reads the options it is given through their parameters, with
// the parsers the command line, the HTTP service and the scene reader use, spelled as JavaScript
// options; `bk_describe` (Web/describe.c: `bk_registry`'s JSON, kept by the build) hands the
// registry to blurkit.mjs, which builds its option checks, blurkit.d.ts and the page's controls from
// it. Every function here returns 0, or 1 with the message left for `bk_error`.

/// The message of the last call that failed, or the description, NUL-terminated, kept until the
/// next (one thread: WebAssembly has no other).
nonisolated(unsafe) private var lastText: UnsafeMutableBufferPointer<UInt8> = {
    let empty = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1)
    empty[0] = 0
    return empty
}()

private func keep(_ message: String) {
    let bytes = Array(message.utf8)
    lastText.deallocate()
    lastText = .allocate(capacity: bytes.count + 1)
    _ = lastText.initialize(from: bytes + [0])
}

private func fail(_ message: String) -> Int32 {
    keep(message)
    return 1
}

private func text(_ bytes: UnsafePointer<UInt8>, _ count: Int32) -> String {
    String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
}

/// The image at `pixels` as a bitmap (straight alpha → premultiplied), at `scale` pixels per point:
/// one copy, premultiplied in place.
private func bitmap(_ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, scale: Double) -> Bitmap? {
    guard var image = try? Bitmap.uninitialized(width: Int(width), height: Int(height), scale: scale) else { return nil }
    image.withMutablePixels { target in
        target.row(0).copyBytes(from: pixels, count: Int(width) * Int(height) * 4)
        Bitmap.premultiply(target)
    }
    return image
}

/// Writes `image` back over `pixels`, straight alpha, straight from its storage.
private func store(_ image: Bitmap, _ pixels: UnsafeMutablePointer<UInt8>) {
    image.withPixels { Bitmap.unpremultiply($0.row(0), into: pixels, pixels: image.width * image.height) }
}

@_cdecl("bk_alloc")
public func bkAlloc(_ bytes: Int32) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer.allocate(byteCount: Int(bytes), alignment: 16) }

@_cdecl("bk_free")
public func bkFree(_ pointer: UnsafeMutableRawPointer?) { pointer?.deallocate() }

@_cdecl("bk_error")
public func bkError() -> UnsafePointer<UInt8> { UnsafePointer(lastText.baseAddress!) }

/// The registry as JSON, for blurkit.mjs: each operation's name and summary and the parameters the
/// module takes (name, kind, range, unit, words with aliases, default, help). Read with `bk_error`.
/// Only the build calls it: Scripts/wasm.sh links the module once with this export, keeps what it
/// returns as the data `bk_describe` hands out (Web/describe.c), and links blurkit.wasm without it,
/// so `Describe`'s code is not in the module.
@_cdecl("bk_registry")
public func bkRegistry() -> Int32 {
    keep("[" + BlurOperation.images.map { Describe.operation($0, in: .javascript, spelling: .key) }.joined(separator: ",") + "]")
    return 0
}

/// What the web components take besides the operations (build time only, like `bk_registry`):
/// the Blur Up Image's numbers (`BlurUpTransition`), kept for `bk_error`.
@_cdecl("bk_components")
public func bkComponents() -> Int32 {
    keep("{\"blurUp\":" + BlurUpTransition.data + "}")
    return 0
}

/// Runs the operation called `name` (any of `BlurOperation.images`) on the pixels at `source` with
/// the options at `options` (UTF-8 `name NUL value NUL …`, names as JavaScript spells them), writing
/// the result over `target`: the same pointer to draw in place, another to keep the source (a page
/// redrawing its header each frame keeps the backdrop and changes only the rows that moved). Both
/// hold `width × height` pixels; on failure, or for an operation that changes the size (see
/// `bk_apply`), `target` is left alone.
@_optimize(size)  // like the registry's reading (`read`, `parse`, `effect(_:)`): once a call, so small costs nothing
@_cdecl("bk_run")
public func bkRun(
    _ nameBytes: UnsafePointer<UInt8>, _ nameLength: Int32, _ optionBytes: UnsafePointer<UInt8>, _ optionLength: Int32,
    _ source: UnsafeMutablePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32
) -> Int32 {
    guard let drawn = drawn(nameBytes, nameLength, optionBytes, optionLength, source, width, height) else { return 1 }
    guard drawn.width == Int(width) && drawn.height == Int(height) else {
        return fail("\(text(nameBytes, nameLength)) makes a \(drawn.width)×\(drawn.height) image: run it on an image, not a surface")
    }
    store(drawn, target)
    return 0
}

/// Runs the operation as `bk_run` does, into memory of its own: the result's size into `size[0]`,
/// `size[1]`, its pixels at the pointer returned (freed with `bk_free`), or nil with the message for
/// `bk_error`. For any operation, those that change the size (a resize) too.
@_optimize(size)
@_cdecl("bk_apply")
public func bkApply(
    _ nameBytes: UnsafePointer<UInt8>, _ nameLength: Int32, _ optionBytes: UnsafePointer<UInt8>, _ optionLength: Int32,
    _ source: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ size: UnsafeMutablePointer<Int32>
) -> UnsafeMutablePointer<UInt8>? {
    guard let drawn = drawn(nameBytes, nameLength, optionBytes, optionLength, source, width, height) else { return nil }
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: drawn.width * drawn.height * 4)
    store(drawn, out)
    size[0] = Int32(drawn.width)
    size[1] = Int32(drawn.height)
    return out
}

/// The most one call of `bk_apply` may hold (the image, the work and the result): a quarter of the
/// 4 GiB a 32-bit module can address, so that the module's own and the caller's copies still fit.
let moduleCallBytes = 1 << 30

/// The operation's result over the pixels at `source`, or nil with the message for `bk_error`.
@_optimize(size)
private func drawn(
    _ nameBytes: UnsafePointer<UInt8>, _ nameLength: Int32, _ optionBytes: UnsafePointer<UInt8>, _ optionLength: Int32,
    _ source: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32
) -> Bitmap? {
    let name = text(nameBytes, nameLength)
    guard let operation = BlurOperation.images.first(where: { $0.name.sameBytes(as: name) }), let run = operation.image else {
        _ = fail("no operation \(name)")
        return nil
    }
    let words = UnsafeBufferPointer(start: optionBytes, count: Int(optionLength)).split(separator: 0, omittingEmptySubsequences: false)
    var pairs: [(name: String, value: String)] = []
    var at = 0
    while at + 1 < words.count {
        pairs.append((String(decoding: words[at], as: UTF8.self), String(decoding: words[at + 1], as: UTF8.self)))
        at += 2
    }
    let effect: PreparedEffect, image: Bitmap, context: EffectContext
    do {
        let arguments = try operation.read(pairs, as: .key, in: .javascript)
        effect = try run.prepare(arguments)
        let scale = arguments[BlurOperation.scale] ?? 1
        guard let picture = bitmap(source, width, height, scale: scale) else {
            _ = fail("image: empty or too large")
            return nil
        }
        image = picture
        context = try effect.context(arguments, width: image.width, height: image.height).context
    } catch {
        _ = fail(error.description)
        return nil
    }
    // An operation that changes the size (a resize, or an effect resizing first): its output's size
    // from the plan alone, refused when larger than both the input and 16 M pixels before any
    // estimate is made (Int is 32 bits here: an estimate of a larger image would overflow and trap).
    if let measured = effect.measure?(image.width, image.height) {
        let (input, output) = (Double(image.width) * Double(image.height), Double(measured.width) * Double(measured.height))
        if output > max(input, Double(1 << 24)) {
            _ = fail(
                "\(name) makes a \(measured.width)×\(measured.height) image, more than one call of the module may hold (\(moduleCallBytes >> 20) MB at most)"
            )
            return nil
        }
    }
    // An operation that changes the size (a resize) says its images' sizes through its stages (a
    // crop's whole scaled image too): refused here, before any memory is taken, when no image may
    // be that large.
    for stage in effect.stages?(image.width, image.height, image.scale, context) ?? [] {
        guard (try? Bitmap.validate(width: stage.width, height: stage.height, scale: 1)) != nil else {
            _ = fail("\(name): the output of \(stage.width)×\(stage.height) pixels is larger than an image may be")
            return nil
        }
    }
    // What the call holds at once — the image, the stages' rows or the effect's working memory, the
    // result and its copy for the caller — refused before any of it is taken when past what one
    // call may hold (a failed grow of the memory would trap the whole module).
    let last = effect.stages?(image.width, image.height, image.scale, context).last
    let output = Double(last?.width ?? image.width) * Double(last?.height ?? image.height) * 4
    if output / 4 > max(Double(image.width) * Double(image.height), Double(1 << 24)) {
        _ = fail(
            "\(name) makes a \(last?.width ?? 0)×\(last?.height ?? 0) image, more than one call of the module may hold (\(moduleCallBytes >> 20) MB at most)"
        )
        return nil
    }
    let working = Double(effect.workingBytes(width: image.width, height: image.height, scale: image.scale, context: context))
    let needed = Double(image.width) * Double(image.height) * 4 + working + 2 * output
    if needed > Double(moduleCallBytes) {
        _ = fail("\(name) needs about \(Int(needed) >> 20) MB, more than one call of the module may hold (\(moduleCallBytes >> 20) MB)")
        return nil
    }
    // Checked arguments and no checkpoint: nothing is left to fail.
    guard let drawn = try? effect.draw(image, context) else {
        _ = fail("\(name) could not draw")
        return nil
    }
    return drawn
}

// The placeholders: in the whole module only (blurkit-core.wasm draws the blurs alone).
#if !BLURKIT_WASM_CORE

/// The ThumbHash of the image (at most 25 bytes into `hash`): its length, or 0 on failure.
@_cdecl("bk_thumbhash")
public func bkThumbHash(_ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ hash: UnsafeMutablePointer<UInt8>) -> Int32 {
    guard let image = bitmap(pixels, width, height, scale: 1) else { return Int32(fail("image: empty or too large") - 1) }
    let bytes = image.thumbHash()
    bytes.withUnsafeBufferPointer { hash.copyBytes(from: $0.baseAddress!, count: $0.count) }
    return Int32(bytes.count)
}

/// The BlurHash of the image with `x` × `y` components (at most 166 characters into `hash`): its
/// length, or 0 with the message for `bk_error`.
@_cdecl("bk_blurhash")
public func bkBlurHash(
    _ pixels: UnsafeMutablePointer<UInt8>, _ width: Int32, _ height: Int32, _ x: Int32, _ y: Int32, _ hash: UnsafeMutablePointer<UInt8>
) -> Int32 {
    guard let image = bitmap(pixels, width, height, scale: 1) else { return Int32(fail("image: empty or too large") - 1) }
    do {
        let text = try BlurHash.encode(width: image.width, height: image.height, rgba: image.straightRGBA, x: Int(x), y: Int(y))
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { hash.copyBytes(from: $0.baseAddress!, count: $0.count) }
        return Int32(bytes.count)
    } catch {
        return Int32(fail("blurHash: \(error.description)") - 1)
    }
}

/// The image a BlurHash stands for, `width` × `height` straight RGBA at the pointer returned (freed
/// with `bk_free`), or nil with the message for `bk_error`.
@_cdecl("bk_from_blurhash")
public func bkFromBlurHash(_ hash: UnsafePointer<UInt8>, _ length: Int32, _ width: Int32, _ height: Int32) -> UnsafeMutablePointer<UInt8>? {
    let text = String(decoding: UnsafeBufferPointer(start: hash, count: Int(length)), as: UTF8.self)
    guard width > 0, height > 0, Int(width) * Int(height) <= 4096 * 4096 else {
        _ = fail("blurHash: the image to draw must be 1…4096 px on each side, got \(width)×\(height)")
        return nil
    }
    let bytes: [UInt8]
    do { bytes = try BlurHash.decode(text, width: Int(width), height: Int(height)) } catch {
        _ = fail("blurHash: \(error.description)")
        return nil
    }
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    bytes.withUnsafeBufferPointer { out.copyBytes(from: $0.baseAddress!, count: $0.count) }
    return out
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
    bytes.withUnsafeBufferPointer { out.copyBytes(from: $0.baseAddress!, count: $0.count) }
    size[0] = Int32(image.width)
    size[1] = Int32(image.height)
    return out
}

#endif
