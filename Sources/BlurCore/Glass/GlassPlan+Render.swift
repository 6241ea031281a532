// The fast glass: the same steps as the reference (GlassEffect+Reference.swift), scheduled for speed.
//
// The blur is the fast GaussianBlur of the region; the depth mix and the tone are one pass over it
// in bytes (GlassToneTable); then one pass over the canvas in bands of rows, where each row's
// interior runs — pixels deeper inside than the refraction band and the rim reach, known from each
// box's inset outline without a distance per pixel — are copied from the toned layer, and only the
// rest goes through the shader (tabulated curves, the layer sampled from bytes).
extension GlassPlan {
    /// The toned layer as bytes (the region's pixels, rows from 0), sampled bilinearly.
    struct ByteLayer: GlassLayer {
        let view: PixelView
        let region: PixelRect

        @inline(__always)
        func sample(_ x: Double, _ y: Double) -> SIMD4<Double> {
            let u = min(max(x - 0.5 - Double(region.x), 0), Double(region.width - 1))
            let v = min(max(y - 0.5 - Double(region.y), 0), Double(region.height - 1))
            let i = Int(u), j = Int(v), fx = u - Double(i), fy = v - Double(j)
            let i1 = min(i + 1, region.width - 1), j1 = min(j + 1, region.height - 1)
            let top = view.row(j), bottom = view.row(j1)
            @inline(__always) func at(_ row: UnsafePointer<UInt8>, _ a: Int) -> SIMD4<Double> {
                SIMD4(Double(row[a * 4]), Double(row[a * 4 + 1]), Double(row[a * 4 + 2]), Double(row[a * 4 + 3]))
            }
            let a = at(top, i), b = at(top, i1), c = at(bottom, i), d = at(bottom, i1)
            let upper = a + (b - a) * fx, lower = c + (d - c) * fx
            return upper + (lower - upper) * fy
        }
    }

    /// The fast render over `backdrop`; `checkpoint` is asked inside the blur and before each pass.
    func render(over backdrop: Bitmap, threads: Int?, checkpoint: @escaping () throws -> Void) throws -> Bitmap {
        let canvas = canvas, region = region
        let sharp = backdrop.copying(region)
        var layer = try GaussianBlur(clampingSigma: sigma).apply(to: sharp, threads: threads, checkpoint: checkpoint)
        try checkpoint()
        let table = GlassToneTable(tone), depth = Float(self.depth), width = region.width
        sharp.withPixels { sharp in
            layer.withMutablePixels { layer in
                Parallel.forEachBand(count: region.height, parts: threads) { rows in
                    for y in rows {
                        let row = layer.row(y)
                        if depth < 1 {
                            let source = sharp.row(y)
                            for i in 0..<(width * 4) { row[i] = UInt8(Float(source[i]) * (1 - depth) + Float(row[i]) * depth + 0.5) }
                        }
                        table.apply(row, count: width)
                    }
                }
            }
        }
        try checkpoint()

        let shader = shader(tabulated: true)
        let inset = shader.interiorDepth + 1
        var out = backdrop
        layer.withPixels { toned in
            let source = ByteLayer(view: toned, region: region)
            out.withMutablePixels { target in
                Parallel.forEachBand(count: canvas.height, parts: threads) { rows in
                    var runs: [(Int, Int)] = []
                    for y in rows.lowerBound + canvas.y..<rows.upperBound + canvas.y {
                        let row = target.row(y)
                        interiorRuns(y, inset: inset, into: &runs)
                        var x = canvas.x, next = 0
                        while x < canvas.x + canvas.width {
                            let stop = next < runs.count ? runs[next].0 : canvas.x + canvas.width
                            for column in x..<stop {
                                let p = row + column * 4
                                let v = shader.shade(column, y, under: SIMD4(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3])), layer: source)
                                for c in 0..<4 { p[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                            }
                            x = stop
                            guard next < runs.count else { break }
                            let t = toned.row(y - region.y)
                            for column in x..<runs[next].1 {
                                let p = row + column * 4, q = t + (column - region.x) * 4
                                if q[3] == 255 {
                                    p[0] = q[0]; p[1] = q[1]; p[2] = q[2]; p[3] = 255
                                } else {
                                    let v = shader.shade(
                                        column, y, under: SIMD4(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3])), layer: source)
                                    for c in 0..<4 { p[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                                }
                            }
                            x = runs[next].1
                            next += 1
                        }
                    }
                }
            }
        }
        return out
    }

    /// The runs of row `y`'s pixels, `start ..< end`, sorted, disjoint and inside the canvas, whose
    /// centres lie at least `inset` pixels inside one of the boxes (so inside the union too: the
    /// smooth minimum is at most the plain one). Each box inset is a rounded rectangle with the
    /// half sizes less `inset` and the radius less `inset` (at least 0).
    func interiorRuns(_ y: Int, inset: Double, into runs: inout [(Int, Int)]) {
        runs.removeAll(keepingCapacity: true)
        let py = Double(y) + 0.5
        for box in surface.boxes {
            let hx = box.hx - inset, hy = box.hy - inset, r = max(box.r - inset, 0)
            let dy = abs(py - box.cy)
            guard hx > 0, hy > 0, dy <= hy else { continue }
            let qy = dy - (hy - r)
            let half = qy <= 0 ? hx : hx - r + max(0, r * r - qy * qy).squareRoot()
            let start = max(canvas.x, Int((box.cx - half - 0.5).rounded(.up)))
            let end = min(canvas.x + canvas.width, Int((box.cx + half - 0.5).rounded(.down)) + 1)
            if start < end { runs.append((start, end)) }
        }
        guard runs.count > 1 else { return }
        runs.sort { $0.0 < $1.0 }
        var merged = 0
        for i in 1..<runs.count {
            if runs[i].0 <= runs[merged].1 {
                runs[merged].1 = max(runs[merged].1, runs[i].1)
            } else {
                merged += 1
                runs[merged] = runs[i]
            }
        }
        runs.removeLast(runs.count - merged - 1)
    }
}
