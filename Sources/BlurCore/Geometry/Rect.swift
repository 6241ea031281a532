/// A rectangle: origin top-left, y down. Points for components, pixels for kernels (the doc comment
/// of each API says which).
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// True for a zero, negative or non-finite size, or a non-finite origin.
    public var isEmpty: Bool {
        !(width > 0 && height > 0 && width.isFinite && height.isFinite && x.isFinite && y.isFinite)
    }

    /// This rectangle scaled by `scale` (points → pixels), its edges rounded to the nearest pixel
    /// edge, then clipped to `0..<width × 0..<height`. Nil when nothing is left.
    public func pixelRect(scale: Double, clippedTo width: Int, _ height: Int) -> PixelRect? {
        guard !isEmpty, scale.isFinite, scale > 0 else { return nil }
        let x0 = max(0, min(Double(width), (minX * scale).rounded()))
        let y0 = max(0, min(Double(height), (minY * scale).rounded()))
        let x1 = max(0, min(Double(width), (maxX * scale).rounded()))
        let y1 = max(0, min(Double(height), (maxY * scale).rounded()))
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A rectangle of whole pixels inside a bitmap.
public struct PixelRect: Sendable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}
