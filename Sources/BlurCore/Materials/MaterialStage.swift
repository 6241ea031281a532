/// A material drawn over a backdrop as a stage of the streaming chain: the same steps and the same
/// bytes as ``Material/render(over:frame:appearance:threads:)``, a band at a time.
///
/// The region's rows are reduced by the plan's factor as they arrive (a source of small rows over
/// this stage's own input window, which keeps the rows still to be written), the small rows blurred
/// by ``GaussianStage`` and tinted as they come out, and each output row upsampled from the two small
/// rows around it and mixed over its input row. So the stage holds the input rows the small blur
/// reaches ahead (about 3σ + the factor), not the image.
final class MaterialStage: RowStage {
    let width: Int
    let height: Int
    private let plan: Material.Plan
    private let upsampling: UpsampledRows
    private let reduced: ReducedRows
    private let small: RowWindow
    /// The reduced image blurred (the rows and plans its Gaussian holds, known before it runs).
    private let blurred: any RowSource
    /// The reduced image's width, pixels.
    private let smallWidth: Int

    init(plan: Material.Plan, width: Int, height: Int, parts: Int?) {
        self.width = width
        self.height = height
        self.plan = plan
        let region = plan.region, f = plan.factor
        let (sw, sh) = ((region.width + f - 1) / f, (region.height + f - 1) / f)
        upsampling = UpsampledRows(smallWidth: sw, smallHeight: sh, factor: f, region: region)
        reduced = ReducedRows(region: region, factor: f, width: sw, height: sh)
        let blur = GaussianBlur(clampingSigma: plan.smallSigma)
        let blurred: any RowSource =
            blur.sigma > GaussianBlur.identityThreshold
            ? StagedSource(blur.stage(width: sw, height: sh), over: reduced, parts: parts) : reduced
        small = RowWindow(source: TintedRows(blurred, tint: plan.tint))
        self.blurred = blurred
        smallWidth = sw
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let region = plan.region
        reduced.input = input
        input.keepFrom = rows.lowerBound
        defer {
            input.keepFrom = nil
            reduced.input = nil
        }
        // The small rows this band's region rows read, first: reading them reads ahead.
        let top = max(rows.lowerBound, region.y), bottom = min(rows.upperBound, region.y + region.height)
        let inside = top..<max(top, bottom)
        let smallView: PixelView? =
            inside.isEmpty
            ? nil
            : try small.rows(upsampling.smallRows(inside.lowerBound - region.y).0..<(upsampling.smallRows(inside.upperBound - 1 - region.y).1 + 1))
        let view = try input.rows(rows)!
        let shape = plan.shape, w = width, upsampling = upsampling
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var scratch = upsampling.makeScratch()
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                upsampling.copyOutside(y, from: view.row(y), into: output.row(y), width: w)
                guard let smallView, inside.contains(y) else { continue }
                upsampling.row(
                    y - region.y, small: smallView, beneath: view.row(y) + region.x * 4, scratch: &scratch,
                    into: output.row(y) + region.x * 4
                ) { shape.coverage(x: $0, y: $1) }
            }
        }
    }

    /// The reduced image's Gaussian (its window and plans: at a radius of 500 pt, more than the
    /// rest together), the reduced rows a band reads (or what the window has held), and a row of sums.
    func heldBytes(bandRows: Int) -> Int {
        let rows = (bandRows / plan.factor + 4) * smallWidth * 4
        return blurred.heldBytes + max(small.heldBytes, rows) + plan.region.width * 16
    }

    /// The band, and the rows the small blur reads ahead of it: its reach in small rows times the factor.
    func inputBytes(bandRows: Int) -> Int {
        let reach = Int(GaussianBlur.reach(sigma: plan.smallSigma).rounded(.up)) + 2
        return (bandRows + (reach + 1) * plan.factor) * width * 4
    }
}

/// The region's rows reduced by a factor, as a source: each small row the block means of `factor`
/// rows, read from the material stage's input window (set while the stage produces a band).
final class ReducedRows: RowSource {
    let width: Int
    let height: Int
    private let region: PixelRect
    private let factor: Int
    var input: RowWindow?
    private var sums: [UInt32]

    init(region: PixelRect, factor: Int, width: Int, height: Int) {
        self.region = region
        self.factor = factor
        self.width = width
        self.height = height
        sums = [UInt32](repeating: 0, count: region.width * 4)
    }

    var heldBytes: Int { sums.count * 4 }

    func read(into rows: MutablePixelView) throws {
        let first = region.y + rows.firstRow * factor
        let last = min(region.y + region.height, region.y + rows.rows.upperBound * factor)
        let view = try input!.rows(first..<last)!
        sums.withUnsafeMutableBufferPointer { acc in
            for j in rows.rows {
                Bitmap.reduceRow(j, of: view, region: region, by: factor, sums: acc.baseAddress!, into: rows.row(j))
            }
        }
    }
}

/// A source's rows with the material's saturation and tint applied as they pass.
final class TintedRows: RowSource {
    private let upstream: any RowSource
    private let tint: Material.Tint
    init(_ upstream: any RowSource, tint: Material.Tint) {
        self.upstream = upstream
        self.tint = tint
    }
    var width: Int { upstream.width }
    var height: Int { upstream.height }
    var heldBytes: Int { upstream.heldBytes }

    func read(into rows: MutablePixelView) throws {
        try upstream.read(into: rows)
        for y in rows.rows { tint.row(rows.row(y), pixels: width) }
    }
}

extension Material {
    /// The material over `frame` (points) of a `width × height` backdrop at `scale`, as a stage of
    /// the streaming chain; nil when it draws nothing (the backdrop passes unchanged).
    package func stage(
        width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light, threads: Int? = nil
    ) -> (
        any RowStage
    )? {
        guard let plan = plan(width: width, height: height, scale: scale, frame: frame, appearance: appearance) else { return nil }
        return MaterialStage(plan: plan, width: width, height: height, parts: threads)
    }
}
