/// Anti-aliased coverage of a rounded rectangle, for clipping.
public enum RoundedRect {
    /// Coverage (0…1) of each pixel of `region` (pixels) by the rounded rectangle `rect` (pixels)
    /// with corner `radius` (pixels, clamped to half the shorter side), row-major. A pixel is covered
    /// by the fraction of a one-pixel ramp across the shape's edge at its centre.
    public static func coverage(of rect: Rect, radius: Double, in region: PixelRect) -> [Float] {
        let r = max(0, min(radius.isFinite ? radius : 0, min(rect.width, rect.height) / 2))
        let cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2
        let hx = rect.width / 2 - r, hy = rect.height / 2 - r
        var out = [Float](repeating: 0, count: region.width * region.height)
        for row in 0..<region.height {
            let py = Double(region.y + row) + 0.5
            for column in 0..<region.width {
                let px = Double(region.x + column) + 0.5
                let qx = abs(px - cx) - hx, qy = abs(py - cy) - hy
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                let distance = outside + min(max(qx, qy), 0) - r  // negative inside
                out[row * region.width + column] = Float(min(1, max(0, 0.5 - distance)))
            }
        }
        return out
    }
}
