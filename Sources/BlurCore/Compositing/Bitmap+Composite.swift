extension Bitmap {
    /// Draws `image` (the size of `region`) into `region`, each pixel weighted by `coverage` (row-major,
    /// 0…1; nil = 1). Source-over on premultiplied pixels, `out = s·c + d·(1 − sα·c)`; or, when
    /// `replacing`, a plain mix `out = s·c + d·(1 − c)`. The same operations for every channel.
    public mutating func composite(_ image: Bitmap, at region: PixelRect, coverage: [Float]? = nil, replacing: Bool = false) {
        precondition(image.width == region.width && image.height == region.height, "image and region differ in size")
        precondition(coverage == nil || coverage!.count == region.width * region.height, "one coverage per pixel")
        requireInside(region)
        guard region.width > 0, region.height > 0 else { return }
        image.withPixels { source in
            withMutablePixels { whole in
                let target = whole.region(region)
                for row in 0..<region.height {
                    let s = source.row(row), d = target.row(row)
                    for column in 0..<region.width {
                        let c = coverage?[row * region.width + column] ?? 1
                        if c <= 0 { continue }
                        let i = column * 4
                        // Full coverage of an opaque source pixel is a copy (the formula gives the same).
                        if c >= 1, s[i + 3] == 255 {
                            (d[i], d[i + 1], d[i + 2], d[i + 3]) = (s[i], s[i + 1], s[i + 2], 255)
                            continue
                        }
                        let keep = replacing ? 1 - c : 1 - Float(s[i + 3]) / 255 * c
                        for k in 0..<4 {
                            let v = Float(s[i + k]) * c + Float(d[i + k]) * keep + 8_388_608
                            d[i + k] = UInt8(truncatingIfNeeded: min(v, 8_388_863).bitPattern)
                        }
                    }
                }
            }
        }
    }

    /// Draws a same-sized `image` over this one at `opacity` with a blend mode (W3C formulas; see
    /// ``BlendMode``).
    public mutating func composite(_ image: Bitmap, opacity: Float, mode: BlendMode) {
        precondition(image.width == width && image.height == height, "images differ in size")
        composite(image, at: PixelRect(x: 0, y: 0, width: width, height: height), opacity: opacity, mode: mode)
    }

    /// Draws `image` (the size of `region`) into `region` at `opacity` (0…1) with a blend mode.
    public mutating func composite(_ image: Bitmap, at region: PixelRect, opacity: Float, mode: BlendMode) {
        precondition(image.width == region.width && image.height == region.height, "image and region differ in size")
        requireInside(region)
        if mode == .normal {
            if opacity >= 1 { return composite(image, at: region) }
            return composite(image, at: region, coverage: [Float](repeating: max(0, opacity), count: region.width * region.height))
        }
        guard region.width > 0, region.height > 0 else { return }
        image.withPixels { source in
            withMutablePixels { whole in
                let target = whole.region(region)
                for y in 0..<region.height {
                    let src = source.row(y), dst = target.row(y)
                    for x in 0..<region.width {
                        let i = x * 4, j = x * 4
                        if src[i + 3] == 0 { continue }
                        let s = SIMD4<Double>(Double(src[i]), Double(src[i + 1]), Double(src[i + 2]), Double(src[i + 3])) / 255 * Double(opacity)
                        let b = SIMD4<Double>(Double(dst[j]), Double(dst[j + 1]), Double(dst[j + 2]), Double(dst[j + 3])) / 255
                        let out = mode.composite(source: s, over: b)
                        let a = (min(1, max(0, out[3])) * 255).rounded()
                        dst[j + 3] = UInt8(a)
                        for c in 0..<3 { dst[j + c] = UInt8(min(a, max(0, (out[c] * 255).rounded()))) }
                    }
                }
            }
        }
    }

    /// Multiplies every pixel by `coverage` (row-major, one value 0…1 per pixel): a mask.
    public mutating func multiply(by coverage: [Float]) {
        precondition(coverage.count == width * height, "one coverage per pixel")
        let w = width, h = height
        withMutablePixels { pixels in
            for y in 0..<h {
                let row = pixels.row(y)
                for x in 0..<w {
                    let c = coverage[y * w + x]
                    if c >= 1 { continue }
                    for k in 0..<4 { row[x * 4 + k] = UInt8(Float(row[x * 4 + k]) * max(0, c) + 0.5) }
                }
            }
        }
    }

    /// This image with `frame` (points, at this image's scale) blurred by `radius` (σ, points) —
    /// edges clamped to the frame — and clipped to a rounded rectangle of `cornerRadius` points.
    public func blurring(_ frame: Rect, radius: Double, cornerRadius: Double = 0, threads: Int? = nil) -> Bitmap {
        try! blurring(frame, radius: radius, cornerRadius: cornerRadius, threads: threads, checkpoint: {})
    }

    /// ``blurring(_:radius:cornerRadius:threads:)`` that stops when `checkpoint` throws, and throws
    /// that (``GaussianBlur/apply(to:threads:checkpoint:)``).
    package func blurring(
        _ frame: Rect, radius: Double, cornerRadius: Double = 0, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        guard let region = frame.pixelRect(scale: scale, clippedTo: width, height), radius.isFinite, radius > 0 else { return self }
        let blurred = try GaussianBlur(clampingSigma: radius * scale).apply(to: copying(region), threads: threads, checkpoint: checkpoint)
        let shape = RoundedRect.Shape(
            Rect(x: frame.x * scale, y: frame.y * scale, width: frame.width * scale, height: frame.height * scale),
            radius: cornerRadius * scale)
        return drawingUpsampled(blurred, factor: 1, into: region) { shape.coverage(x: $0, y: $1) }
    }
}
