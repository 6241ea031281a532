extension Bitmap {
    /// This image resized to `width × height` by area averaging: each output pixel is the mean of the
    /// source area it covers, partial pixels weighted by their overlap (a box filter, the right one
    /// for shrinking: no source pixel is skipped, no aliasing). On premultiplied values; the scale
    /// is carried so point sizes stay. Enlarging repeats pixels (nearest).
    /// - Throws: ``BitmapError`` for a size below 1 × 1 or over the pixel limit.
    public func resized(width w: Int, height h: Int) throws(BitmapError) -> Bitmap {
        try Bitmap.validate(width: w, height: h, scale: scale * Double(w) / Double(width))
        return resampled(width: w, height: h)
    }

    /// This image shrunk to fit `longestSide` (``sizeFitting(longestSide:)``), or itself when it
    /// fits: never larger than the image, so no limit can refuse it.
    package func shrunk(toFit longestSide: Int) -> Bitmap {
        let (w, h) = sizeFitting(longestSide: longestSide)
        return (w, h) == (width, height) ? self : resampled(width: w, height: h)
    }

    /// ``resized(width:height:)`` for a size already validated (or no larger than this one's).
    func resampled(width w: Int, height h: Int) -> Bitmap {
        var out = Bitmap(validatedWidth: w, height: h, scale: scale * Double(w) / Double(width))
        // Per output index: the source indices and weights along one axis.
        func weights(from n: Int, to m: Int) -> [[(Int, Float)]] {
            let step = Double(n) / Double(m)
            return (0..<m).map { i in
                let a = Double(i) * step, b = Double(i + 1) * step
                var taps: [(Int, Float)] = []
                var k = Int(a)
                while Double(k) < b, k < n {
                    let overlap = min(b, Double(k + 1)) - max(a, Double(k))
                    if overlap > 0 { taps.append((k, Float(overlap / step))) }
                    k += 1
                }
                return taps.isEmpty ? [(min(n - 1, Int(a)), Float(1))] : taps
            }
        }
        let columns = weights(from: width, to: w), rows = weights(from: height, to: h)
        let count = width * 4
        withPixels { source in
            out.withMutablePixels { target in
                // Rows first: a weighted sum of source rows per output row, over all channels at once.
                var line = [Float](repeating: 0, count: count)
                line.withUnsafeMutableBufferPointer { acc in
                    for (y, taps) in rows.enumerated() {
                        for i in 0..<count { acc[i] = 0 }
                        for (row, weight) in taps {
                            let p = source.row(row)
                            for i in 0..<count { acc[i] += Float(p[i]) * weight }
                        }
                        let o = target.row(y)
                        for (x, taps) in columns.enumerated() {
                            var sum = SIMD4<Float>.zero
                            for (column, weight) in taps {
                                let c = column * 4
                                sum += SIMD4(acc[c], acc[c + 1], acc[c + 2], acc[c + 3]) * weight
                            }
                            let a = min(255, max(0, sum[3] + 0.5))
                            o[x * 4 + 3] = UInt8(a)
                            for c in 0..<3 { o[x * 4 + c] = UInt8(min(a.rounded(.down), max(0, sum[c] + 0.5))) }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The size that fits inside `longestSide × longestSide` keeping the aspect ratio (each side at
    /// least 1); the image's own size when it already fits.
    public func sizeFitting(longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide, longestSide > 0 else { return (width, height) }
        let f = Double(longestSide) / Double(longest)
        return (max(1, Int((Double(width) * f).rounded())), max(1, Int((Double(height) * f).rounded())))
    }
}
