import BlurCore

/// Draws a layer tree into a bitmap at one time: backdrop filters on what is beneath, then the
/// layer's content and sublayers — directly, or through an offscreen image when the layer blurs
/// itself, is translucent, clips, or blends other than normally.
struct Compositor {
    let time: Double
    let scale: Double
    let threads: Int?

    func draw(_ layer: Layer, into canvas: inout Bitmap, originX: Double, originY: Double) {
        let f = layer.frameValue.value(at: time)
        let frame = Rect(x: originX + f.x, y: originY + f.y, width: f.width, height: f.height)
        let opacity = min(1, max(0, layer.opacityValue.value(at: time).isNaN ? 0 : layer.opacityValue.value(at: time)))
        guard opacity > 0, !frame.isEmpty else { return }
        let corner = max(0, layer.cornerRadiusValue.value(at: time))

        if let filter = layer.backdropFilter {
            let filtered = backdrop(filter, of: layer, over: canvas, frame: frame, corner: corner)
            canvas = opacity < 1 ? Compositor.mix(canvas, filtered, by: Float(opacity)) : filtered
        }

        let blur = max(0, layer.blurRadiusValue.value(at: time))
        let offscreen = blur * scale > GaussianBlur.identityThreshold || opacity < 1 || layer.masksToBounds || layer.blendMode != .normal
        if !offscreen {
            drawContent(layer, into: &canvas, frame: frame, corner: corner)
            for sublayer in layer.sublayers { draw(sublayer, into: &canvas, originX: frame.x, originY: frame.y) }
            return
        }
        // Offscreen: the layer's subtree alone on transparency, over the whole canvas (so that a blur
        // can spread past the frame), clipped, blurred, faded, then blended down.
        var own = try! Bitmap(width: canvas.width, height: canvas.height, scale: scale)
        drawContent(layer, into: &own, frame: frame, corner: corner)
        for sublayer in layer.sublayers { draw(sublayer, into: &own, originX: frame.x, originY: frame.y) }
        if layer.masksToBounds { own = Compositor.clip(own, to: frame, corner: corner, scale: scale) }
        if blur * scale > GaussianBlur.identityThreshold {
            own = try! GaussianBlur(sigma: min(2000, blur * scale), edges: .transparent).apply(to: own, threads: threads)
            if layer.masksToBounds { own = Compositor.clip(own, to: frame, corner: corner, scale: scale) }
        }
        canvas.composite(own, opacity: Float(opacity), mode: layer.blendMode)
    }

    private func backdrop(_ filter: Layer.BackdropFilter, of layer: Layer, over canvas: Bitmap, frame: Rect, corner: Double) -> Bitmap {
        switch filter {
        case let .blur(radius):
            let r = layer.backdropRadiusValue?.value(at: time) ?? radius
            return canvas.blurring(frame, radius: r, cornerRadius: corner, threads: threads)
        case var .material(material):
            material.blurEffectRadius = layer.backdropRadiusValue?.value(at: time) ?? material.blurEffectRadius
            material.dimmingAlpha = layer.dimmingAlphaValue.value(at: time)
            material.cornerRadius = corner
            return material.render(over: canvas, frame: frame, threads: threads)
        case let .progressive(effect):
            return effect.render(over: canvas, frame: frame, threads: threads)
        }
    }

    private func drawContent(_ layer: Layer, into canvas: inout Bitmap, frame: Rect, corner: Double) {
        let pixels = Rect(x: frame.x * scale, y: frame.y * scale, width: frame.width * scale, height: frame.height * scale)
        guard let region = frame.pixelRect(scale: scale, clippedTo: canvas.width, canvas.height) else { return }
        let coverage = RoundedRect.coverage(of: pixels, radius: corner * scale, in: region)
        switch layer.content {
        case .none: return
        case let .color(color):
            canvas.composite(color, mode: .normal, in: region, coverage: coverage)
        case let .bitmap(image, mode):
            let placed = Compositor.place(image, in: pixels, mode: mode, region: region)
            canvas.composite(placed, at: region, coverage: coverage)
        case let .linearGradient(from, to, start, end):
            var strip = try! Bitmap(width: region.width, height: region.height)
            let dx = (end.x - start.x) * pixels.width, dy = (end.y - start.y) * pixels.height
            let length = dx * dx + dy * dy
            for y in 0..<region.height {
                for x in 0..<region.width {
                    let px = Double(region.x + x) + 0.5 - (pixels.x + start.x * pixels.width)
                    let py = Double(region.y + y) + 0.5 - (pixels.y + start.y * pixels.height)
                    let t = length > 0 ? min(1, max(0, (px * dx + py * dy) / length)) : 0
                    let c = from.interpolated(to: to, at: t)
                    strip[x, y] = RGBA8(r: UInt8((c.red * c.alpha * 255).rounded()), g: UInt8((c.green * c.alpha * 255).rounded()),
                                        b: UInt8((c.blue * c.alpha * 255).rounded()), a: UInt8((c.alpha * 255).rounded()))
                }
            }
            canvas.composite(strip, at: region, coverage: coverage)
        }
    }

    /// `image` scaled into `rect` (pixels) by `mode`, as the pixels of `region`.
    static func place(_ image: Bitmap, in rect: Rect, mode: Layer.ContentMode, region: PixelRect) -> Bitmap {
        let sx = rect.width / Double(image.width), sy = rect.height / Double(image.height)
        let (fx, fy): (Double, Double)
        switch mode {
        case .stretch: (fx, fy) = (sx, sy)
        case .fill: (fx, fy) = (max(sx, sy), max(sx, sy))
        case .fit: (fx, fy) = (min(sx, sy), min(sx, sy))
        }
        let ox = rect.x + (rect.width - Double(image.width) * fx) / 2, oy = rect.y + (rect.height - Double(image.height) * fy) / 2
        var out = try! Bitmap(width: region.width, height: region.height)
        for y in 0..<region.height {
            let v = (Double(region.y + y) + 0.5 - oy) / fy - 0.5
            for x in 0..<region.width {
                let u = (Double(region.x + x) + 0.5 - ox) / fx - 0.5
                guard u > -0.5, v > -0.5, u < Double(image.width) - 0.5, v < Double(image.height) - 0.5 else { continue }
                out[x, y] = Compositor.bilinear(image, u, v)
            }
        }
        return out
    }

    static func bilinear(_ image: Bitmap, _ u: Double, _ v: Double) -> RGBA8 {
        let x = min(Double(image.width - 1), max(0, u)), y = min(Double(image.height - 1), max(0, v))
        let x0 = Int(x), y0 = Int(y), x1 = min(image.width - 1, x0 + 1), y1 = min(image.height - 1, y0 + 1)
        let tx = x - Double(x0), ty = y - Double(y0)
        func channel(_ p: (RGBA8) -> UInt8) -> UInt8 {
            let top = Double(p(image[x0, y0])) * (1 - tx) + Double(p(image[x1, y0])) * tx
            let bottom = Double(p(image[x0, y1])) * (1 - tx) + Double(p(image[x1, y1])) * tx
            return UInt8((top * (1 - ty) + bottom * ty).rounded())
        }
        return RGBA8(r: channel(\.r), g: channel(\.g), b: channel(\.b), a: channel(\.a))
    }

    /// `image` with everything outside the rounded `frame` (points) made transparent.
    static func clip(_ image: Bitmap, to frame: Rect, corner: Double, scale: Double) -> Bitmap {
        let all = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let coverage = RoundedRect.coverage(
            of: Rect(x: frame.x * scale, y: frame.y * scale, width: frame.width * scale, height: frame.height * scale),
            radius: corner * scale, in: all)
        let clear = try! Bitmap(width: image.width, height: image.height, scale: image.scale)
        var out = clear
        out.composite(image, at: all, coverage: coverage)
        return out
    }

    /// `t·b + (1 − t)·a`, per byte.
    static func mix(_ a: Bitmap, _ b: Bitmap, by t: Float) -> Bitmap {
        var out = a
        out.composite(b, at: PixelRect(x: 0, y: 0, width: a.width, height: a.height),
                      coverage: [Float](repeating: t, count: a.width * a.height), replacing: true)
        return out
    }
}
