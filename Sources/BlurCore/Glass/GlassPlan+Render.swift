// The fast glass: the same steps as the reference (GlassEffect+Reference.swift), scheduled for speed,
// drawn in place over the glass's canvas.
//
// The layer: for a blur of the whole depth wide enough (σ ≥ 12 px), the region is reduced by 2, 4 or
// 8 (block means, as Material does), blurred with what σ is left and toned at that size, and sampled
// bilinearly from there; otherwise the region is blurred at full size, mixed with its sharp pixels
// and toned (GlassToneTable).
//
// The shading, row by row. Where the boxes stand apart (no pixel the shader changes sees two of
// them) and there is no dispersion, each box's row is cut into runs:
// - interior (deeper than the refraction band and the rim): the layer at the pixel's own centre —
//   a copy, at full size and opaque; at reduced size, two layer rows sampled at every canvas
//   column (kept for the next rows) and blended, channel by channel (the loop vectorises);
// - along a straight side, the signed distance and the normal depend on one coordinate, so the
//   shader's optics (GlassShader.Optics: the pull, Fresnel, rim, coverage and shadow) are made once
//   a row (top and bottom sides: applied to the whole run channel by channel, vectorised, as is
//   the outer shadow alone outside) or once a column (left and right) and applied in Float;
// - the rest (the corners) pixel by pixel: the geometry (distance, normal, optics) made once for
//   the four corners of a box whose centre is on a half-pixel (GlassCornerTable), else from the
//   one box's distance and normal; the sample and the finish at each pixel.
// Otherwise every pixel but the interior goes through the shader in float64, as the reference does.
extension GlassPlan {
    /// The toned layer as bytes: the region's pixels (rows from 0) reduced by `factor` (1: as
    /// they are), sample i's centre at `region.x + (i + ½)·factor`; sampled bilinearly, clamped.
    struct ByteLayer: GlassLayer {
        let view: PixelView
        let region: PixelRect
        let factor: Int
        /// 1 / factor (exact: a power of 2).
        let inverse: Double

        init(view: PixelView, region: PixelRect, factor: Int) {
            (self.view, self.region, self.factor) = (view, region, factor)
            inverse = 1 / Double(factor)
        }

        /// The two samples that straddle one coordinate along an axis and the second one's weight.
        struct Tap {
            let first: Int, second: Int
            let weight: Float
        }

        @inline(__always)
        private func tap(_ x: Double, origin: Int, count: Int) -> (Int, Int, Double) {
            let u = min(max((x - Double(origin)) * inverse - 0.5, 0), Double(count - 1))
            let i = Int(u)
            return (i, min(i + 1, count - 1), u - Double(i))
        }

        @inline(__always)
        func tapX(_ x: Double) -> Tap {
            let (i, i1, f) = tap(x, origin: region.x, count: view.width)
            return Tap(first: i * 4, second: i1 * 4, weight: Float(f))
        }

        @inline(__always)
        func tapY(_ y: Double) -> Tap {
            let (j, j1, f) = tap(y, origin: region.y, count: view.height)
            return Tap(first: j, second: j1, weight: Float(f))
        }

        @inline(__always)
        func sample(_ x: Double, _ y: Double) -> SIMD4<Double> {
            let (i, i1, fx) = tap(x, origin: region.x, count: view.width)
            let (j, j1, fy) = tap(y, origin: region.y, count: view.height)
            let top = view.row(j), bottom = view.row(j1)
            @inline(__always) func at(_ row: UnsafePointer<UInt8>, _ a: Int) -> SIMD4<Double> {
                SIMD4(Double(row[a * 4]), Double(row[a * 4 + 1]), Double(row[a * 4 + 2]), Double(row[a * 4 + 3]))
            }
            let a = at(top, i), b = at(top, i1), c = at(bottom, i), d = at(bottom, i1)
            let upper = a + (b - a) * fx, lower = c + (d - c) * fx
            return upper + (lower - upper) * fy
        }

        /// The bilinear sample at taps `x` and `y`, in `Float`, in the reference's order.
        @inline(__always)
        func sample(_ x: Tap, _ y: Tap) -> SIMD4<Float> {
            let top = view.row(y.first), bottom = view.row(y.second)
            let a = GlassFinish.load(top + x.first), b = GlassFinish.load(top + x.second)
            let c = GlassFinish.load(bottom + x.first), d = GlassFinish.load(bottom + x.second)
            let upper = a + (b - a) * x.weight, lower = c + (d - c) * x.weight
            return upper + (lower - upper) * y.weight
        }
    }

    /// How a run of a row's pixels is drawn.
    enum Run: UInt8 {
        case shaded, corner, interior, row, column
    }

    /// One column of a box's left or right side: its optics and where it samples.
    struct SideColumn {
        let finish: GlassFinish
        let tap: ByteLayer.Tap
    }

    /// The factor the layer is reduced by: 2, 4 or 8 while σ stays ≥ 6 px at the small size (and
    /// the region 8 px across) for a blur of the whole depth; 1 otherwise.
    var layerFactor: Int {
        guard depth == 1 else { return 1 }
        var halvings = 0
        while halvings < 3 && sigma / Double(2 << halvings) >= 6 && min(region.width, region.height) >> (halvings + 1) >= 8 { halvings += 1 }
        return 1 << halvings
    }

    /// The toned layer, the factor it is reduced by and whether every pixel of it is opaque.
    func tonedLayer(of image: Bitmap, threads: Int?, checkpoint: @escaping () throws -> Void) throws -> (Bitmap, Int, Bool) {
        let region = region, factor = layerFactor, table = GlassToneTable(tone)
        let (w, h) = ((region.width + factor - 1) / factor, (region.height + factor - 1) / factor)
        // (The small image is at most the region's size, which exists: it cannot fail.)
        if factor > 1, var reduced = try? Bitmap.uninitialized(width: w, height: h) {
            // The f × f mean adds (f² − 1)/12 px², the bilinear way back about f²/6: both come off the blur.
            let f = Double(factor)
            let small = (max(0, sigma * sigma - (f * f - 1) / 12 - f * f / 6)).squareRoot() / f
            try image.withPixels { source in
                try reduced.withMutablePixels { target in
                    try Parallel.forEachBand(count: h, parts: threads, checkpoint: checkpoint) { band in
                        var sums = [UInt32](repeating: 0, count: region.width * 4)
                        sums.withUnsafeMutableBufferPointer { sums in
                            for j in band {
                                Bitmap.reduceRow(j, of: source, region: region, by: factor, sums: sums.baseAddress!, into: target.row(j))
                            }
                        }
                    }
                }
            }
            var layer = try GaussianBlur(clampingSigma: small).apply(to: reduced, threads: threads, checkpoint: checkpoint)
            try checkpoint()
            let opaque = layer.withMutablePixels { layer in
                (0..<h).reduce(true) { all, y in table.apply(layer.row(y), count: w) && all }
            }
            return (layer, factor, opaque)
        }
        let sharp = image.copying(region)
        var layer = try GaussianBlur(clampingSigma: sigma).apply(to: sharp, threads: threads, checkpoint: checkpoint)
        try checkpoint()
        // The depth mix in 16-bit fixed point (a weight of depth × 2¹⁶), vectorised.
        let weight = UInt32((depth * 65536).rounded()), width = region.width
        let opaque = try sharp.withPixels { sharp in
            try layer.withMutablePixels { layer in
                let opaqueRows = UnsafeMutableBufferPointer<Bool>.allocate(capacity: region.height)
                defer { opaqueRows.deallocate() }
                let rows = SharedPointer(opaqueRows.baseAddress!)
                try Parallel.forEachBand(count: region.height, parts: threads, checkpoint: checkpoint) { band in
                    for y in band {
                        let row = layer.row(y)
                        if weight < 65536 {
                            let source = sharp.row(y)
                            for i in 0..<(width * 4) {
                                let mixed = UInt32(source[i]) &* (65536 &- weight) &+ UInt32(row[i]) &* weight &+ 32768
                                row[i] = UInt8(truncatingIfNeeded: mixed >> 16)
                            }
                        }
                        rows.base[y] = table.apply(row, count: width)
                    }
                }
                return opaqueRows.allSatisfy { $0 }
            }
        }
        return (layer, 1, opaque)
    }

    /// The fast render into `image`; `checkpoint` is asked inside the blur and before each pass.
    func render(into image: inout Bitmap, threads: Int?, checkpoint: @escaping () throws -> Void) throws {
        let (toned, factor, opaque) = try tonedLayer(of: image, threads: threads, checkpoint: checkpoint)
        try checkpoint()
        let canvas = canvas, region = region, shader = shader(tabulated: true)
        let inset = shader.interiorDepth, reach = shader.outerReach
        let boxes = surface.boxes
        let apart = dispersion == 0 && isolated(reach: reach)
        let interior = GlassFinish(interiorShadow: shader.shadow(-1))
        // Each box's corners from one corner's geometry (none without the side runs).
        let corners =
            apart ? boxes.map { GlassCornerTable($0, shader: shader, inset: inset, reach: reach, canvasPixels: canvas.width * canvas.height) } : []
        try toned.withPixels { view in
            let layer = ByteLayer(view: view, region: region, factor: factor)
            // The taps of every canvas column's centre, and each box's left and right sides
            // (`canvas.width` entries a box, nil off the sides).
            let columnTaps = UnsafeMutableBufferPointer<ByteLayer.Tap>.allocate(capacity: canvas.width)
            let sideColumns = UnsafeMutableBufferPointer<SideColumn?>.allocate(capacity: apart ? canvas.width * boxes.count : 1)
            defer {
                columnTaps.deallocate()
                sideColumns.deallocate()
            }
            for i in 0..<canvas.width { columnTaps[i] = layer.tapX(Double(canvas.x + i) + 0.5) }
            if apart {
                for (b, box) in boxes.enumerated() {
                    for i in 0..<canvas.width {
                        let dx = Double(canvas.x + i) + 0.5 - box.cx, sd = abs(dx) - box.hx
                        var side: SideColumn?
                        if -inset < sd && sd < reach {
                            let o = shader.optics(sd, normal: SIMD2(dx < 0 ? -1 : 1, 0))
                            side = SideColumn(finish: GlassFinish(o), tap: layer.tapX(Double(canvas.x + i) + 0.5 + o.shift.x))
                        }
                        sideColumns[b * canvas.width + i] = side
                    }
                }
            }
            // Indexed by image column.
            let columns = SharedPointer(columnTaps.baseAddress! - canvas.x)
            let sides = SharedPointer(sideColumns.baseAddress! - canvas.x)
            try image.withMutablePixels { target in
                try Parallel.forEachBand(count: canvas.height, parts: threads, checkpoint: checkpoint) { rows in
                    // A row's runs other than its default kind: disjoint, sorted before drawing.
                    var runs: [(Range<Int>, Run)] = []
                    var interiorRuns: [(Int, Int)] = []
                    // A row of the layer between two of its rows, blended once (factor > 1), and which.
                    let blended = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: view.width)
                    defer { blended.deallocate() }
                    let blendedTap = UnsafeMutablePointer<ByteLayer.Tap>.allocate(capacity: 1)
                    blendedTap.initialize(to: ByteLayer.Tap(first: -1, second: -1, weight: 0))
                    defer { blendedTap.deallocate() }
                    // Layer rows sampled at every canvas column's centre (four floats a column), the
                    // least recently used of `slots` replaced: the interior's and the sides' rows.
                    let slots = 4, span = canvas.width * 4
                    let upsampled = UnsafeMutablePointer<Float>.allocate(capacity: slots * span)
                    let slotRow = UnsafeMutablePointer<Int>.allocate(capacity: slots)
                    let slotUse = UnsafeMutablePointer<Int>.allocate(capacity: slots + 1)
                    slotRow.initialize(repeating: -1, count: slots)
                    slotUse.initialize(repeating: 0, count: slots + 1)
                    defer {
                        upsampled.deallocate()
                        slotRow.deallocate()
                        slotUse.deallocate()
                    }
                    /// Layer row `j` at every canvas column's centre.
                    func layerRow(_ j: Int) -> UnsafePointer<Float> {
                        slotUse[slots] &+= 1
                        var k = 0
                        for s in 0..<slots {
                            if slotRow[s] == j {
                                slotUse[s] = slotUse[slots]
                                return UnsafePointer(upsampled + s * span)
                            }
                            if slotUse[s] < slotUse[k] { k = s }
                        }
                        (slotRow[k], slotUse[k]) = (j, slotUse[slots])
                        let out = upsampled + k * span, source = view.row(j)
                        for i in 0..<canvas.width {
                            let c = columns.base[canvas.x + i]
                            let a = GlassFinish.load(source + c.first)
                            let v = a + (GlassFinish.load(source + c.second) - a) * c.weight
                            (out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]) = (v.x, v.y, v.z, v.w)
                        }
                        return UnsafePointer(out)
                    }
                    /// Makes `blended` the layer at row tap `t`.
                    func blend(_ t: ByteLayer.Tap) {
                        let b = blendedTap.pointee
                        guard factor > 1, t.first != b.first || t.second != b.second || t.weight != b.weight else { return }
                        let top = view.row(t.first), bottom = view.row(t.second)
                        for i in 0..<view.width {
                            let a = GlassFinish.load(top + i * 4)
                            blended[i] = a + (GlassFinish.load(bottom + i * 4) - a) * t.weight
                        }
                        blendedTap.pointee = t
                    }
                    for y in rows.lowerBound + canvas.y..<rows.upperBound + canvas.y {
                        let row = target.row(y), py = Double(y) + 0.5
                        let own = layer.tapY(py)
                        let copies = factor == 1 && opaque
                        /// The layer at column tap `x` on this row (`blend(own)` first).
                        @inline(__always) func across(_ x: ByteLayer.Tap) -> SIMD4<Float> {
                            if factor == 1 {
                                let top = view.row(own.first)
                                let a = GlassFinish.load(top + x.first)
                                return a + (GlassFinish.load(top + x.second) - a) * x.weight
                            }
                            let a = blended[x.first >> 2]
                            return a + (blended[x.second >> 2] - a) * x.weight
                        }
                        /// Draws `runs` over `span` (image columns), the rest of it as `kind`; `b` the box of
                        /// a `row` or `column` run.
                        func draw(
                            _ span: Range<Int>, _ runs: inout [(Range<Int>, Run)], elsewhere: Run, box b: Int,
                            rowOptics: (GlassFinish, ByteLayer.Tap)?
                        ) {
                            runs.sort { $0.0.lowerBound < $1.0.lowerBound }
                            var x = span.lowerBound, next = 0
                            while x < span.upperBound {
                                while next < runs.count && runs[next].0.upperBound <= x { next += 1 }
                                var kind = elsewhere, end = span.upperBound
                                if next < runs.count {
                                    if runs[next].0.lowerBound <= x {
                                        (kind, end) = (runs[next].1, runs[next].0.upperBound)
                                    } else {
                                        end = runs[next].0.lowerBound
                                    }
                                }
                                switch kind {
                                case .shaded:
                                    for column in x..<end {
                                        let p = row + column * 4
                                        let v = shader.shade(
                                            column, y, under: SIMD4(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3])), layer: layer)
                                        for c in 0..<4 { p[c] = UInt8(min(255, max(0, v[c].rounded(.toNearestOrEven)))) }
                                    }
                                case .interior:
                                    if copies {
                                        (row + x * 4).update(from: view.row(y - region.y) + (x - region.x) * 4, count: (end - x) * 4)
                                    } else {
                                        // Each layer row across, then the two blended (vectorised).
                                        let upper = layerRow(own.first) + (x - canvas.x) * 4, lower = layerRow(own.second) + (x - canvas.x) * 4
                                        if opaque {
                                            GlassFinish.copy(upper: upper, lower: lower, weight: own.weight, to: row + x * 4, count: end - x)
                                        } else {
                                            interior.apply(upper: upper, lower: lower, weight: own.weight, to: row + x * 4, count: end - x)
                                        }
                                    }
                                case .row:
                                    let (finish, tap) = rowOptics!
                                    if finish.coverage == 0 {
                                        // Outside: the outer shadow alone.
                                        if finish.shadow > 0 { finish.darken(row + x * 4, count: end - x) }
                                        break
                                    }
                                    let upper = layerRow(tap.first) + (x - canvas.x) * 4, lower = layerRow(tap.second) + (x - canvas.x) * 4
                                    finish.apply(upper: upper, lower: lower, weight: tap.weight, to: row + x * 4, count: end - x)
                                case .column:
                                    blend(own)
                                    for column in x..<end {
                                        let p = row + column * 4, side = sides.base[b * canvas.width + column]!
                                        GlassFinish.store(side.finish.apply(across(side.tap), under: GlassFinish.load(p)), p)
                                    }
                                case .corner:
                                    blend(own)
                                    let box = boxes[b]
                                    let table = corners.isEmpty ? nil : corners[b]
                                    (table?.entries ?? []).withUnsafeBufferPointer { entries in
                                        for column in x..<end {
                                            let p = row + column * 4
                                            if let table, let (k, flipX, flipY) = table.entry(column, y) {
                                                // From the top-left corner's pixel, mirrored.
                                                let e = entries[k]
                                                switch e.kind {
                                                case .none: break
                                                case .shadow:
                                                    var u = GlassFinish.load(p) * (1 - e.shadow)
                                                    u.w += 255 * e.shadow
                                                    GlassFinish.store(u, p)
                                                case .interior:
                                                    let g = across(columns.base[column])
                                                    GlassFinish.store(interior.apply(g, under: GlassFinish.load(p)), p)
                                                case .optics:
                                                    let sx = flipX ? -e.shift.x : e.shift.x, sy = flipY ? -e.shift.y : e.shift.y
                                                    let g = layer.sample(layer.tapX(Double(column) + 0.5 + sx), layer.tapY(py + sy))
                                                    let finish = flipX != flipY ? e.crossed : e.finish
                                                    GlassFinish.store(finish.apply(g, under: GlassFinish.load(p)), p)
                                                }
                                                continue
                                            }
                                            let px = Double(column) + 0.5
                                            let sd = box.distance(px, py, radius: box.r)
                                            guard sd < reach else { continue }
                                            if sd >= 0.5 {
                                                // Outside: the outer shadow alone.
                                                let a = Float(shader.shadow(sd))
                                                guard a > 0 else { continue }
                                                var u = GlassFinish.load(p) * (1 - a)
                                                u.w += 255 * a
                                                GlassFinish.store(u, p)
                                            } else if -sd >= inset {
                                                let g = across(columns.base[column])
                                                GlassFinish.store(interior.apply(g, under: GlassFinish.load(p)), p)
                                            } else {
                                                let o = shader.optics(sd, normal: box.gradient(px, py, radius: box.optical))
                                                let g = layer.sample(layer.tapX(px + o.shift.x), layer.tapY(py + o.shift.y))
                                                GlassFinish.store(GlassFinish(o).apply(g, under: GlassFinish.load(p)), p)
                                            }
                                        }
                                    }
                                }
                                x = end
                            }
                        }
                        guard apart else {
                            let span = canvas.x..<(canvas.x + canvas.width)
                            interiorRunsOf(y, inset: inset + 1, into: &interiorRuns)
                            runs = interiorRuns.map { ($0.0..<$0.1, Run.interior) }
                            draw(span, &runs, elsewhere: .shaded, box: 0, rowOptics: nil)
                            continue
                        }
                        for (b, box) in boxes.enumerated() {
                            let dy = py - box.cy, ady = abs(dy), depth = box.hy - ady
                            guard -depth < reach else { continue }
                            let all = canvas.x..<(canvas.x + canvas.width)
                            let extent = clamp(
                                Int((box.cx - box.hx - reach - 0.5).rounded(.down))..<Int((box.cx + box.hx + reach - 0.5).rounded(.up)) + 1, to: all)
                            guard !extent.isEmpty else { continue }
                            runs.removeAll(keepingCapacity: true)
                            @inline(__always) func across(_ x: Int) -> Double { abs(Double(x) + 0.5 - box.cx) }
                            var rowOptics: (GlassFinish, ByteLayer.Tap)?
                            if depth >= inset {
                                let hx = box.hx - inset, hy = box.hy - inset, r = max(box.r - inset, 0)
                                let qy = ady - (hy - r)
                                let half = qy <= 0 ? hx : hx - r + max(0, r * r - qy * qy).squareRoot()
                                if hx > 0 {
                                    let guess = Int((box.cx - half - 0.5).rounded(.up))..<Int((box.cx + half - 0.5).rounded(.down)) + 1
                                    runs.append((clamp(guess, to: extent), .interior))
                                }
                            } else {
                                // The top or bottom side: the normal is vertical where the column is
                                // nearer that side than the left or right one and off the corner's arc.
                                let limit = box.hx - box.optical
                                let span = run(around: box.cx, upTo: min(limit, box.hx - depth), in: extent) { x in
                                    let a = across(x)
                                    return a <= limit && box.hx - a > depth
                                }
                                if !span.isEmpty {
                                    let o = shader.optics(-depth, normal: SIMD2(0, dy < 0 ? -1 : 1))
                                    rowOptics = (GlassFinish(o), layer.tapY(py + o.shift.y))
                                    runs.append((span, .row))
                                }
                            }
                            if ady <= box.hy - box.optical {
                                // The left and right sides.
                                let low = box.hx - min(inset, depth)
                                for sign in [-1.0, 1] {
                                    let (a, b) = (box.cx + sign * low, box.cx + sign * (box.hx + reach))
                                    let guess = Int((min(a, b) - 0.5).rounded(.down))..<Int((max(a, b) - 0.5).rounded(.down)) + 1
                                    let span = refine(clamp(guess, to: extent), in: extent) { x in
                                        let sd = across(x) - box.hx
                                        return -inset < sd && sd < reach && box.hx - across(x) < depth && (Double(x) + 0.5 - box.cx) * sign > 0
                                    }
                                    runs.append((span, .column))
                                }
                            }
                            runs.removeAll { $0.0.isEmpty }
                            draw(extent, &runs, elsewhere: .corner, box: b, rowOptics: rowOptics)
                        }
                    }
                }
            }
        }
    }

    /// True when the boxes stand at least 2 × `reach` + k + 2 pixels apart (their frames): every
    /// pixel the shader changes is then within `reach` of one box alone, whose distance and normal
    /// the smooth union returns unchanged there.
    func isolated(reach: Double) -> Bool {
        let boxes = surface.boxes
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let (a, b) = (boxes[i], boxes[j])
                let gx = max(0, abs(a.cx - b.cx) - a.hx - b.hx), gy = max(0, abs(a.cy - b.cy) - a.hy - b.hy)
                if (gx * gx + gy * gy).squareRoot() < 2 * reach + surface.k + 2 { return false }
            }
        }
        return true
    }

    /// The runs of row `y`'s pixels, `start ..< end`, sorted, disjoint and inside the canvas, whose
    /// centres lie at least `inset` pixels inside one of the boxes (so inside the union too: the
    /// smooth minimum is at most the plain one). Each box inset is a rounded rectangle with the
    /// half sizes less `inset` and the radius less `inset` (at least 0).
    func interiorRunsOf(_ y: Int, inset: Double, into runs: inout [(Int, Int)]) {
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

/// `range` inside `limit` (empty at its lower end when they do not meet).
private func clamp(_ range: Range<Int>, to limit: Range<Int>) -> Range<Int> {
    let a = min(max(range.lowerBound, limit.lowerBound), limit.upperBound)
    return a..<max(a, min(range.upperBound, limit.upperBound))
}

/// The columns of `limit` where `inside` holds, given that it holds on one run that `guess` is
/// within a pixel of: the guess widened and narrowed until its ends are exact.
private func refine(_ guess: Range<Int>, in limit: Range<Int>, _ inside: (Int) -> Bool) -> Range<Int> {
    var a = guess.lowerBound, b = guess.upperBound
    while a > limit.lowerBound && inside(a - 1) { a -= 1 }
    while a < b && !inside(a) { a += 1 }
    while b < limit.upperBound && inside(b) { b += 1 }
    while b > a && !inside(b - 1) { b -= 1 }
    return a..<b
}

/// The run of columns of `limit` within `half` of `centre` where `inside` holds.
private func run(around centre: Double, upTo half: Double, in limit: Range<Int>, _ inside: (Int) -> Bool) -> Range<Int> {
    guard half >= 0 else { return limit.lowerBound..<limit.lowerBound }
    let guess = Int((centre - half - 0.5).rounded(.up))..<Int((centre + half - 0.5).rounded(.down)) + 1
    return refine(clamp(guess, to: limit), in: limit, inside)
}
