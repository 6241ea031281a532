/// Lanczos-3 resampling as a stage of the chain, on premultiplied pixels: each input row the output
/// reaches is read once as floats and kept while later output rows reach it; each output row is the
/// weighted sum of those rows down (the taps of the rows), over the source columns the canvas
/// reads, then resampled across (the taps of the columns), rounded, colour never above alpha. Down
/// first: the sum across then runs on output rows, not on the more numerous input rows. The output
/// is the plan's canvas: the part of the scaled image it shows, transparent where it shows none (a
/// `contain` margin). Every output pixel is computed in the same order whatever the threads and
/// bands, so the bytes never depend on them.
package final class LanczosStage: RowStage {
    package let width: Int
    package let height: Int
    private let sourceWidth: Int, sourceHeight: Int
    private let plan: ResizePlan

    /// The taps of both axes, the source columns the canvas reads and the rows held as floats:
    /// made at the first band, so that a plan the pipeline refuses (an output past the pixel limit,
    /// a stage over the budget) allocates nothing.
    private struct Made {
        let columns: LanczosTaps, rows: LanczosTaps
        /// The source columns the canvas reads.
        let span: Range<Int>
        let converted: FloatRows
    }
    private var made: Made?
    private var taps: Made {
        if let made { return made }
        let columns = LanczosTaps(outputs: plan.width, offset: plan.x, scaled: plan.scaledWidth, source: sourceWidth)
        let rows = LanczosTaps(outputs: plan.height, offset: plan.y, scaled: plan.scaledHeight, source: sourceHeight)
        let span = columns.sources(0..<plan.width)
        let result = Made(columns: columns, rows: rows, span: span, converted: FloatRows(length: max(1, span.count) * 4, count: sourceHeight))
        made = result
        return result
    }

    /// From `sourceWidth × sourceHeight` by `plan` (its scaled size is the whole source's).
    package init(sourceWidth: Int, sourceHeight: Int, plan: ResizePlan) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.plan = plan
        width = plan.width
        height = plan.height
    }

    /// Output rows made at a time within a band: the input rows held (as bytes in the window and
    /// as floats here) are those of this many output rows, not of a whole band (at a reduction of 5
    /// over 6000 columns, a band of 64 rows held 32 MB of floats).
    static let rowsAtATime = 8

    package func produce(_ band: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        var start = band.lowerBound
        while start < band.upperBound {
            let part = start..<min(band.upperBound, start + LanczosStage.rowsAtATime)
            try produceRows(part, from: input, into: output, parts: parts)
            start = part.upperBound
        }
    }

    private func produceRows(_ band: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let taps = taps, rows = taps.rows, columns = taps.columns, span = taps.span, converted = taps.converted
        let needed = rows.sources(band)
        let target = SharedPointer(output.row(band.lowerBound)), stride = output.bytesPerRow, length = width * 4
        guard !needed.isEmpty, !span.isEmpty, let view = try input.rows(needed) else {
            for i in 0..<band.count { (target.base + i * stride).initialize(repeating: 0, count: length) }
            return
        }
        let source = SharedPointer(UnsafeMutablePointer(mutating: view.row(needed.lowerBound))), sourceStride = view.bytesPerRow
        let lanes = span.count * 4, skipColumns = span.lowerBound * 4
        try converted.ensure(needed) { new, made in
            let made = SharedPointer(made), skip = new.lowerBound - needed.lowerBound
            Parallel.forEachBand(count: new.count, parts: parts) { part in
                for i in part {
                    let row = source.base + (skip + i) * sourceStride + skipColumns, into = made.base + i * lanes
                    for j in 0..<lanes { into[j] = Float(row[j]) }
                }
            }
        }
        let held = SharedPointer(converted.row(needed.lowerBound)), first = needed.lowerBound
        let offset = span.lowerBound
        Parallel.forEachBand(count: band.count, parts: parts) { part in
            let sum = UnsafeMutablePointer<Float>.allocate(capacity: lanes)
            defer { sum.deallocate() }
            for i in part {
                let y = band.lowerBound + i, out = target.base + i * stride
                guard rows.count[y] > 0 else {
                    out.initialize(repeating: 0, count: length)
                    continue
                }
                LanczosStage.down(held.base, first: first, lanes: lanes, taps: rows, row: y, into: sum)
                LanczosStage.across(sum, offset: offset, taps: columns, into: out)
            }
        }
    }

    /// The weighted sum down of the rows held (the first is source row `first`) for output row `y`:
    /// 32 floats at a time, every tap added into registers before they are stored (each float's
    /// sum in the taps' order, as the reference's).
    private static func down(
        _ held: UnsafeMutablePointer<Float>, first: Int, lanes: Int, taps: LanczosTaps, row y: Int, into sum: UnsafeMutablePointer<Float>
    ) {
        let n = taps.count[y], base = UnsafeRawPointer(held + (taps.start[y] - first) * lanes), rowBytes = lanes * 4
        taps.weights.withUnsafeBufferPointer { weights in
            let w = weights.baseAddress! + y * taps.stride, s = UnsafeMutableRawPointer(sum)
            var at = 0
            while at + 128 <= rowBytes {
                let w0 = SIMD8<Float>(repeating: w[0])
                var a0 = base.loadUnaligned(fromByteOffset: at, as: SIMD8<Float>.self) * w0
                var a1 = base.loadUnaligned(fromByteOffset: at + 32, as: SIMD8<Float>.self) * w0
                var a2 = base.loadUnaligned(fromByteOffset: at + 64, as: SIMD8<Float>.self) * w0
                var a3 = base.loadUnaligned(fromByteOffset: at + 96, as: SIMD8<Float>.self) * w0
                var r = base + at
                for k in 1..<max(1, n) {
                    r += rowBytes
                    let wk = SIMD8<Float>(repeating: w[k])
                    a0 = a0 + r.loadUnaligned(as: SIMD8<Float>.self) * wk
                    a1 = a1 + r.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self) * wk
                    a2 = a2 + r.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self) * wk
                    a3 = a3 + r.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self) * wk
                }
                s.storeBytes(of: a0, toByteOffset: at, as: SIMD8<Float>.self)
                s.storeBytes(of: a1, toByteOffset: at + 32, as: SIMD8<Float>.self)
                s.storeBytes(of: a2, toByteOffset: at + 64, as: SIMD8<Float>.self)
                s.storeBytes(of: a3, toByteOffset: at + 96, as: SIMD8<Float>.self)
                at += 128
            }
            while at < rowBytes {
                let i = at / 4
                var a = held[(taps.start[y] - first) * lanes + i] * w[0]
                for k in 1..<max(1, n) { a = a + held[(taps.start[y] - first + k) * lanes + i] * w[k] }
                sum[i] = a
                at += 4
            }
        }
    }

    /// A summed row (its first pixel source column `offset`) resampled across into output bytes:
    /// rounded half up (clamped to 0…255.5, then truncated), colour never above alpha.
    private static func across(_ sum: UnsafeMutablePointer<Float>, offset: Int, taps: LanczosTaps, into out: UnsafeMutablePointer<UInt8>) {
        taps.weights.withUnsafeBufferPointer { weights in
            for x in 0..<taps.start.count {
                let n = taps.count[x]
                var acc = SIMD4<Float>.zero
                if n > 0 {
                    let w = weights.baseAddress! + x * taps.stride, p = UnsafeRawPointer(sum + (taps.start[x] - offset) * 4)
                    for k in 0..<n { acc += p.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self) * w[k] }
                }
                let v = (acc + 0.5).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
                let alpha = Int32(v[3])
                out[x * 4] = UInt8(truncatingIfNeeded: min(Int32(v[0]), alpha))
                out[x * 4 + 1] = UInt8(truncatingIfNeeded: min(Int32(v[1]), alpha))
                out[x * 4 + 2] = UInt8(truncatingIfNeeded: min(Int32(v[2]), alpha))
                out[x * 4 + 3] = UInt8(truncatingIfNeeded: alpha)
            }
        }
    }

    /// Input rows held for `bandRows` output rows (made ``rowsAtATime`` at a time): what they
    /// reach, and the taps of one more — from the plan alone, before any tap is made.
    private func reach(bandRows: Int) -> Int {
        let bandRows = min(bandRows, LanczosStage.rowsAtATime)
        let perRow = Double(sourceHeight) / Double(max(1, plan.scaledHeight))
        let widest = LanczosTaps.widest(scaled: plan.scaledHeight, source: sourceHeight)
        return min(sourceHeight, Int((Double(bandRows) * max(1, perRow)).rounded(.up)) + widest + 1)
    }

    /// The source columns the canvas reads, at most.
    private var spanned: Int {
        let perColumn = Double(sourceWidth) / Double(max(1, plan.scaledWidth))
        let widest = LanczosTaps.widest(scaled: plan.scaledWidth, source: sourceWidth)
        return min(sourceWidth, Int((Double(width) * max(1, perColumn)).rounded(.up)) + widest + 1)
    }

    package func heldBytes(bandRows: Int) -> Int {
        let weights =
            width * LanczosTaps.widest(scaled: plan.scaledWidth, source: sourceWidth)
            + height * LanczosTaps.widest(scaled: plan.scaledHeight, source: sourceHeight)
        return reach(bandRows: bandRows) * spanned * 16 + weights * 12 + (width + height) * 16
    }
    package func inputBytes(bandRows: Int) -> Int { reach(bandRows: bandRows) * sourceWidth * 4 }
}
