// The inner loops of the fast paths. Plain loops over pointers with no edge cases (the tables and
// padding have dealt with edges), written so that the compiler vectorises them: one statement per
// element, no overflow checks, the same operations in the same order for every channel.
enum Kernels {
    /// Elements per block of the row loops: an accumulator this long stays in L1.
    static let chunk = 2048

    /// `acc[i] = Σ_t w(o, t) · source.row(start(o) + t)[i]` for `i < count`, reading bytes.
    static func accumulateRows(
        _ taps: FilterTaps, output o: Int, source: PixelView, into acc: UnsafeMutablePointer<Float>, count: Int
    ) {
        taps.weights.withUnsafeBufferPointer { weights in
            // Only the taps between the first and last non-zero weight (tables padded to a common
            // width have zeros at the ends).
            var lo = 0, hi = taps.width
            let all = weights.baseAddress! + o * taps.width
            while hi > 1 && all[hi - 1] == 0 { hi -= 1 }
            while lo < hi - 1 && all[lo] == 0 { lo += 1 }
            let w = all + lo, width = hi - lo
            let first = taps.starts[o] + lo
            var begin = 0
            while begin < count {
                let n = min(chunk, count - begin)
                let a = acc + begin
                // Two rows a pass halves the accumulator traffic.
                var t = 0
                if width % 2 == 1 {
                    let weight = w[0], row = source.row(first) + begin
                    for i in 0..<n { a[i] = weight * Float(row[i]) }
                    t = 1
                } else {
                    for i in 0..<n { a[i] = 0 }
                }
                while t < width {
                    let w0 = w[t], w1 = w[t + 1]
                    let r0 = source.row(first + t) + begin, r1 = source.row(first + t + 1) + begin
                    for i in 0..<n { a[i] += w0 * Float(r0[i]) + w1 * Float(r1[i]) }
                    t += 2
                }
                begin += n
            }
        }
    }

    /// Sample row `o` of `y`, every sample of `x`: the rows `y` maps to it from `source` summed
    /// into `line` (`width` pixels of floats), then resampled across into `out`: the pyramid's
    /// decimation, both ways.
    static func decimate(
        row o: Int, y: FilterTaps, x: FilterTaps, from source: PixelView, line: UnsafeMutablePointer<Float>,
        into out: UnsafeMutablePointer<Float>, width: Int
    ) {
        accumulateRows(y, output: o, source: source, into: line, count: width * 4)
        resamplePixels(line, taps: x, into: out)
    }

    /// Fills `left` pixels before and `right` pixels after the `width` pixels that start `left`
    /// pixels into `line`: copies of the edge pixels for `.clamp`, zeros for `.transparent`.
    static func pad<Sample: Numeric>(_ line: UnsafeMutablePointer<Sample>, width: Int, left: Int, right: Int, edges: EdgeMode) {
        let first = line + left * 4, last = line + (left + width - 1) * 4, after = line + (left + width) * 4
        for p in 0..<left {
            for c in 0..<4 { line[p * 4 + c] = edges == .clamp ? first[c] : 0 }
        }
        for p in 0..<right {
            for c in 0..<4 { after[p * 4 + c] = edges == .clamp ? last[c] : 0 }
        }
    }

    /// `out[i] = Σ_t k[t] · sources[t][i]` for `i < count`, in floats: 32 lanes at a time in four
    /// independent sums kept in registers across the taps.
    static func convolve(count: Int, kernel: [Float], sources: [UnsafePointer<Float>], into out: UnsafeMutablePointer<Float>) {
        kernel.withUnsafeBufferPointer { k in
            sources.withUnsafeBufferPointer { s in
                let taps = k.count
                var i = 0
                while i + 32 <= count {
                    var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
                    for t in 0..<taps {
                        let w = k[t], p = s[t] + i
                        a0 += w * load8(p)
                        a1 += w * load8(p + 8)
                        a2 += w * load8(p + 16)
                        a3 += w * load8(p + 24)
                    }
                    store32(a0, a1, a2, a3, out + i)
                    i += 32
                }
                while i < count {
                    var acc: Float = 0
                    for t in 0..<taps { acc += k[t] * s[t][i] }
                    out[i] = acc
                    i += 1
                }
            }
        }
    }

    /// Resamples a line of RGBA float pixels through `taps` (pixel indices), one SIMD4 a pixel.
    static func resamplePixels(_ line: UnsafePointer<Float>, taps: FilterTaps, into out: UnsafeMutablePointer<Float>) {
        taps.weights.withUnsafeBufferPointer { weights in
            taps.starts.withUnsafeBufferPointer { starts in
                resamplePixels(line, starts: starts, weights: weights.baseAddress!, width: taps.width, into: out)
            }
        }
    }

    /// The same with the table's parts: output pixel o is `Σ weights[o·width + t] · line[starts[o] + t]`.
    static func resamplePixels(
        _ line: UnsafePointer<Float>, starts: UnsafeBufferPointer<Int>, weights: UnsafePointer<Float>, width: Int,
        into out: UnsafeMutablePointer<Float>
    ) {
        let raw = UnsafeRawPointer(line)
        if width == 4 {
            // The B-spline's four taps, unrolled: the upsampling of every full-resolution line.
            for o in 0..<starts.count {
                let w = weights + o * 4, at = starts[o] * 16
                var acc = w[0] * raw.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self)
                acc += w[1] * raw.loadUnaligned(fromByteOffset: at + 16, as: SIMD4<Float>.self)
                acc += w[2] * raw.loadUnaligned(fromByteOffset: at + 32, as: SIMD4<Float>.self)
                acc += w[3] * raw.loadUnaligned(fromByteOffset: at + 48, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(out).storeBytes(of: acc, toByteOffset: o * 16, as: SIMD4<Float>.self)
            }
            return
        }
        for o in 0..<starts.count {
            let w = weights + o * width
            var acc = SIMD4<Float>()
            var at = starts[o] * 16
            for t in 0..<width {
                acc += w[t] * raw.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self)
                at += 16
            }
            UnsafeMutableRawPointer(out).storeBytes(of: acc, toByteOffset: o * 16, as: SIMD4<Float>.self)
        }
    }

    @inline(__always)
    static func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    /// The four accumulators of a 32-lane block, in order.
    @inline(__always)
    static func store32(_ a0: SIMD8<Float>, _ a1: SIMD8<Float>, _ a2: SIMD8<Float>, _ a3: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        store8(a0, p)
        store8(a1, p + 8)
        store8(a2, p + 16)
        store8(a3, p + 24)
    }

    /// Rounds to nearest (ties to even) and clamps to 0…255. Adding 2²³ puts the integer part in
    /// the low mantissa bits, which vectorises where a checked conversion would not.
    @inline(__always)
    static func storeBytes(_ values: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            let v = min(max(values[i], 0), 255) + 8_388_608
            out[i] = UInt8(truncatingIfNeeded: v.bitPattern)
        }
    }
}

extension Kernels {
    /// Tiles of this many pixels a side: a tile's source rows and target rows both stay in L1.
    static let transposeTile = 32

    /// `target.row(x)[y] = source.row(y)[x]` for the RGBA pixels of `source`'s `columns` (its rows
    /// numbered from `source.firstRow`, pixel y of a target row from the first of them; the target's
    /// rows numbered as the columns are). A tile at a time, the columns shared among `parts` threads;
    /// inside a tile, blocks of 4 × 4 pixels turned in registers (four 16-byte loads, four stores),
    /// the edges of the tile a pixel at a time.
    static func transpose(_ source: PixelView, columns: Range<Int>, into target: MutablePixelView, parts: Int?) {
        let tile = transposeTile, h = source.height, top = source.firstRow, stride = source.bytesPerRow
        Parallel.forEachBand(count: (columns.count + tile - 1) / tile, parts: parts) { band in
            for tx in band {
                let x0 = columns.lowerBound + tx * tile, x1 = min(columns.upperBound, x0 + tile)
                var y0 = 0
                while y0 < h {
                    let y1 = min(h, y0 + tile), blockRows = y0 + (y1 - y0) / 4 * 4
                    var x = x0
                    while x + 4 <= x1 {
                        let o0 = UnsafeMutableRawPointer(target.row(x)), o1 = UnsafeMutableRawPointer(target.row(x + 1))
                        let o2 = UnsafeMutableRawPointer(target.row(x + 2)), o3 = UnsafeMutableRawPointer(target.row(x + 3))
                        var y = y0
                        while y < blockRows {
                            let from = UnsafeRawPointer(source.row(top + y)) + x * 4
                            let r0 = from.loadUnaligned(as: SIMD4<UInt32>.self)
                            let r1 = from.loadUnaligned(fromByteOffset: stride, as: SIMD4<UInt32>.self)
                            let r2 = from.loadUnaligned(fromByteOffset: 2 * stride, as: SIMD4<UInt32>.self)
                            let r3 = from.loadUnaligned(fromByteOffset: 3 * stride, as: SIMD4<UInt32>.self)
                            o0.storeBytes(of: SIMD4(r0[0], r1[0], r2[0], r3[0]), toByteOffset: y * 4, as: SIMD4<UInt32>.self)
                            o1.storeBytes(of: SIMD4(r0[1], r1[1], r2[1], r3[1]), toByteOffset: y * 4, as: SIMD4<UInt32>.self)
                            o2.storeBytes(of: SIMD4(r0[2], r1[2], r2[2], r3[2]), toByteOffset: y * 4, as: SIMD4<UInt32>.self)
                            o3.storeBytes(of: SIMD4(r0[3], r1[3], r2[3], r3[3]), toByteOffset: y * 4, as: SIMD4<UInt32>.self)
                            y += 4
                        }
                        x += 4
                    }
                    // The tile's last rows (fewer than four) under the blocks, and its last columns.
                    for c in x0..<x1 {
                        let out = UnsafeMutableRawPointer(target.row(c))
                        for y in (c < x ? blockRows : y0)..<y1 {
                            let pixel = UnsafeRawPointer(source.row(top + y)).loadUnaligned(fromByteOffset: c * 4, as: UInt32.self)
                            out.storeBytes(of: pixel, toByteOffset: y * 4, as: UInt32.self)
                        }
                    }
                    y0 = y1
                }
            }
        }
    }
}
