extension VariableBlurEffect {
    /// Bytes a render over a `width × height` backdrop needs besides the backdrop: the output, the
    /// blurred region, and up to about two pyramid levels' working images for every row.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow ? .max : pixels.partialValue * (4 + 4 + 24)
    }

    /// The backdrop with this effect drawn over `frame` (points, in the backdrop's coordinates, at the
    /// backdrop's scale): the region blurred progressively (edges clamped to the frame: full colour up
    /// to them), then the dimming gradient on top, its extension drawn where the backdrop has room.
    ///
    /// Per-pixel σ = maximum radius × mask value × scale, the mask sampled between its entries.
    public func render(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light,
        cache: GradientMaskCache = .shared, threads: Int? = nil
    ) -> Bitmap {
        guard let layout = layout(width: frame.width, height: frame.height), !frame.isEmpty else { return backdrop }
        let scale = backdrop.scale
        var out = backdrop

        if let region = frame.pixelRect(scale: scale, clippedTo: backdrop.width, backdrop.height), effectiveMaximumRadius > 0 {
            let mask = cache.mask(for: layout.blurMask)
            let vertical = direction.isVertical
            let lines = vertical ? region.height : region.width
            let first = vertical ? region.y : region.x, origin = vertical ? frame.y : frame.x
            let radius = effectiveMaximumRadius
            let sigmas = (0..<lines).map { line -> Double in
                let position = (Double(first + line) + 0.5) / scale - origin
                return min(GaussianBlur.sigmaSpec.range.upperBound, radius * mask.value(at: position) * scale)
            }
            let blurred = VariableGaussianBlur(sigmas: sigmas, vertical: vertical).apply(to: backdrop.copying(region), threads: threads)
            out.replacePixels(at: region.x, region.y, with: blurred)
        }

        let alpha = dimmingAlpha?.alpha(for: appearance) ?? 0
        if let tint = dimmingTintColor?.resolved(for: appearance), alpha > 0, tint.alpha > 0 {
            let dimFrame = Rect(
                x: frame.x + layout.dimmingFrame.x, y: frame.y + layout.dimmingFrame.y,
                width: layout.dimmingFrame.width, height: layout.dimmingFrame.height)
            if let region = dimFrame.pixelRect(scale: scale, clippedTo: backdrop.width, backdrop.height) {
                let mask = cache.mask(for: layout.dimmingMask)
                let vertical = direction.isVertical
                let lines = vertical ? region.height : region.width
                let first = vertical ? region.y : region.x, origin = vertical ? dimFrame.y : dimFrame.x
                let coverage = (0..<lines).map { line -> Float in
                    let position = (Double(first + line) + 0.5) / scale - origin
                    return Float(alpha * mask.value(at: position))
                }
                out.fill(region, with: tint, coverage: coverage, vertical: vertical)
            }
        }
        return out
    }
}
