/// A rectangle: origin top-left, y down. Points for components, pixels for kernels (the doc comment
/// of each API says which).
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// Origin (top-left) and size, in points or pixels as the API that takes it says.
    public var x: Double, y: Double, width: Double, height: Double

    /// A rectangle as given: nothing is checked (see ``isEmpty``).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A coordinate of an origin, points or pixels.
    public static let coordinateSpec = ParameterSpec(
        name: "position", unit: "pt", range: -1_000_000...1_000_000, defaultValue: 0, summary: "a coordinate in points")
    /// A width or height, points or pixels.
    public static let lengthSpec = ParameterSpec(
        name: "length", unit: "pt", range: 0...1_000_000, defaultValue: 0, summary: "a width or height in points")

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge, `x + width`.
    public var maxX: Double { x + width }
    /// The bottom edge, `y + height`.
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

    /// `(x, y, width, height)`, for messages.
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A rectangle of whole pixels inside a bitmap.
public struct PixelRect: Sendable, Hashable {
    /// Origin (top-left) and size, in pixels.
    public var x: Int, y: Int, width: Int, height: Int
    /// A rectangle as given: nothing is checked.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

extension Rect {
    /// Every coordinate times `scale` (points → pixels).
    public func scaled(by scale: Double) -> Rect {
        Rect(x: x * scale, y: y * scale, width: width * scale, height: height * scale)
    }

    /// Moved by `dx`, `dy`; the size is kept.
    public func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The whole pixels this rectangle (pixels) touches, edges rounded outward and bounded to ±2³⁰;
    /// nil when empty.
    public var outerPixelRect: PixelRect? {
        guard !isEmpty else { return nil }
        let bound = 1_073_741_824.0
        let x0 = max(-bound, min(bound, minX.rounded(.down))), y0 = max(-bound, min(bound, minY.rounded(.down)))
        let x1 = max(-bound, min(bound, maxX.rounded(.up))), y1 = max(-bound, min(bound, maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}

extension PixelRect {
    /// The pixels in both; nil when none.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Grown by `-amount` on every side (a negative amount grows).
    public func insetBy(_ amount: Int) -> PixelRect {
        PixelRect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Moved by `dx`, `dy` pixels; the size is kept.
    public func offset(by dx: Int, _ dy: Int) -> PixelRect { PixelRect(x: x + dx, y: y + dy, width: width, height: height) }
}
