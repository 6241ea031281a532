import BlurCore

/// Draws a layer tree into a bitmap at one time: backdrop filters on what is beneath, then the
/// layer's content and sublayers — directly, or through an offscreen surface when the layer blurs
/// itself, is a translucent group, clips, is masked, or blends other than normally.
///
/// Everything is placed in canvas pixels. Offscreen surfaces cover only the layer's visible extent
/// (its frame, its sublayers unless clipped, its shape, and its blur's reach), and a layer whose
/// extent misses the surface it would draw into is not drawn at all.
struct Compositor {
    let time: Double
    let scale: Double
    let appearance: Appearance
    let threads: Int?
    /// Asked before each layer is drawn and inside its effects (between their bands and batches of
    /// rows, ``checkpoint``): true stops the frame with `RecordingError/cancelled`.
    var cancelled: @Sendable () -> Bool = { false }

    /// ``cancelled`` as the effects' checkpoint: throws `RecordingError/cancelled` once it says stop.
    var checkpoint: () throws -> Void {
        let cancelled = cancelled
        return { if cancelled() { throw RecordingError.cancelled(framesWritten: 0) } }
    }
    /// Layers drawn and layers skipped because they lay outside what was being drawn.
    final class Statistics {
        var drawn = 0, culled = 0
    }
    let statistics = Statistics()

    /// The most bytes the offscreen surfaces held at once may take (a group's surface is held
    /// while its sublayers draw theirs, so nesting adds up): default the memory budget; a
    /// recording that renders several frames at once gives each its share.
    var surfaceBudget = ImageLimits.memoryBudget
    /// Bytes of offscreen surfaces (and their masks and blur buffers) held now.
    final class SurfaceMemory {
        var held = 0
    }
    let surfaces = SurfaceMemory()

    /// A bitmap that holds the canvas pixels of `window`.
    struct Surface {
        var bitmap: Bitmap
        let window: PixelRect
    }

    /// - Throws: ``BitmapError/tooLarge(width:height:limit:)`` when an offscreen surface — the layer's
    ///   extent widened by its blur's reach — would pass the pixel limit.
    /// - Parameter backdrop: false draws the layer without its own backdrop filter (a mask layer,
    ///   which never applies one).
    func draw(_ layer: Layer, into surface: inout Surface, originX: Double, originY: Double, backdrop applyBackdrop: Bool = true) throws {
        try checkpoint()
        let f = layer.frameValue.value(at: time)
        let frame = Rect(x: originX + f.x, y: originY + f.y, width: f.width, height: f.height)
        let rawOpacity = layer.opacityValue.value(at: time)
        let opacity = rawOpacity.isNaN ? 0 : min(1, max(0, rawOpacity))
        guard opacity > 0, !frame.isEmpty, let extent = extent(of: layer, frame: frame),
            extent.intersection(surface.window) != nil
        else {
            statistics.culled += 1
            return
        }
        statistics.drawn += 1
        let corner = max(0, layer.cornerRadiusValue.value(at: time))

        if applyBackdrop, let filter = layer.backdropFilter {
            let local = surface.local(frame, scale: scale)
            let filtered = try backdrop(filter, of: layer, over: surface.bitmap, frame: local, corner: corner)
            surface.bitmap = opacity < 1 ? Compositor.mix(surface.bitmap, filtered, by: Float(opacity)) : filtered
        }

        // σ past the Gaussian's largest is drawn at the largest.
        let blur = min(GaussianBlur.sigmaSpec.range.upperBound, max(0, layer.blurRadiusValue.value(at: time)) * scale)
        let blurs = blur > GaussianBlur.identityThreshold
        // A group fades as one: sublayers, a mask, a reflection, or a background under content.
        let layered = layer.backgroundColorValue.value(at: time).alpha > 0 && !layer.content.isNone
        let group = !layer.sublayers.isEmpty || layer.mask != nil || layer.content.isReflection || layered
        let offscreen = blurs || layer.mask != nil || layer.blendMode != .normal || (opacity < 1 && group) || (layer.masksToBounds && group)
        if !offscreen {
            try drawContent(layer, into: &surface, frame: frame, corner: corner, opacity: opacity)
            for sublayer in layer.sublayers { try draw(sublayer, into: &surface, originX: frame.x, originY: frame.y) }
            return
        }
        // Offscreen: the subtree alone on transparency over its visible extent — widened by the blur's
        // reach so that what lies just outside still blurs in — clipped, masked, blurred, then blended.
        let reach = blurs && !layer.blurIsOpaque ? Int((GaussianBlur.reach(sigma: blur)).rounded(.up)) : 0
        let window: PixelRect
        if reach > 0 {
            // The pixels of the surface drawn into that the blur can reach, and the content within
            // reach of those (beyond it the surface is transparent, as the blur's edges take it): not
            // the content's whole reach, which at σ 2,000 px is 6,000 px of nothing on every side.
            guard let content = self.extent(of: layer, frame: frame, ownBlur: false),
                let output = content.insetBy(-reach).intersection(surface.window)
            else { return }
            let needed = content.intersection(output.insetBy(-reach)).map { output.union($0) } ?? output
            window = needed
        } else {
            let bounds = layer.blurIsOpaque ? frame.scaled(by: scale).outerPixelRect ?? extent : extent
            guard let clipped = bounds.intersection(surface.window) else { return }
            window = clipped
        }
        // The surface, a mask's, and a blur's output and work rows, counted before they exist.
        let bytes = window.width * window.height * 4 * (1 + (layer.mask != nil ? 1 : 0) + (blurs ? 2 : 0))
        try ImageLimits.checkBudget(
            surfaces.held + bytes, within: surfaceBudget, for: "the scene's offscreen surfaces (a layer drawn apart, and those inside it)")
        surfaces.held += bytes
        defer { surfaces.held -= bytes }
        var own = Surface(bitmap: try Bitmap(width: window.width, height: window.height, scale: scale), window: window)
        try drawContent(layer, into: &own, frame: frame, corner: corner, opacity: 1)
        for sublayer in layer.sublayers { try draw(sublayer, into: &own, originX: frame.x, originY: frame.y) }
        if layer.masksToBounds { own.clip(to: frame, corner: corner, scale: scale) }
        if let mask = layer.mask {
            var alpha = Surface(bitmap: try Bitmap(width: window.width, height: window.height, scale: scale), window: window)
            try draw(mask, into: &alpha, originX: frame.x, originY: frame.y, backdrop: false)
            own.bitmap.multiply(by: alpha.bitmap.alphaCoverage)
        }
        if blurs {
            own.bitmap = try GaussianBlur(clampingSigma: blur, edges: layer.blurIsOpaque ? .clamp : .transparent).apply(
                to: own.bitmap, threads: threads, checkpoint: checkpoint)
            if layer.masksToBounds || layer.blurIsOpaque { own.clip(to: frame, corner: corner, scale: scale) }
        }
        guard let target = window.intersection(surface.window) else { return }
        let piece = target == window ? own.bitmap : own.bitmap.copying(target.offset(by: -window.x, -window.y))
        surface.bitmap.composite(piece, at: target.offset(by: -surface.window.x, -surface.window.y), opacity: Float(opacity), mode: layer.blendMode)
    }

    /// Throws `BudgetError` naming `job` when `bytes` of working memory beside the surfaces held now
    /// would pass ``surfaceBudget``.
    func checkWorking(_ bytes: Int, for job: String) throws {
        let (total, overflow) = surfaces.held.addingReportingOverflow(bytes)
        try ImageLimits.checkBudget(overflow ? .max : total, within: surfaceBudget, for: job)
    }

    /// Canvas pixels the layer may touch, before clipping to any surface; nil when nothing.
    /// `ownBlur` false leaves out the reach of the layer's own blur (its content's pixels alone).
    func extent(of layer: Layer, frame: Rect, ownBlur: Bool = true) -> PixelRect? {
        var box = frame.scaled(by: scale)
        if case let .shape(path, _) = layer.content, !layer.masksToBounds, let bounds = path.controlBounds {
            box = box.union(Rect(x: frame.x + bounds.x, y: frame.y + bounds.y, width: bounds.width, height: bounds.height).scaled(by: scale))
        }
        if !layer.masksToBounds {
            for sublayer in layer.sublayers {
                let f = sublayer.frameValue.value(at: time)
                let sub = Rect(x: frame.x + f.x, y: frame.y + f.y, width: f.width, height: f.height)
                guard !sub.isEmpty, let e = extent(of: sublayer, frame: sub) else { continue }
                box = box.union(Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            }
        }
        let blur = max(0, layer.blurRadiusValue.value(at: time)) * scale
        if ownBlur, blur > GaussianBlur.identityThreshold, !layer.masksToBounds {
            let r = GaussianBlur.reach(sigma: min(GaussianBlur.sigmaSpec.range.upperBound, blur))
            box = Rect(x: box.x - r, y: box.y - r, width: box.width + 2 * r, height: box.height + 2 * r)
        }
        return box.outerPixelRect
    }

    /// The layer's backdrop effect, its parameters as animated at ``time``, over `canvas` in
    /// `frame`; its working memory counted first against the share the surfaces take theirs from
    /// (several frames rendered at once each hold their effects' buffers).
    private func backdrop(_ effect: BackdropEffect, of layer: Layer, over canvas: Bitmap, frame: Rect, corner: Double) throws -> Bitmap {
        let (w, h) = (canvas.width, canvas.height)
        let context = EffectContext(frame: frame, appearance: appearance, cornerRadius: corner, threads: threads, checkpoint: checkpoint)
        let animated = layer.effect(effect, at: time)
        try checkWorking(
            animated.prepared.workingBytes(width: w, height: h, scale: canvas.scale, context: context),
            for: "the scene's backdrop effect over \(w)×\(h)")
        return try animated.prepared.draw(canvas, context)
    }

    /// The layer's own content at `opacity`, clipped to its rounded bounds (shapes only when
    /// `masksToBounds`): the background, then one method per kind of content.
    private func drawContent(_ layer: Layer, into surface: inout Surface, frame: Rect, corner: Double, opacity: Double) throws {
        let content = Content(
            pixels: frame.scaled(by: scale).offsetBy(-Double(surface.window.x), -Double(surface.window.y)),
            all: PixelRect(x: 0, y: 0, width: surface.window.width, height: surface.window.height),
            corner: corner, opacity: opacity)
        let background = layer.backgroundColorValue.value(at: time)
        if background.alpha > 0, let region = content.region {
            surface.bitmap.composite(background, mode: .normal, in: region, coverage: content.coverage(region, scale: scale))
        }
        switch layer.content {
        case .none: return
        case let .activityIndicator(color): drawActivityIndicator(color, content, into: &surface.bitmap)
        case let .shape(path, fill): drawShape(path, fill: fill, clipped: layer.masksToBounds, content, into: &surface.bitmap)
        case let .reflection(image, effect):
            guard content.region != nil else { return }
            let local = surface.local(frame, scale: scale), (w, h) = (surface.bitmap.width, surface.bitmap.height)
            try checkWorking(
                effect.workingBytes(width: w, height: h, scale: scale, frame: local, appearance: appearance),
                for: "the scene's reflection over \(w)×\(h)")
            surface.bitmap = try effect.render(
                content: image, over: surface.bitmap, frame: local, appearance: appearance, threads: threads, checkpoint: checkpoint)
        case let .color(color):
            guard let region = content.region else { return }
            surface.bitmap.composite(color, mode: .normal, in: region, coverage: content.coverage(region, scale: scale))
        case let .bitmap(image, mode, gravity): try drawBitmap(image, mode: mode, gravity: gravity, content, into: &surface.bitmap)
        case let .linearGradient(colors, start, end):
            guard let region = content.region else { return }
            let p = content.pixels
            try surface.bitmap.fillLinearGradient(
                region, colors: colors, from: (p.x + start.x * p.width, p.y + start.y * p.height),
                along: ((end.x - start.x) * p.width, (end.y - start.y) * p.height), coverage: content.coverage(region, scale: scale))
        }
    }

    /// Where a layer's content goes on a surface.
    private struct Content {
        /// The layer's frame in the surface's pixels.
        let pixels: Rect
        /// The surface's whole pixel rectangle.
        let all: PixelRect
        let corner: Double, opacity: Double

        /// The frame's whole pixels on the surface; nil when none.
        var region: PixelRect? { pixels.pixelRect(scale: 1, clippedTo: all.width, all.height) }

        /// The rounded corners' coverage times the opacity over `region`; nil when both are 1.
        func coverage(_ region: PixelRect, scale: Double) -> [Float]? {
            var coverage: [Float]? = corner > 0 ? RoundedRect.coverage(of: pixels, radius: corner * scale, in: region) : nil
            if opacity < 1 { coverage = (coverage ?? [Float](repeating: 1, count: region.width * region.height)).map { $0 * Float(opacity) } }
            return coverage
        }
    }

    private func drawActivityIndicator(_ color: Color, _ content: Content, into bitmap: inout Bitmap) {
        let pixels = content.pixels, size = min(pixels.width, pixels.height)
        let centre = Point(pixels.x + pixels.width / 2, pixels.y + pixels.height / 2)
        guard size > 0, let region = pixels.outerPixelRect?.intersection(content.all) else { return }
        for (path, alpha) in ActivityIndicator.spokes(size: size, centre: centre, time: time) {
            var coverage = path.coverage(in: region) { $0 }
            let a = Float(alpha * content.opacity)
            for i in coverage.indices { coverage[i] *= a }
            bitmap.composite(color, mode: .normal, in: region, coverage: coverage)
        }
    }

    private func drawShape(_ path: Path, fill: Color, clipped: Bool, _ content: Content, into bitmap: inout Bitmap) {
        let pixels = content.pixels
        var bounds = pixels
        if !clipped, let b = path.controlBounds {
            bounds = bounds.union(Rect(x: pixels.x + b.x * scale, y: pixels.y + b.y * scale, width: b.width * scale, height: b.height * scale))
        }
        guard let region = bounds.outerPixelRect?.intersection(content.all) else { return }
        var coverage = path.coverage(in: region) { Point(pixels.x + $0.x * scale, pixels.y + $0.y * scale) }
        if clipped {
            let clip = RoundedRect.coverage(of: pixels, radius: content.corner * scale, in: region)
            for i in coverage.indices { coverage[i] *= clip[i] }
        }
        if content.opacity < 1 { for i in coverage.indices { coverage[i] *= Float(content.opacity) } }
        bitmap.composite(fill, mode: .normal, in: region, coverage: coverage)
    }

    private func drawBitmap(_ image: Bitmap, mode: ContentMode, gravity: ResizeGravity, _ content: Content, into bitmap: inout Bitmap) throws {
        guard let region = content.region else { return }
        let pixels = content.pixels, coverage = content.coverage(region, scale: scale)
        if let resized = try resized(image, mode: mode, gravity: gravity, into: pixels) {
            let x = Int(pixels.x), y = Int(pixels.y)
            let piece =
                region == PixelRect(x: x, y: y, width: resized.width, height: resized.height) ? resized : resized.copying(region.offset(by: -x, -y))
            bitmap.composite(piece, at: region, coverage: coverage)
            return
        }
        // An opaque image placed pixel for pixel over its whole frame, unclipped and unfaded, is a copy.
        if coverage == nil, image.width == Int(pixels.width), image.height == Int(pixels.height),
            pixels.x == pixels.x.rounded(), pixels.y == pixels.y.rounded(), image.isOpaque
        {
            let x = Int(pixels.x), y = Int(pixels.y)
            let piece = region == PixelRect(x: x, y: y, width: image.width, height: image.height) ? image : image.copying(region.offset(by: -x, -y))
            bitmap.replacePixels(at: region.x, region.y, with: piece)
            return
        }
        bitmap.composite(try image.placed(in: pixels, mode: mode, region: region), at: region, coverage: coverage)
    }

    /// `image` by `resize` into a frame on whole pixels, as `mode` fits it: when it is reduced on
    /// both axes (Lanczos-3 keeps the detail a bilinear placement loses), or when `gravity` is
    /// `attention` (the crop only a resize knows). Nil otherwise: placed bilinearly.
    private func resized(_ image: Bitmap, mode: ContentMode, gravity: ResizeGravity, into pixels: Rect) throws -> Bitmap? {
        let whole = [pixels.x, pixels.y, pixels.width, pixels.height].allSatisfy { $0 == $0.rounded() && abs($0) < 1e6 }
        guard whole, pixels.width >= 1, pixels.height >= 1 else { return nil }
        let reduces = pixels.width <= Double(image.width) && pixels.height <= Double(image.height)
        guard reduces || gravity == .attention else { return nil }
        let fit: ResizeFit
        switch mode {
        case .fill: fit = .cover
        case .fit: fit = .contain
        case .stretch: fit = .fill
        }
        let resize = Resize(width: Int(pixels.width), height: Int(pixels.height), fit: fit, gravity: gravity, dpr: 1, enlarge: true)
        let context = EffectContext(
            frame: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)), appearance: appearance, threads: threads,
            checkpoint: checkpoint)
        try checkWorking(
            ResizeOperation.estimatedBytes(width: image.width, height: image.height) + Int(pixels.width * pixels.height) * 4,
            for: "the scene's image resized to \(Int(pixels.width))×\(Int(pixels.height))")
        return try ResizeOperation.draw(resize, over: image, in: context)
    }

    /// `t·b + (1 − t)·a`, per byte.
    static func mix(_ a: Bitmap, _ b: Bitmap, by t: Float) -> Bitmap {
        var out = a
        out.composite(
            b, at: PixelRect(x: 0, y: 0, width: a.width, height: a.height),
            coverage: [Float](repeating: t, count: a.width * a.height), replacing: true)
        return out
    }
}

extension Layer.Content {
    var isReflection: Bool { if case .reflection = self { true } else { false } }
    var isNone: Bool { if case .none = self { true } else { false } }
}

extension Compositor.Surface {
    /// `frame` (canvas points) in this surface's bitmap's points.
    func local(_ frame: Rect, scale: Double) -> Rect {
        frame.offsetBy(-Double(window.x) / scale, -Double(window.y) / scale)
    }

    /// Everything outside the rounded `frame` (canvas points) made transparent.
    mutating func clip(to frame: Rect, corner: Double, scale: Double) {
        let pixels = frame.scaled(by: scale).offsetBy(-Double(window.x), -Double(window.y))
        bitmap.multiply(
            by: RoundedRect.coverage(
                of: pixels, radius: corner * scale,
                in: PixelRect(x: 0, y: 0, width: window.width, height: window.height)))
    }
}
