extension Bitmap {
    /// This image reduced to at most `colors` (2…256) colours: a median-cut palette of the opaque
    /// pixels (5 bits per channel histogram, boxes split at the median of their longest side, each
    /// colour the mean of its box), then each pixel mapped to the nearest entry with serpentine
    /// Floyd–Steinberg error diffusion when `dithering`. Pixels under half alpha become a reserved
    /// transparent entry; the others are un-premultiplied and treated as opaque.
    /// Deterministic; cost O(pixels) plus O(colours²) for the palette.
    public func quantized(colors: Int = 256, dithering: Bool = true) -> IndexedImage {
        let (w, h) = (width, height)
        let rgba = straightRGBA
        let transparent = stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] < 128 }
        let limit = max(2, min(256, colors)) - (transparent ? 1 : 0)

        // Histogram of opaque pixels: count and sums per 15-bit cell.
        var count = [Int32](repeating: 0, count: 32768)
        var sums = [SIMD3<Int64>](repeating: .zero, count: 32768)
        for i in stride(from: 0, to: rgba.count, by: 4) where rgba[i + 3] >= 128 {
            let key = Int(rgba[i] >> 3) << 10 | Int(rgba[i + 1] >> 3) << 5 | Int(rgba[i + 2] >> 3)
            count[key] += 1
            sums[key] &+= SIMD3(Int64(rgba[i]), Int64(rgba[i + 1]), Int64(rgba[i + 2]))
        }
        var palette = MedianCut.palette(cells: (0..<32768).filter { count[$0] > 0 }, count: count, sums: sums, colors: limit)
        if palette.isEmpty { palette = [SIMD3(0, 0, 0)] }
        let transparentIndex = transparent ? palette.count : nil
        if transparent { palette.append(SIMD3(0, 0, 0)) }

        var nearest = NearestColor(palette: Array(palette.prefix(transparent ? palette.count - 1 : palette.count)))
        var indices = [UInt8](repeating: 0, count: w * h)
        // Error rows: current and next, with a spare cell at each end.
        var errors = [SIMD3<Float>](repeating: .zero, count: (w + 2) * 2)
        for y in 0..<h {
            let forward = y % 2 == 0 || !dithering
            let current = (y % 2) * (w + 2), next = ((y + 1) % 2) * (w + 2)
            for x in 0..<(w + 2) { errors[next + x] = .zero }
            for step in 0..<w {
                let x = forward ? step : w - 1 - step
                let i = (y * w + x) * 4
                if let transparentIndex, rgba[i + 3] < 128 {
                    indices[y * w + x] = UInt8(transparentIndex)
                    continue
                }
                var wanted = SIMD3<Float>(Float(rgba[i]), Float(rgba[i + 1]), Float(rgba[i + 2]))
                if dithering { wanted += errors[current + x + 1] }
                wanted = wanted.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
                let index = nearest.index(of: wanted)
                indices[y * w + x] = UInt8(index)
                guard dithering else { continue }
                let chosen = palette[index]
                let error = wanted - SIMD3<Float>(Float(chosen.x), Float(chosen.y), Float(chosen.z))
                let ahead = forward ? 1 : -1
                errors[current + x + 1 + ahead] += error * (7.0 / 16)
                errors[next + x + 1 - ahead] += error * (3.0 / 16)
                errors[next + x + 1] += error * (5.0 / 16)
                errors[next + x + 1 + ahead] += error * (1.0 / 16)
            }
        }
        return IndexedImage(width: w, height: h, indices: indices, palette: palette, transparentIndex: transparentIndex)
    }
}

/// Median cut over histogram cells.
enum MedianCut {
    static func palette(cells: [Int], count: [Int32], sums: [SIMD3<Int64>], colors: Int) -> [SIMD3<UInt8>] {
        guard !cells.isEmpty else { return [] }
        func channel(_ cell: Int, _ c: Int) -> Int { (cell >> (10 - 5 * c)) & 31 }
        struct Box {
            var cells: [Int], population: Int64, axis = 0, range = -1
            init(_ cells: [Int], count: [Int32]) {
                self.cells = cells
                population = cells.reduce(0) { $0 + Int64(count[$1]) }
                for c in 0..<3 {
                    var lo = 31, hi = 0
                    for cell in cells { let v = (cell >> (10 - 5 * c)) & 31; lo = min(lo, v); hi = max(hi, v) }
                    if hi - lo > range { (axis, range) = (c, hi - lo) }
                }
            }
        }
        var boxes = [Box(cells, count: count)]
        while boxes.count < colors {
            // Split the box with the most pixels × widest range that can still be split.
            var pick = -1, score: Int64 = 0
            for (n, box) in boxes.enumerated() where box.cells.count > 1 {
                let s = box.population * Int64(box.range + 1)
                if s > score { (pick, score) = (n, s) }
            }
            guard pick >= 0 else { break }
            let box = boxes[pick], axis = box.axis
            let sorted = box.cells.sorted { (channel($0, axis), $0) < (channel($1, axis), $1) }
            var running: Int64 = 0, cut = 1
            for (n, cell) in sorted.enumerated() {
                running += Int64(count[cell])
                if running * 2 >= box.population { cut = max(1, min(sorted.count - 1, n + 1)); break }
            }
            boxes[pick] = Box(Array(sorted[..<cut]), count: count)
            boxes.append(Box(Array(sorted[cut...]), count: count))
        }
        return boxes.map { box in
            var total = SIMD3<Int64>.zero
            for cell in box.cells { total &+= sums[cell] }
            let n = max(1, box.population)
            return SIMD3(UInt8((total.x + n / 2) / n), UInt8((total.y + n / 2) / n), UInt8((total.z + n / 2) / n))
        }
    }
}

/// Nearest palette entry by squared RGB distance, remembered per 6-bit-per-channel cell.
struct NearestColor {
    let palette: [SIMD3<Float>]
    var cache: [Int16]

    init(palette: [SIMD3<UInt8>]) {
        self.palette = palette.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }
        cache = [Int16](repeating: -1, count: 1 << 18)
    }

    mutating func index(of color: SIMD3<Float>) -> Int {
        let q = SIMD3<Int>(Int(color.x) >> 2, Int(color.y) >> 2, Int(color.z) >> 2)
        let key = q.x << 12 | q.y << 6 | q.z
        if cache[key] >= 0 { return Int(cache[key]) }
        let centre = SIMD3<Float>(Float(q.x * 4 + 2), Float(q.y * 4 + 2), Float(q.z * 4 + 2))
        var best = 0, distance = Float.infinity
        for (n, p) in palette.enumerated() {
            let d = p - centre
            let e = (d * d).sum()
            if e < distance { (best, distance) = (n, e) }
        }
        cache[key] = Int16(best)
        return best
    }
}
