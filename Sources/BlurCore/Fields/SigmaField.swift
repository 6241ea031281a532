/// Where a spatially varying blur applies and how strongly: σ (pixels) as a function of the pixel's
/// position, over a region of the image. A generator is a value — a linear ramp at any angle
/// (``LinearRamp``), a union of feathered shapes (``AreaField``) — and one family of kernels
/// (``FieldBlurStage``, held to ``FieldBlur/reference(_:field:)``) draws every one of them.
///
/// The blur reads the region's pixels only, clamped at its edges; pixels outside it are left as
/// they are. A class-bound protocol, so that the WebAssembly module (Embedded Swift) takes any field too. Coordinates are pixels, a pixel's centre at `(x + 0.5, y + 0.5)`.
package protocol SigmaField: AnyObject, Sendable {
    /// The pixels the blur reads and writes.
    var region: PixelRect { get }
    /// The largest σ anywhere, pixels.
    var maximumSigma: Double { get }
    /// σ at the centre of each pixel of row `y`, columns `columns` (inside the region), into `out`.
    func sigmas(row y: Int, columns: Range<Int>, into out: UnsafeMutablePointer<Double>)
    /// Rectangles (inside the region) holding every pixel whose σ lies in `low…high` between them:
    /// they may hold more, never less; none when no pixel's does. Apart, they let a step be computed
    /// around each (one area of several) rather than over the rectangle around them all.
    func bounds(sigmaFrom low: Double, through high: Double) -> [PixelRect]
}

extension PixelRect {
    /// The rectangle grown by `by` pixels on every side, then clipped to `other`; nil when empty.
    func grown(by margin: Int, clippedTo other: PixelRect) -> PixelRect? {
        let x0 = max(other.x, x - margin), y0 = max(other.y, y - margin)
        let x1 = min(other.x + other.width, x + width + margin), y1 = min(other.y + other.height, y + height + margin)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    package func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the two share a pixel.
    func meets(_ other: PixelRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// The rows it covers.
    package var rows: Range<Int> { y..<(y + height) }
    /// The columns it covers.
    package var columns: Range<Int> { x..<(x + width) }
}

/// A progressive blur along any direction: σ = minimum + (maximum − minimum) × r, where
/// r = clamp((t − start) ÷ (stop − start), 0, 1) and t is the pixel centre's projection on the
/// direction towards the full end, 0 at the first corner of the region it meets and 1 at the last
/// (with `start` = `stop`, r steps from 0 to 1 there).
///
/// The angle names the way the blur fades, clockwise, as the direction words do: 0° is `down`
/// (full at the top, fading towards the bottom edge), 90° `right` (full at the right), 180° `up`,
/// 270° `left`.
package final class LinearRamp: SigmaField {
    package let region: PixelRect
    package let maximumSigma: Double
    let minimumSigma: Double
    let start: Double
    let stop: Double
    /// The unit vector towards the full end, and t's offset and scale: t = (p · u − lowest) × inverse.
    let ux: Double
    let uy: Double
    let lowest: Double
    let inverse: Double

    /// The ramp at `degrees` over `region`, σ from `minimum` to `maximum` pixels, t measured across
    /// `frame` (pixels; the region when nil) — the view's frame, of which the region is the part
    /// inside the image.
    package init(degrees: Double, start: Double, stop: Double, minimum: Double, maximum: Double, region: PixelRect, frame: Rect? = nil) {
        self.region = region
        maximumSigma = max(0, maximum)
        minimumSigma = min(max(0, minimum), maximumSigma)
        self.start = start
        self.stop = stop
        let (dx, dy) = LinearRamp.direction(degrees)
        (ux, uy) = (dx, dy)
        let box = frame ?? Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width), height: Double(region.height))
        let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)].map { $0.0 * dx + $0.1 * dy }
        lowest = corners.min()!
        let span = corners.max()! - lowest
        inverse = span > 0 ? 1 / span : 0
    }

    /// The unit vector towards the full end for `degrees` (0: up, 90: right, clockwise); exact at
    /// multiples of 90°, so that the direction words' angles give straight ramps.
    static func direction(_ degrees: Double) -> (x: Double, y: Double) {
        // Into 0…360 without the C library's fmod (the WebAssembly module has none): exact for whole degrees.
        var d = degrees - 360 * (degrees / 360).rounded(.down)
        if d >= 360 { d -= 360 }
        switch d {
        case 0: return (0, -1)
        case 90: return (1, 0)
        case 180: return (0, 1)
        case 270: return (-1, 0)
        default:
            let radians = d * Double.pi / 180
            return (Elementary.sin(radians), -Elementary.cos(radians))
        }
    }

    /// r for a projection t.
    func strength(_ t: Double) -> Double {
        guard stop > start else { return t >= stop ? 1 : 0 }
        return min(1, max(0, (t - start) / (stop - start)))
    }

    /// t at the centre of pixel `(x, y)`.
    func position(_ x: Int, _ y: Int) -> Double {
        ((Double(x) + 0.5) * ux + (Double(y) + 0.5) * uy - lowest) * inverse
    }

    /// σ for a strength r.
    func sigma(_ r: Double) -> Double { minimumSigma + (maximumSigma - minimumSigma) * r }

    package func sigmas(row y: Int, columns: Range<Int>, into out: UnsafeMutablePointer<Double>) {
        for x in columns { out[x - columns.lowerBound] = sigma(strength(position(x, y))) }
    }

    package func bounds(sigmaFrom low: Double, through high: Double) -> [PixelRect] {
        slab(sigmaFrom: low, through: high).map { [$0] } ?? []
    }

    /// The rectangle around the pixels whose σ lies in `low…high`: a slab across the region.
    private func slab(sigmaFrom low: Double, through high: Double) -> PixelRect? {
        guard maximumSigma > minimumSigma else { return low <= minimumSigma && minimumSigma <= high ? region : nil }
        // The strengths for low…high, then the projections they come from: a slab across the region.
        let r0 = (low - minimumSigma) / (maximumSigma - minimumSigma), r1 = (high - minimumSigma) / (maximumSigma - minimumSigma)
        guard r1 >= 0, r0 <= 1 else { return nil }
        let t0 = r0 <= 0 ? -Double.infinity : start + r0 * (stop - start)
        let t1 = r1 >= 1 ? Double.infinity : start + r1 * (stop - start)
        // The pixels whose centre's t lies in t0…t1 (a pixel's t spans ±½ pixel's worth beyond its centre).
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        let slack = (abs(ux) + abs(uy)) * inverse
        // Walk the region's rows: on each, the columns whose t lies in reach form one run.
        for y in region.rows {
            let run = columns(row: y, from: t0 - slack, to: t1 + slack)
            guard let run else { continue }
            x0 = min(x0, run.lowerBound)
            x1 = max(x1, run.upperBound)
            y0 = min(y0, y)
            y1 = max(y1, y + 1)
        }
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The columns of row `y` whose centre's t lies in `from…to`, nil when none.
    func columns(row y: Int, from: Double, to: Double) -> Range<Int>? {
        let a = region.x, b = region.x + region.width
        // t is linear in x: t(x) = base + x × step.
        let step = ux * inverse, base = position(0, y) - 0.5 * step
        func t(_ x: Int) -> Double { base + (Double(x) + 0.5) * step }
        if step == 0 {
            let v = t(a)
            return v >= from && v <= to ? a..<b : nil
        }
        // x where t = from and t = to, widened by a pixel for rounding, and held to the row's
        // columns before they become integers: an angle a hair off an axis (1e-300°) makes a step so
        // small that they lie far beyond any Int.
        let xa = (from - base) / step - 0.5, xb = (to - base) / step - 0.5
        let lo = xa.isNaN || xb.isNaN ? -Double.infinity : min(xa, xb), hi = xa.isNaN || xb.isNaN ? Double.infinity : max(xa, xb)
        let first = max(a, Int(min(max(lo, Double(a - 1)), Double(b + 1)).rounded(.down)) - 1)
        let last = min(b, Int(min(max(hi, Double(a - 1)), Double(b + 1)).rounded(.up)) + 2)
        return last > first ? first..<last : nil
    }
}
