/// Lanczos-3 resampling as a stage of the chain, on premultiplied pixels: each input row the output
/// reaches is resampled across (``LanczosTaps`` of the columns) into a row of floats, kept while
/// later output rows reach it; each output row is then the weighted sum of those rows (the taps of
/// the rows), rounded, colour never above alpha. The output is the plan's canvas: the part of the
/// scaled image it shows, transparent where it shows none (a `contain` margin). Every output pixel
/// is computed in the same order whatever the threads and bands, so the bytes never depend on them.
package final class LanczosStage: RowStage {
    package let width: Int
    package let height: Int
    private let sourceWidth: Int, sourceHeight: Int
    private let columns: LanczosTaps, rows: LanczosTaps
    private let across: FloatRows

    /// From `sourceWidth × sourceHeight` by `plan` (its scaled size is the whole source's).
    package init(sourceWidth: Int, sourceHeight: Int, plan: ResizePlan) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        width = plan.width
        height = plan.height
        columns = LanczosTaps(outputs: plan.width, offset: plan.x, scaled: plan.scaledWidth, source: sourceWidth)
        rows = LanczosTaps(outputs: plan.height, offset: plan.y, scaled: plan.scaledHeight, source: sourceHeight)
        across = FloatRows(length: plan.width * 4, count: sourceHeight)
    }

    package func produce(_ band: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        let needed = rows.sources(band)
        let target = SharedPointer(output.row(band.lowerBound)), stride = output.bytesPerRow, length = width * 4
        guard !needed.isEmpty, let view = try input.rows(needed) else {
            for i in 0..<band.count { (target.base + i * stride).initialize(repeating: 0, count: length) }
            return
        }
        let source = SharedPointer(UnsafeMutablePointer(mutating: view.row(needed.lowerBound))), sourceStride = view.bytesPerRow
        let columns = columns, sourceWidth = sourceWidth
        try across.ensure(needed) { new, rowsTarget in
            let made = SharedPointer(rowsTarget), skip = new.lowerBound - needed.lowerBound
            Parallel.forEachBand(count: new.count, parts: parts) { part in
                let line = UnsafeMutablePointer<Float>.allocate(capacity: sourceWidth * 4)
                defer { line.deallocate() }
                for i in part {
                    LanczosStage.across(
                        source.base + (skip + i) * sourceStride, width: sourceWidth, line: line, taps: columns, into: made.base + i * length)
                }
            }
        }
        let held = SharedPointer(across.row(needed.lowerBound)), first = needed.lowerBound, rows = rows
        Parallel.forEachBand(count: band.count, parts: parts) { part in
            let sum = UnsafeMutablePointer<Float>.allocate(capacity: length)
            defer { sum.deallocate() }
            for i in part {
                let y = band.lowerBound + i
                LanczosStage.down(
                    held.base, first: first, length: length, taps: rows, row: y, sum: sum, into: target.base + i * stride)
            }
        }
    }

    /// One source row resampled across into `length` floats (4 a pixel).
    private static func across(
        _ row: UnsafeMutablePointer<UInt8>, width: Int, line: UnsafeMutablePointer<Float>, taps: LanczosTaps, into out: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<(width * 4) { line[i] = Float(row[i]) }
        taps.weights.withUnsafeBufferPointer { weights in
            for x in 0..<taps.start.count {
                let n = taps.count[x]
                var acc = SIMD4<Float>.zero
                if n > 0 {
                    let w = weights.baseAddress! + x * taps.stride, p = UnsafeRawPointer(line + taps.start[x] * 4)
                    for k in 0..<n { acc += p.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self) * w[k] }
                }
                UnsafeMutableRawPointer(out + x * 4).storeBytes(of: acc, as: SIMD4<Float>.self)
            }
        }
    }

    /// Output row `y`: the weighted sum of the rows held (the first is source row `first`), rounded.
    private static func down(
        _ held: UnsafeMutablePointer<Float>, first: Int, length: Int, taps: LanczosTaps, row y: Int, sum: UnsafeMutablePointer<Float>,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let n = taps.count[y]
        guard n > 0 else { return out.initialize(repeating: 0, count: length) }
        let base = held + (taps.start[y] - first) * length
        taps.weights.withUnsafeBufferPointer { weights in
            let w = weights.baseAddress! + y * taps.stride
            let vectors = length / 8
            let s = UnsafeMutableRawPointer(sum)
            let w0 = SIMD8<Float>(repeating: w[0]), r0 = UnsafeRawPointer(base)
            for v in 0..<vectors {
                s.storeBytes(of: r0.loadUnaligned(fromByteOffset: v * 32, as: SIMD8<Float>.self) * w0, toByteOffset: v * 32, as: SIMD8<Float>.self)
            }
            for i in (vectors * 8)..<length { sum[i] = base[i] * w[0] }
            for k in 1..<max(1, n) {
                let wk = SIMD8<Float>(repeating: w[k]), r = UnsafeRawPointer(base + k * length)
                for v in 0..<vectors {
                    let a = s.loadUnaligned(fromByteOffset: v * 32, as: SIMD8<Float>.self)
                    s.storeBytes(
                        of: a + r.loadUnaligned(fromByteOffset: v * 32, as: SIMD8<Float>.self) * wk, toByteOffset: v * 32, as: SIMD8<Float>.self)
                }
                for i in (vectors * 8)..<length { sum[i] = sum[i] + base[k * length + i] * w[k] }
            }
        }
        for x in 0..<(length / 4) {
            let v = (UnsafeRawPointer(sum + x * 4).loadUnaligned(as: SIMD4<Float>.self) + 0.5).clamped(
                lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
            let alpha = v[3].rounded(.down)
            let kept = pointwiseMin(v, SIMD4(repeating: alpha)).rounded(.down)
            let bytes = SIMD4<UInt8>(truncatingIfNeeded: SIMD4<Int32>(kept))
            UnsafeMutableRawPointer(out + x * 4).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        }
    }

    /// Input rows held for `bandRows` output rows: what they reach, and the taps of one more.
    private func reach(bandRows: Int) -> Int {
        let perRow = Double(sourceHeight) / Double(max(1, rows.count.count))
        return min(sourceHeight, Int((Double(bandRows) * max(1, perRow)).rounded(.up)) + rows.widest + 1)
    }

    package func heldBytes(bandRows: Int) -> Int { reach(bandRows: bandRows) * width * 16 + (columns.weights.count + rows.weights.count) * 12 }
    package func inputBytes(bandRows: Int) -> Int { reach(bandRows: bandRows) * sourceWidth * 4 }
}
