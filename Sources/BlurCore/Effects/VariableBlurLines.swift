/// What a progressive blur draws over a `width × height` backdrop, line by line — rows for the
/// vertical directions, columns for the horizontal ones: the region it blurs with each line's σ,
/// and the dimming gradient's region, colour and coverage per line.
struct VariableBlurLines {
    /// The pixels blurred (a 1 × 1 stand-in when nothing is: then `blurs` is false).
    let region: PixelRect
    /// σ in pixels per line of `region`: maximum radius × mask value × scale, the mask sampled at
    /// the line's centre (points from the frame's edge), at most the largest σ a blur takes.
    let sigmas: [Double]
    /// Whether any line is blurred (σ above ``GaussianBlur/identityThreshold``).
    let blurs: Bool
    /// The dimming gradient over the backdrop: where, what colour, and its coverage per line.
    let dimming: (region: PixelRect, color: Color, coverage: [Float])?
    /// The pyramid levels for `sigmas`, and per line the level it computes on and its residual σ
    /// (``VariableGaussianBlur/plan(_:lowest:)``).
    let plan: VariableGaussianBlur.Plan
    /// Rows (the vertical directions) or columns are the lines.
    let vertical: Bool

    init(effect: VariableBlurEffect, width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance, cache: GradientMaskCache) {
        let vertical = effect.direction.isVertical
        self.vertical = vertical
        let layout = effect.layout(width: frame.width, height: frame.height)
        /// Where line `line` of `region` sits along the gradient of `frame`, in points.
        func position(_ line: Int, of region: PixelRect, in frame: Rect) -> Double {
            vertical ? (Double(region.y + line) + 0.5) / scale - frame.y : (Double(region.x + line) + 0.5) / scale - frame.x
        }

        let blurRegion = frame.isEmpty ? nil : frame.pixelRect(scale: scale, clippedTo: width, height)
        region = blurRegion ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        let lines = vertical ? region.height : region.width
        var sigmas = [Double](repeating: 0, count: lines)
        if let layout, let blurRegion, effect.effectiveMaximumRadius > 0 {
            let mask = cache.mask(for: layout.blurMask), radius = effect.effectiveMaximumRadius
            sigmas = (0..<lines).map { line in
                min(GaussianBlur.sigmaSpec.range.upperBound, radius * mask.value(at: position(line, of: blurRegion, in: frame)) * scale)
            }
        }
        self.sigmas = sigmas
        blurs = layout != nil && blurRegion != nil && (sigmas.max() ?? 0) > GaussianBlur.identityThreshold
        plan = VariableGaussianBlur.plan(sigmas, lowest: VariableGaussianBlur.lowestRowLevel)

        let alpha = effect.dimmingAlpha?.alpha(for: appearance) ?? 0
        guard let layout, !frame.isEmpty, let tint = effect.dimmingTintColor?.resolved(for: appearance), alpha > 0, tint.alpha > 0 else {
            dimming = nil
            return
        }
        let dimFrame = Rect(
            x: frame.x + layout.dimmingFrame.x, y: frame.y + layout.dimmingFrame.y,
            width: layout.dimmingFrame.width, height: layout.dimmingFrame.height)
        guard let dimRegion = dimFrame.pixelRect(scale: scale, clippedTo: width, height) else {
            dimming = nil
            return
        }
        let mask = cache.mask(for: layout.dimmingMask)
        let coverage = (0..<(vertical ? dimRegion.height : dimRegion.width)).map { line -> Float in
            Float(alpha * mask.value(at: position(line, of: dimRegion, in: dimFrame)))
        }
        dimming = (dimRegion, tint, coverage)
    }

    /// The rows of the region (numbered from its first) among image rows `rows`.
    func regionRows(of rows: Range<Int>) -> Range<Int> {
        let top = max(rows.lowerBound, region.y), bottom = min(rows.upperBound, region.y + region.height)
        return (top - region.y)..<(max(top, bottom) - region.y)
    }

    /// Copies the pixels of image row `y` that the blur leaves as they are from `view` to
    /// `output`, `width` pixels a row: either side of the region on one of its rows, else all.
    func copyUnblurred(row y: Int, from view: PixelView, into output: MutablePixelView, width: Int) {
        guard blurs, y >= region.y, y < region.y + region.height else {
            return output.row(y).copyBytes(from: view.row(y), count: width * 4)
        }
        output.row(y).copyBytes(from: view.row(y), count: region.x * 4)
        let after = (region.x + region.width) * 4
        (output.row(y) + after).copyBytes(from: view.row(y) + after, count: width * 4 - after)
    }

    /// Draws the dimming gradient over image row `y` of `output`, where it crosses it: one
    /// coverage for the whole row when the lines are rows, one a column when they are columns.
    func dim(row y: Int, of output: MutablePixelView) {
        guard let dimming, y >= dimming.region.y, y < dimming.region.y + dimming.region.height else { return }
        let start = output.row(y) + dimming.region.x * 4
        if vertical {
            Bitmap.fillRow(start, pixels: dimming.region.width, with: dimming.color, coverage: dimming.coverage[y - dimming.region.y])
        } else {
            Bitmap.fillRow(start, pixels: dimming.region.width, with: dimming.color, coverages: dimming.coverage)
        }
    }
}
