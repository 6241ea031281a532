/// A box's corner geometry made once for its four corners: what the fast path's corner pixels need
/// besides the sample and the finish, from the top-left corner's pixels alone.
///
/// When the box's centre lies on a pixel edge or centre in both axes (2·cx and 2·cy whole numbers,
/// as for any frame whose origin and size are whole pixels), the pixel mirrored across the centre
/// column or row has exactly the mirrored distance and normal (the arithmetic is exact on these
/// half-integers), so its shift is the mirrored shift and its finish is the same — except the rim's
/// lobe, which follows the light: the top-left and bottom-right corners share one finish, the
/// top-right and bottom-left the other. The bytes are those of the per-pixel path.
///
/// Covers the top-left corner's square, from the outer shadow's reach to a pixel past the optical
/// radius (the straight sides' runs begin there); pixels outside it are looked up as nil.
struct GlassCornerTable {
    /// What is drawn at a corner pixel.
    enum Kind: UInt8 {
        /// Nothing: beyond the outer shadow's reach.
        case none
        /// Outside the outline: the outer shadow alone, of opacity ``Entry/shadow``.
        case shadow
        /// Deeper than the band: the layer at the pixel's own centre over the interior's shadow.
        case interior
        /// The band: the layer at the shifted point, through a finish.
        case optics
    }

    /// One pixel of the top-left corner.
    struct Entry {
        let kind: Kind
        /// The outer shadow's opacity (``Kind/shadow``).
        let shadow: Float
        /// Where the layer is sampled from the pixel's centre, pixels (top-left; mirrored elsewhere).
        let shift: SIMD2<Double>
        /// The finish in the top-left and bottom-right corners, and in the other two.
        let finish: GlassFinish, crossed: GlassFinish
    }

    /// The first column and row of the top-left square, its size, and 2·cx − 1 and 2·cy − 1 (a column
    /// and its mirror add up to it).
    let x0: Int, y0: Int, width: Int, height: Int
    let mirrorX: Int, mirrorY: Int
    let entries: [Entry]

    /// The table of `box` under `shader` (`inset`: its interior depth; `reach`: its outer reach), or
    /// nil when the box's centre is not on a half-pixel in both axes, or when the corner's square
    /// holds more pixels than `canvasPixels` (the pixels the render draws: a box much larger than the
    /// image, whose corners lie mostly outside it, is drawn pixel by pixel instead, so the table
    /// never grows with the frame beyond the image).
    init?(_ box: GlassSurface.Box, shader: GlassShader, inset: Double, reach: Double, canvasPixels: Int) {
        let (twiceX, twiceY) = (2 * box.cx, 2 * box.cy)
        guard twiceX.rounded() == twiceX, twiceY.rounded() == twiceY, abs(twiceX) < 1e9, abs(twiceY) < 1e9 else { return nil }
        // The square's sides: from the reach to a few pixels past the optical radius.
        let across = reach + box.optical + 4
        guard across.isFinite, across * across <= Double(canvasPixels) else { return nil }
        (mirrorX, mirrorY) = (Int(twiceX) - 1, Int(twiceY) - 1)
        // Columns whose centre lies left of the centre column, from the reach to past the optical radius.
        x0 = Int((box.cx - box.hx - reach).rounded(.down)) - 1
        y0 = Int((box.cy - box.hy - reach).rounded(.down)) - 1
        let x1 = min(Int((box.cx - box.hx + box.optical).rounded(.up)) + 2, Int((box.cx - 0.5).rounded(.up)))
        let y1 = min(Int((box.cy - box.hy + box.optical).rounded(.up)) + 2, Int((box.cy - 0.5).rounded(.up)))
        (width, height) = (max(0, x1 - x0), max(0, y1 - y0))
        let none = GlassFinish(interiorShadow: 0)
        var entries: [Entry] = []
        entries.reserveCapacity(width * height)
        for j in 0..<height {
            let py = Double(y0 + j) + 0.5
            for i in 0..<width {
                let px = Double(x0 + i) + 0.5
                let sd = box.distance(px, py, radius: box.r)
                if sd >= reach {
                    entries.append(Entry(kind: .none, shadow: 0, shift: .zero, finish: none, crossed: none))
                } else if sd >= 0.5 {
                    let a = Float(shader.shadow(sd))
                    entries.append(Entry(kind: a > 0 ? .shadow : .none, shadow: a, shift: .zero, finish: none, crossed: none))
                } else if -sd >= inset {
                    entries.append(Entry(kind: .interior, shadow: 0, shift: .zero, finish: none, crossed: none))
                } else {
                    let n = box.gradient(px, py, radius: box.optical)
                    let o = shader.optics(sd, normal: n), mirrored = shader.optics(sd, normal: SIMD2(-n.x, n.y))
                    entries.append(Entry(kind: .optics, shadow: 0, shift: o.shift, finish: GlassFinish(o), crossed: GlassFinish(mirrored)))
                }
            }
        }
        self.entries = entries
    }

    /// The entry of pixel (x, y), whichever its corner, whether it is mirrored across the centre
    /// column and row; nil outside the four squares.
    @inline(__always)
    func entry(_ x: Int, _ y: Int) -> (Int, Bool, Bool)? {
        let flipX = x > mirrorX - x, flipY = y > mirrorY - y
        let i = (flipX ? mirrorX - x : x) - x0, j = (flipY ? mirrorY - y : y) - y0
        guard i >= 0, i < width, j >= 0, j < height else { return nil }
        return (j * width + i, flipX, flipY)
    }
}
