/// The progressive blur drawn over a backdrop as a stage of the streaming chain, for the vertical
/// directions (each row its own σ, ``VariableGaussianBlur``): what
/// ``VariableBlurEffect/render(over:frame:appearance:cache:threads:)`` runs over the whole image.
///
/// A row on a pyramid level is made from that level's blurred coarse rows (``PyramidLevel``), kept
/// with 7 fractional bits: one weighted sum of them down — the B-spline upsampling and the row's
/// residual blur folded into one kernel — then the residual blur across, then the upsampling across
/// to bytes (``FixedUpsampling``), all in 16-bit fixed point as the direct rows are. The rows below
/// the pyramid's range are direct rows with their own σ (``FixedPointRows``). Then the dimming
/// gradient is drawn over each row. The levels and the direct rows read the region where it lies
/// in this stage's input window, which keeps every row one of them has still to read.
final class VariableBlurStage: RowStage {
    let width: Int
    let height: Int
    /// What every row is made from, shared by the stages of this geometry.
    private let plan: VariableBlurPlan
    /// Per level: its coarse rows, nil when no row computes on it; and its blurred coarse rows
    /// with 7 fractional bits.
    private let levels: [PyramidLevel?]
    private let fixedRows: [WorkRows<UInt16>?]
    /// The region decimated once, for every level.
    private let decimated: DecimatedRows?

    init(plan: VariableBlurPlan) {
        self.plan = plan
        width = plan.width
        height = plan.height
        levels = plan.levels.map { $0.map { PyramidLevel(plan: $0, region: plan.lines.region) } }
        fixedRows = plan.levels.map { $0.map { WorkRows(length: $0.x.blurredCount * 4) } }
        decimated = plan.decimation.map { DecimatedRows(plan: $0, region: plan.lines.region) }
    }

    func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let (width, lines, direct, earliest, lastUse) = (width, plan.lines, plan.direct, plan.earliest, plan.lastUse)
        let (region, blurs, levelOf) = (lines.region, lines.blurs, lines.plan.levelOf)
        // Keep every sample row a level still has to read: a level reads on from where it stopped,
        // or from the first row its first user reaches.
        let line = rows.lowerBound - region.y
        let pendingSamples = levels.indices.compactMap { k -> Int? in
            guard let level = levels[k], let samples = plan.samples[k], let first = earliest[k], lastUse[k] >= line else { return nil }
            return max(first, samples.firstSampleRow(for: level.nextDecimatedRow))
        }
        decimated?.keepFrom = pendingSamples.min()
        // And every region row the decimation or a direct row still has to read, and the band's own.
        let decimating = pendingSamples.isEmpty ? nil : decimated.flatMap { d in plan.earliestInput.decimation.map { max($0, d.nextInputRow) } }
        let directing = plan.lastDirect >= line ? plan.earliestInput.direct.map { max($0, plan.directKeep[min(max(line, 0), region.height)]) } : nil
        let pending = [decimating, directing].compactMap { $0 }
        // Nothing pending: the band's own rows are all it reads (past the region, `region.height`
        // here kept every row below it, the rest of the image, until the end).
        input.keepFrom = min(rows.lowerBound, pending.min().map { region.y + $0 } ?? rows.lowerBound)
        defer { input.keepFrom = nil }
        let inside = lines.regionRows(of: rows)

        // Each level's blurred coarse rows for the band's rows on it, with 7 fractional bits: where
        // they start, and which.
        var made: [(base: SharedPointer<UInt16>, first: Int)?] = []
        for (k, level) in levels.enumerated() {
            guard blurs, let level, let first = inside.first(where: { levelOf[$0] == k }),
                let last = inside.last(where: { levelOf[$0] == k })
            else {
                made.append(nil)
                continue
            }
            // From the first row's taps untrimmed, so that requests never go back up.
            let upsample = level.plan.y.upsample
            let wanted = upsample.starts[first]..<(upsample.starts[last] + upsample.width + 2 * level.margin)
            try level.ensure(wanted, from: plan.samples[k]!, of: decimated!, input: input, parts: parts)
            let fixed = fixedRows[k]!, rowLanes = level.plan.x.blurredCount * 4
            try fixed.ensure(wanted) { new, target in
                for j in new { Kernels.fixedLine(level.row(j), count: rowLanes, into: target + (j - new.lowerBound) * rowLanes) }
            }
            made.append((SharedPointer(fixed.row(wanted.lowerBound)), wanted.lowerBound))
        }
        let directLines = inside.filter { levelOf[$0] < 0 }
        // One last request for the band's rows and those the direct rows reach: a later request may
        // move the window's rows, so both views come from this one.
        var wanted = rows, directReach: Range<Int>?
        if blurs, let first = directLines.first, let last = directLines.last {
            let reach = direct.inputRows(for: first..<(last + 1))
            directReach = reach
            wanted = min(rows.lowerBound, region.y + reach.lowerBound)..<max(rows.upperBound, region.y + reach.upperBound)
        }
        let view = try input.rows(wanted)!
        let directView = directReach.map { _ in view.columns(region.x, width: region.width, top: region.y) }

        // The rows, split among the threads: each made the same way whichever thread makes it.
        let directPlan = direct, down = plan.down, directRows = directView, across = plan.across, upsampling = plan.upsampling
        let shapes = levels.map { $0.map { (rowLanes: $0.plan.x.blurredCount * 4, margin: $0.margin) } }
        // A coarse line and its residual blur, each with room for the upsampling's last group.
        let longest =
            zip(shapes, upsampling).map { shape, up in
                guard let shape, let up else { return 0 }
                return max(shape.rowLanes, (up.readablePixels + shape.margin) * 4)
            }.max() ?? 0
        let (taps, reach) = plan.longestKernels
        let levelRows = made
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            var coarse = [UInt16](repeating: 0, count: longest), inner = [UInt16](repeating: 0, count: longest)
            var sources: [UnsafePointer<UInt16>] = [], splat: [SIMD16<UInt16>] = [], residual: [SIMD16<UInt16>] = []
            sources.reserveCapacity(taps)
            splat.reserveCapacity(taps)
            residual.reserveCapacity(reach)
            var scratch = directPlan.makeScratch()
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                let line = y - region.y
                // The pixels the blur leaves as they are; the region's from its level.
                lines.copyUnblurred(row: y, from: view, into: output, width: width)
                guard blurs, inside.contains(line) else {
                    lines.dim(row: y, of: output)
                    continue
                }
                let into = output.row(y) + region.x * 4
                let k = levelOf[line]
                guard k >= 0, let shape = shapes[k], let coarseRows = levelRows[k], let up = upsampling[k] else {
                    directPlan.row(line, source: directRows!, scratch: &scratch, into: into)
                    lines.dim(row: y, of: output)
                    continue
                }
                let (start, weights) = down[line], kernel = across[line]
                sources.removeAll(keepingCapacity: true)
                splat.removeAll(keepingCapacity: true)
                residual.removeAll(keepingCapacity: true)
                let first = coarseRows.base.base + (start - coarseRows.first) * shape.rowLanes
                for (t, weight) in weights.enumerated() {
                    let row: UnsafeMutablePointer<UInt16> = first + t * shape.rowLanes
                    sources.append(UnsafePointer(row))
                    splat.append(SIMD16(repeating: weight))
                }
                for weight in kernel { residual.append(SIMD16(repeating: weight)) }
                coarse.withUnsafeMutableBufferPointer { coarse in
                    inner.withUnsafeMutableBufferPointer { inner in
                        sources.withUnsafeBufferPointer { sources in
                            splat.withUnsafeBufferPointer { splat in
                                Kernels.fixedBlend(sources, weights: splat, count: shape.rowLanes, into: .line(coarse.baseAddress!))
                            }
                        }
                        let centre = UnsafePointer(coarse.baseAddress! + shape.margin * 4)
                        guard !kernel.isEmpty else { return up.apply(centre, into: into) }
                        residual.withUnsafeBufferPointer { residual in
                            Kernels.fixedHorizontal(
                                centre, weights: residual, count: shape.rowLanes - shape.margin * 8, into: .line(inner.baseAddress!))
                        }
                        up.apply(inner.baseAddress!, into: into)
                    }
                }
                lines.dim(row: y, of: output)
            }
        }
    }

    func heldBytes(bandRows: Int) -> Int {
        zip(levels, fixedRows).reduce(0) { total, pair in
            guard let level = pair.0, let fixed = pair.1 else { return total }
            // The coarse rows one band reaches (floats across and blurred, and the blurred ones with
            // 7 fractional bits), or what the windows hold, if more.
            let coarse = bandRows / level.plan.factor + 4 + 2 * (level.margin + level.plan.coarseRadius)
            return total + max(level.heldBytes + fixed.heldBytes, coarse * level.plan.x.blurredCount * 40)
        } + decimationBytes(bandRows: bandRows)
    }

    /// The decimation's sample rows one band reaches through the level that reaches furthest,
    /// twice over (the levels' windows lie at different heights), or what it holds, if more.
    private func decimationBytes(bandRows: Int) -> Int {
        guard let decimated else { return 0 }
        let reach =
            zip(levels, plan.samples).map { level, samples -> Int in
                guard let level, let samples else { return 0 }
                let coarse = bandRows / level.plan.factor + 4 + 2 * (level.margin + level.plan.coarseRadius)
                return samples.sampleRows(for: 0..<min(coarse, level.plan.y.decimatedCount)).count
            }.max() ?? 0
        return max(decimated.heldBytes, 2 * reach * decimated.length * 4)
    }

    func inputBytes(bandRows: Int) -> Int {
        let reach = decimated?.inputBytes ?? 0
        let region = plan.lines.region
        let direct = plan.direct.inputRows(for: 0..<min(bandRows, region.height)).count * region.width * 4
        // Three readers keep rows: the decimation, the direct rows and the band's own.
        return max(reach, direct, bandRows * width * 4) * 3
    }
}

extension VariableBlurEffect {
    /// This effect over `frame` (points) of a `width × height` backdrop at `scale`, as a stage of
    /// the streaming chain: rows for the vertical directions, the image turned a quarter for the
    /// horizontal ones.
    package func stage(
        width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance = .light, cache: GradientMaskCache = .shared
    ) -> any RowStage {
        if ramp != nil {
            let (field, dimming) =
                rampField(width: width, height: height, scale: scale, frame: frame, appearance: appearance)
                ?? (LinearRamp(degrees: 0, start: 0, stop: 1, minimum: 0, maximum: 0, region: PixelRect(x: 0, y: 0, width: 1, height: 1)), nil)
            return FieldBlurStage(field: field, width: width, height: height, dimming: dimming)
        }
        guard direction.isVertical else {
            return VariableBlurTransposedStage(
                effect: self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache)
        }
        return VariableBlurStage(
            plan: .cached(self, width: width, height: height, scale: scale, frame: frame, appearance: appearance, cache: cache))
    }
}
