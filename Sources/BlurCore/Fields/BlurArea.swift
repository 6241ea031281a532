/// One area of a privacy blur (`blur-areas`): a rectangle, its corners rounded or not, or an
/// ellipse, placed in points or in fractions of the image, with its own σ and feather or the
/// operation's. Inside it the blur is full; across the feather, outside it, σ falls linearly to 0.
public struct BlurArea: Sendable, Hashable {
    /// The shape's outline.
    public enum Shape: String, Sendable, Hashable, CaseIterable {
        /// A rectangle (corners rounded by ``BlurArea/cornerRadius``).
        case rect
        /// The ellipse inscribed in the rectangle.
        case ellipse
    }

    /// A coordinate or a side: points, or a fraction of the image's width (x, width) or height (y, height).
    public enum Coordinate: Sendable, Hashable {
        /// Points.
        case points(Double)
        /// A fraction of the image's side (`25%` is 0.25).
        case fraction(Double)

        /// Points along a side of `side` points.
        public func points(along side: Double) -> Double {
            switch self {
            case let .points(v): return v
            case let .fraction(f): return f * side
            }
        }

        /// `40` or `25%`, each number written by `number`.
        func written(_ number: (Double) -> String) -> String {
            switch self {
            case let .points(v): return number(v)
            case let .fraction(f): return number(f * 100) + "%"
            }
        }
    }

    /// The most areas one blur takes.
    public static let most = 10_000
    /// σ of an area, points (the operation's `sigma` when an area gives none).
    public static let sigmaSpec = ParameterSpec(
        name: "sigma", unit: "pt", range: GaussianBlur.sigmaSpec.range, defaultValue: 12, summary: "σ inside an area, in points (× scale for pixels)")
    /// An area's feather, points.
    public static let featherSpec = ParameterSpec(
        name: "feather", unit: "pt", range: 0...1_000_000, defaultValue: 0, summary: "the band outside an area across which σ falls to 0, in points")

    /// The outline: a rectangle or the ellipse inside it.
    public var shape: Shape
    /// The left edge of the rectangle (points, or a fraction of the image's width).
    public var x: Coordinate
    /// The top edge (points, or a fraction of the image's height).
    public var y: Coordinate
    /// The width (points, or a fraction of the image's width), positive.
    public var width: Coordinate
    /// The height (points, or a fraction of the image's height), positive.
    public var height: Coordinate
    /// A rectangle's corner radius, points (0: square; at most half the shorter side).
    public var cornerRadius: Double
    /// σ inside, points; nil: the operation's.
    public var sigma: Double?
    /// The feather, points; nil: the operation's.
    public var feather: Double?

    /// An area as given.
    public init(
        shape: Shape = .rect, x: Coordinate, y: Coordinate, width: Coordinate, height: Coordinate, cornerRadius: Double = 0, sigma: Double? = nil,
        feather: Double? = nil
    ) {
        self.shape = shape
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
        self.sigma = sigma
        self.feather = feather
    }

    /// How areas are written, for help texts and messages.
    public static let forms =
        "areas separated by ;, each [rect|ellipse:]X,Y,W,H[,CORNER][:SIGMA[:FEATHER]] — X,Y,W,H in points or percentages of the image "
        + "(10%), CORNER a rectangle's corner radius in points, SIGMA and FEATHER in points (the operation's sigma and feather when left out)"

    /// The area as the parser reads it back.
    public var text: String { written(formatNumber) }

    /// The area in the parser's form, each number written by `number`.
    func written(_ number: (Double) -> String) -> String {
        var out = shape.rawValue + ":" + [x, y, width, height].map { $0.written(number) }.joined(separator: ",")
        if cornerRadius > 0 { out += "," + number(cornerRadius) }
        if let sigma { out += ":" + number(sigma) } else if feather != nil { out += ":" }
        if let feather { out += ":" + number(feather) }
        return out
    }

    /// `text` as areas, each checked; errors name `name`.
    static func parse(_ text: String, name: String, most: Int) throws(ParameterError) -> [BlurArea] {
        let items = text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true).map {
            String(decoding: $0, as: UTF8.self).trimmingSpaces
        }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw .invalidForm(name: name, text: text, expected: "at least one area: " + forms) }
        guard items.count <= most else {
            throw .invalidForm(name: name, text: "\(items.count) areas", expected: "at most \(most) areas")
        }
        var areas: [BlurArea] = []
        areas.reserveCapacity(items.count)
        for item in items { areas.append(try area(item, name: name)) }
        return areas
    }

    private static func area(_ item: String, name: String) throws(ParameterError) -> BlurArea {
        var fields = item.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingSpaces
        }
        func fail(_ why: String) -> ParameterError { .invalidForm(name: name, text: item, expected: why + " (" + forms + ")") }
        var shape = Shape.rect
        if let first = fields.first, let named = Shape.allCases.first(where: { first.sameBytes(ignoringASCIICase: $0.rawValue) }) {
            shape = named
            fields.removeFirst()
        } else if let first = fields.first, first.sameBytes(ignoringASCIICase: "rectangle") {
            fields.removeFirst()
        } else if let first = fields.first, first.utf8.contains(where: { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }),
            !first.utf8.contains(UInt8(ascii: ","))
        {
            throw fail("a shape of rect or ellipse")
        }
        guard fields.count >= 1, fields.count <= 3 else { throw fail("a rectangle, then at most a sigma and a feather") }
        let numbers = fields[0].utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingSpaces
        }
        guard numbers.count == 4 || (numbers.count == 5 && shape == .rect) else {
            throw fail(shape == .rect ? "X,Y,W,H or X,Y,W,H,CORNER" : "X,Y,W,H")
        }
        var coordinates: [Coordinate] = []
        for (i, part) in numbers.prefix(4).enumerated() {
            let percent = part.endsWithBytes(of: "%")
            let digits = String(decoding: part.utf8.dropLast(percent ? 1 : 0), as: UTF8.self)
            guard let value = parseDecimal(digits), value.isFinite, Rect.coordinateSpec.range.contains(value) else {
                throw fail(
                    "numbers from \(formatNumber(Rect.coordinateSpec.range.lowerBound)) to \(formatNumber(Rect.coordinateSpec.range.upperBound)) (points) or percentages for X,Y,W,H"
                )
            }
            if i >= 2 && !(value > 0) { throw fail("a positive width and height") }
            coordinates.append(percent ? .fraction(value / 100) : .points(value))
        }
        var corner = 0.0
        if numbers.count == 5 {
            guard let value = try? featherSpec.named("corner").parse(numbers[4]) else {
                throw fail("a corner radius of \(formatNumber(featherSpec.range.lowerBound))…\(formatNumber(featherSpec.range.upperBound)) points")
            }
            corner = value
        }
        var sigma: Double?, feather: Double?
        if fields.count >= 2, !fields[1].isEmpty {
            guard let value = try? sigmaSpec.parse(fields[1]) else { throw fail("a sigma \(Parameter.bounds(sigmaSpec))") }
            sigma = value
        }
        if fields.count == 3, !fields[2].isEmpty {
            guard let value = try? featherSpec.parse(fields[2]) else { throw fail("a feather \(Parameter.bounds(featherSpec))") }
            feather = value
        }
        return BlurArea(
            shape: shape, x: coordinates[0], y: coordinates[1], width: coordinates[2], height: coordinates[3], cornerRadius: corner,
            sigma: sigma, feather: feather)
    }
}

/// `blur-areas`' effect: areas, and the σ and feather of those that give none.
public struct BlurAreasEffect: Sendable, Hashable {
    /// The areas, in the order given (the order does not matter: each pixel takes the largest σ).
    public var areas: [BlurArea]
    /// σ of an area that gives none, points.
    public var sigma: Double = BlurArea.sigmaSpec.defaultValue!
    /// The feather of an area that gives none, points.
    public var feather: Double = BlurArea.featherSpec.defaultValue!

    /// Areas with the default σ and feather.
    public init(areas: [BlurArea]) { self.areas = areas }

    /// The σ field over `frame` (points; the whole image when nil) of a `width × height` image at
    /// `scale` pixels per point, its corners rounded by `cornerRadius` points: each area placed in
    /// the frame (percentages of the frame's sides) in pixels, σ capped at the largest a blur takes.
    package func field(width: Int, height: Int, scale: Double, frame: Rect? = nil, cornerRadius: Double = 0) -> AreaField {
        let box = frame ?? Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        let w = box.width, h = box.height, cap = GaussianBlur.sigmaSpec.range.upperBound
        let region = box.pixelRect(scale: scale, clippedTo: width, height) ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        let shapes = (box.pixelRect(scale: scale, clippedTo: width, height) == nil ? [] : areas).map { area -> AreaField.Shape in
            let x = box.x + area.x.points(along: w), y = box.y + area.y.points(along: h)
            let kind: AreaField.Shape.Kind = area.shape == .ellipse ? .ellipse : .rectangle(radius: area.cornerRadius * scale)
            return AreaField.Shape(
                kind: kind, minX: x * scale, minY: y * scale, maxX: (x + area.width.points(along: w)) * scale,
                maxY: (y + area.height.points(along: h)) * scale, sigma: min(cap, (area.sigma ?? sigma) * scale),
                feather: (area.feather ?? feather) * scale)
        }
        return AreaField(shapes: shapes, region: region, frame: box.scaled(by: scale), cornerRadius: max(0, cornerRadius) * scale)
    }

    /// `image` with the areas blurred inside `frame` (points; the whole image when nil), its corners
    /// rounded by `cornerRadius` points.
    package func render(
        _ image: Bitmap, frame: Rect? = nil, cornerRadius: Double = 0, threads: Int?, checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        let field = field(width: image.width, height: image.height, scale: image.scale, frame: frame, cornerRadius: cornerRadius)
        return try FieldBlur.render(image, field: field, threads: threads, checkpoint: checkpoint)
    }
}
