extension Bitmap {
    /// Draws a linear gradient source-over into `region` (pixels), each pixel weighted by
    /// `coverage` (row-major, 0…1; nil = 1). `colors` are evenly spaced along the line from `start`
    /// (pixel coordinates of this bitmap) to `start + vector`, mixed on premultiplied components;
    /// beyond the ends the end colours hold. A line of zero length paints the first colour.
    public mutating func fillLinearGradient(
        _ region: PixelRect, colors: [Color], from start: (x: Double, y: Double), along vector: (x: Double, y: Double),
        coverage: [Float]? = nil
    ) throws(BitmapError) {
        guard !colors.isEmpty, region.width > 0, region.height > 0 else { return }
        requireInside(region)
        var strip = try Bitmap(width: region.width, height: region.height)
        let (dx, dy) = vector, length = dx * dx + dy * dy
        strip.withMutablePixels { pixels in
            for y in 0..<region.height {
                let row = pixels.row(y)
                for x in 0..<region.width {
                    let px = Double(region.x + x) + 0.5 - start.x, py = Double(region.y + y) + 0.5 - start.y
                    let t = length > 0 ? min(1, max(0, (px * dx + py * dy) / length)) : 0
                    let position = t * Double(colors.count - 1), i = min(colors.count - 1, Int(position))
                    let c = i + 1 < colors.count ? colors[i].mixed(with: colors[i + 1], at: position - Double(i)) : colors[i]
                    let a = UInt8((c.alpha * 255).rounded())
                    func byte(_ v: Double) -> UInt8 { min(a, UInt8((v * c.alpha * 255).rounded())) }
                    (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3]) = (byte(c.red), byte(c.green), byte(c.blue), a)
                }
            }
        }
        composite(strip, at: region, coverage: coverage)
    }
}
