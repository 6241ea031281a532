/// The union of feathered shapes, each with its own σ: σ at a pixel is the largest of each shape's
/// σ × its coverage there — 1 inside the shape, falling linearly to 0 across the feather outside
/// it (a hard edge without one: the pixel's centre inside or not). What `blur-areas` draws.
package final class AreaField: SigmaField {
    /// One shape in pixels.
    package struct Shape: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// A rectangle with corners rounded by `radius` pixels (0: square).
            case rectangle(radius: Double)
            /// The ellipse inscribed in the rectangle.
            case ellipse
        }
        package var kind: Kind
        package var minX: Double
        package var minY: Double
        package var maxX: Double
        package var maxY: Double
        /// σ inside the shape, pixels.
        package var sigma: Double
        /// The band outside the shape across which σ falls to 0, pixels.
        package var feather: Double

        package init(kind: Kind, minX: Double, minY: Double, maxX: Double, maxY: Double, sigma: Double, feather: Double) {
            self.kind = kind
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
            self.sigma = sigma
            self.feather = feather
        }

        /// The distance from `(x, y)` to the shape, 0 inside.
        func distance(_ x: Double, _ y: Double) -> Double {
            let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
            let hw = (maxX - minX) / 2, hh = (maxY - minY) / 2
            let dx = abs(x - cx), dy = abs(y - cy)
            switch kind {
            case let .rectangle(radius):
                let r = min(max(0, radius), hw, hh)
                let qx = dx - (hw - r), qy = dy - (hh - r)
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                return max(0, outside - r)
            case .ellipse:
                guard hw > 0, hh > 0 else { return .infinity }
                let k = ((dx / hw) * (dx / hw) + (dy / hh) * (dy / hh)).squareRoot()
                guard k > 1 else { return 0 }
                // Along the ray from the centre: the part beyond the boundary.
                return (dx * dx + dy * dy).squareRoot() * (k - 1) / k
            }
        }

        /// The shape's coverage at `(x, y)`: 1 inside, linear to 0 across the feather.
        func coverage(_ x: Double, _ y: Double) -> Double {
            let d = distance(x, y)
            if d <= 0 { return 1 }
            return feather > 0 ? max(0, 1 - d / feather) : 0
        }

        /// The pixels it may touch: its rectangle grown by the feather, in whole pixels.
        var reach: (x0: Int, y0: Int, x1: Int, y1: Int) {
            let f = max(0, feather)
            return (
                Int((minX - f).rounded(.down)) - 1, Int((minY - f).rounded(.down)) - 1,
                Int((maxX + f).rounded(.up)) + 1, Int((maxY + f).rounded(.up)) + 1
            )
        }
    }

    package let region: PixelRect
    package let shapes: [Shape]
    /// The frame's rounded corners (a scene layer's): pixels outside them keep σ 0; nil: square.
    private let corners: Shape?
    package let maximumSigma: Double
    /// Per shape, the pixels it may touch, clipped to the region (nil: none).
    private let reaches: [PixelRect?]

    /// The union of `shapes` over `region`, whose corners are rounded by `cornerRadius` pixels.
    package init(shapes: [Shape], region: PixelRect, frame: Rect? = nil, cornerRadius: Double = 0) {
        self.region = region
        corners =
            cornerRadius > 0
            ? frame.map {
                Shape(kind: .rectangle(radius: cornerRadius), minX: $0.minX, minY: $0.minY, maxX: $0.maxX, maxY: $0.maxY, sigma: 0, feather: 0)
            }
            : nil
        let kept = shapes.filter { $0.sigma > 0 && $0.maxX > $0.minX && $0.maxY > $0.minY }
        self.shapes = kept
        maximumSigma = kept.reduce(0) { max($0, $1.sigma) }
        reaches = kept.map { shape in
            let r = shape.reach
            return PixelRect(x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0).grown(by: 0, clippedTo: region)
        }
    }

    package func sigmas(row y: Int, columns: Range<Int>, into out: UnsafeMutablePointer<Double>) {
        for i in 0..<columns.count { out[i] = 0 }
        let cy = Double(y) + 0.5
        // The σ every pixel of the row has reached: a square-cornered rectangle across the whole row
        // lifts it, and a shape of no more σ than that changes nothing (ten thousand areas over the
        // whole image cost one).
        var floor = 0.0
        let left = Double(columns.lowerBound) + 0.5, right = Double(columns.upperBound) - 0.5
        for (shape, reach) in zip(shapes, reaches) {
            guard let reach, reach.rows.contains(y), shape.sigma > floor else { continue }
            if case let .rectangle(radius) = shape.kind, radius <= 0, shape.minX <= left, shape.maxX >= right, shape.minY <= cy, shape.maxY >= cy {
                for i in 0..<columns.count where out[i] < shape.sigma { out[i] = shape.sigma }
                floor = shape.sigma
                continue
            }
            let lo = max(reach.x, columns.lowerBound), hi = min(reach.x + reach.width, columns.upperBound)
            guard hi > lo else { continue }
            for x in lo..<hi {
                let c = shape.coverage(Double(x) + 0.5, cy)
                guard c > 0 else { continue }
                let s = shape.sigma * c, i = x - columns.lowerBound
                if s > out[i] { out[i] = s }
            }
        }
        if let corners {
            for x in columns where out[x - columns.lowerBound] > 0 && corners.distance(Double(x) + 0.5, cy) > 0 { out[x - columns.lowerBound] = 0 }
        }
    }

    /// Each area that reaches σ `low`, its feather included.
    package func bounds(sigmaFrom low: Double, through high: Double) -> [PixelRect] {
        if low <= 0 { return [region] }
        var boxes: [PixelRect] = []
        for (shape, reach) in zip(shapes, reaches) where shape.sigma >= low {
            if let reach { boxes.append(reach) }
        }
        return boxes
    }
}
