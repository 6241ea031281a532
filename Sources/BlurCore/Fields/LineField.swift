/// A σ field constant along each line — each row for a vertical gradient, each column for a
/// horizontal one: BlurUIKit's gradient (the progressive blur's direction words, and so the scroll
/// edge's soft band) and the scroll edge's hard band (one σ throughout) as generators of the field
/// family.
///
/// The direction words are drawn by their own schedule (`VariableBlurStage`: each line blurred
/// across at its σ on a pyramid level, then down, transposed for left and right), which computes
/// this same field faster than the ladder (`FieldBlurStage`) would; the tests hold both to
/// `FieldBlur.reference` over this field. So the words keep their bytes.
package final class LineField: SigmaField {
    package let region: PixelRect
    package let maximumSigma: Double
    /// σ in pixels per line of `region`.
    private let lines: [Double]
    /// Rows are the lines (σ varies down the region), else columns.
    private let vertical: Bool

    /// The field over `region` with σ `lines[i]` on its line `i`: rows when `vertical`, else columns.
    package init(region: PixelRect, lines: [Double], vertical: Bool) {
        precondition(lines.count == (vertical ? region.height : region.width), "a σ for every line")
        self.region = region
        self.lines = lines
        self.vertical = vertical
        maximumSigma = lines.max() ?? 0
    }

    package func sigmas(row y: Int, columns: Range<Int>, into out: UnsafeMutablePointer<Double>) {
        if vertical {
            let sigma = lines[y - region.y]
            for i in 0..<columns.count { out[i] = sigma }
        } else {
            for (i, x) in columns.enumerated() { out[i] = lines[x - region.x] }
        }
    }

    /// The lines from the first to the last whose σ lies in `low…high`.
    package func bounds(sigmaFrom low: Double, through high: Double) -> [PixelRect] {
        guard let first = lines.firstIndex(where: { $0 >= low && $0 <= high }),
            let last = lines.lastIndex(where: { $0 >= low && $0 <= high })
        else { return [] }
        return vertical
            ? [PixelRect(x: region.x, y: region.y + first, width: region.width, height: last - first + 1)]
            : [PixelRect(x: region.x + first, y: region.y, width: last - first + 1, height: region.height)]
    }
}

extension VariableBlurEffect {
    /// The blur of a direction word over `frame` in a `width × height` image at `scale` as a σ field
    /// (BlurUIKit's gradient: each line's σ the mask's value at its centre times the maximum radius);
    /// nil when it blurs nothing or the effect is a ramp (whose field is ``rampField(width:height:scale:frame:appearance:)``).
    package func lineField(
        width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light, cache: GradientMaskCache = .shared
    ) -> LineField? {
        guard ramp == nil else { return nil }
        let lines = VariableBlurLines(effect: self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
        guard lines.blurs else { return nil }
        return LineField(region: lines.region, lines: lines.sigmas, vertical: lines.vertical)
    }
}

extension ScrollEdgeEffect {
    /// The band's blur along ``edge`` of `frame` in a `width × height` image at `scale` as a σ
    /// field: soft, BlurUIKit's gradient from the edge to the band's inner end; hard, the maximum
    /// radius throughout the band. Nil when the band covers no pixel or blurs nothing.
    package func field(width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light) -> LineField? {
        let band = band(in: frame)
        guard band.width > 0, band.height > 0 else { return nil }
        switch style {
        case .soft:
            return softBlur(background: tint.resolved(for: appearance)).lineField(
                width: width, height: height, scale: scale, frame: band, appearance: appearance)
        case .hard:
            guard let pixels = band.pixelRect(scale: scale, clippedTo: width, height) else { return nil }
            let sigma = GaussianBlur(clampingSigma: maximumBlurRadius * scale).sigma
            guard sigma > GaussianBlur.identityThreshold else { return nil }
            return LineField(region: pixels, lines: [Double](repeating: sigma, count: pixels.height), vertical: true)
        }
    }
}
