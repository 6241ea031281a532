/// A vector outline: subpaths of straight lines and quadratic/cubic Bézier curves, filled with the
/// non-zero winding rule by ``coverage(in:transform:)``. Coordinates are in whatever unit the caller
/// draws in (points for layers); y grows downward.
public struct Path: Sendable, Hashable {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        /// Starts a new subpath at the point.
        case move(to: Point)
        /// A straight line from the current point.
        case line(to: Point)
        /// A quadratic Bézier curve from the current point, pulled towards `control`.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier curve from the current point: `control1` leaves it, `control2` arrives.
        case curve(to: Point, control1: Point, control2: Point)
        /// Closes the subpath back to its first point, where the next segment starts unless a move follows.
        case close
    }

    /// The steps, in drawing order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}
    /// A path of these steps.
    public init(_ elements: [Element]) { self.elements = elements }

    /// Starts a new subpath at `p`.
    public mutating func move(to p: Point) { elements.append(.move(to: p)) }
    /// A straight line from the current point to `p`.
    public mutating func addLine(to p: Point) { elements.append(.line(to: p)) }
    /// A quadratic Bézier curve from the current point to `p`, pulled towards `control`.
    public mutating func addQuadCurve(to p: Point, control: Point) { elements.append(.quadCurve(to: p, control: control)) }
    /// A cubic Bézier curve from the current point to `p`, with handles `control1` and `control2`.
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        elements.append(.curve(to: p, control1: control1, control2: control2))
    }
    /// Closes the subpath back to its first point.
    public mutating func closeSubpath() { elements.append(.close) }

    /// A rectangle, clockwise from the top-left corner.
    public init(rect r: Rect) {
        self.init([
            .move(to: Point(r.minX, r.minY)), .line(to: Point(r.maxX, r.minY)), .line(to: Point(r.maxX, r.maxY)),
            .line(to: Point(r.minX, r.maxY)), .close,
        ])
    }

    /// A rectangle with circular corners of `cornerRadius` (clamped to half the shorter side; each
    /// corner a cubic with the usual 0.5523 handle).
    public init(roundedRect r: Rect, cornerRadius: Double) {
        let radius = max(0, min(cornerRadius.isFinite ? cornerRadius : 0, min(r.width, r.height) / 2))
        guard radius > 0 else { self.init(rect: r); return }
        let k = radius * (1 - Path.kappa)
        self.init([
            .move(to: Point(r.minX + radius, r.minY)),
            .line(to: Point(r.maxX - radius, r.minY)),
            .curve(to: Point(r.maxX, r.minY + radius), control1: Point(r.maxX - k, r.minY), control2: Point(r.maxX, r.minY + k)),
            .line(to: Point(r.maxX, r.maxY - radius)),
            .curve(to: Point(r.maxX - radius, r.maxY), control1: Point(r.maxX, r.maxY - k), control2: Point(r.maxX - k, r.maxY)),
            .line(to: Point(r.minX + radius, r.maxY)),
            .curve(to: Point(r.minX, r.maxY - radius), control1: Point(r.minX + k, r.maxY), control2: Point(r.minX, r.maxY - k)),
            .line(to: Point(r.minX, r.minY + radius)),
            .curve(to: Point(r.minX + radius, r.minY), control1: Point(r.minX, r.minY + k), control2: Point(r.minX + k, r.minY)),
            .close,
        ])
    }

    /// The ellipse inscribed in `r`: four cubics (radial error under 0.03 % of the radius).
    public init(ellipseIn r: Rect) {
        let (cx, cy, rx, ry) = (r.x + r.width / 2, r.y + r.height / 2, r.width / 2, r.height / 2)
        let (kx, ky) = (rx * Path.kappa, ry * Path.kappa)
        self.init([
            .move(to: Point(cx + rx, cy)),
            .curve(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry)),
            .curve(to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky)),
            .curve(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry)),
            .curve(to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky)),
            .close,
        ])
    }

    /// 4(√2 − 1)/3: the handle length of a cubic quarter circle.
    static let kappa = 0.5522847498307936

    /// The smallest rectangle holding every point and control point; nil for an empty path.
    public var controlBounds: Rect? {
        var points: [Point] = []
        for element in elements {
            switch element {
            case let .move(p), let .line(p): points.append(p)
            case let .quadCurve(p, c): points += [p, c]
            case let .curve(p, c1, c2): points += [p, c1, c2]
            case .close: break
            }
        }
        guard let first = points.first else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in points { (x0, y0, x1, y1) = (min(x0, p.x), min(y0, p.y), max(x1, p.x), max(y1, p.y)) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Every subpath as a closed polygon after `transform`, curves flattened to within 1/20 unit of
    /// the output space.
    package func polygons(_ transform: (Point) -> Point) -> [[Point]] {
        var polygons: [[Point]] = [], current: [Point] = []
        func finish() { if current.count > 2 { polygons.append(current) }; current = [] }
        for element in elements {
            switch element {
            case let .move(p):
                finish(); current = [transform(p)]
            case let .line(p):
                if current.isEmpty { current = [transform(p)] } else { current.append(transform(p)) }
            case let .quadCurve(p, c):
                guard let start = current.last else { current = [transform(p)]; continue }
                let (q1, q2) = (transform(c), transform(p))
                let steps = Path.steps(deviation: (start - q1 * 2 + q2).length / 4)
                for i in 1...steps {
                    let t = Double(i) / Double(steps), u = 1 - t
                    current.append(start * (u * u) + q1 * (2 * u * t) + q2 * (t * t))
                }
            case let .curve(p, c1, c2):
                guard let start = current.last else { current = [transform(p)]; continue }
                let (q1, q2, q3) = (transform(c1), transform(c2), transform(p))
                let deviation = max((start - q1 * 2 + q2).length, (q1 - q2 * 2 + q3).length) * 0.75
                let steps = Path.steps(deviation: deviation)
                for i in 1...steps {
                    let t = Double(i) / Double(steps), u = 1 - t
                    current.append(start * (u * u * u) + q1 * (3 * u * u * t) + q2 * (3 * u * t * t) + q3 * (t * t * t))
                }
            case .close:
                let start = current.first
                finish()
                if let start { current = [start] }
            }
        }
        finish()
        return polygons
    }

    /// Segments for a curve whose flattening error with n segments is at most `deviation` / n²
    /// (¼·|p₀ − 2p₁ + p₂| for a quadratic, ¾ of the larger second difference for a cubic): ≤ 1/20.
    private static func steps(deviation: Double) -> Int {
        let n = (deviation * 20).squareRoot().rounded(.up)
        guard n.isFinite else { return 1 }
        return Int(max(1, min(1000, n)))  // clamped as a Double: a huge curve must not overflow Int
    }
}

/// A point (or vector) in a path's coordinates.
public struct Point: Sendable, Hashable {
    /// The coordinates, in the path's unit; y grows downward.
    public var x: Double, y: Double
    /// The point (`x`, `y`).
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The point (`x`, `y`).
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
}
