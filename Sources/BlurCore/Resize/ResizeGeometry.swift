/// How an image is fitted to the width and height asked for (sharp's words).
public enum ResizeFit: String, Sendable, Hashable, CaseIterable {
    /// Fills the box, the aspect kept, the overflow cropped at ``ResizeGravity`` (the default).
    case cover
    /// Inside the box, the aspect kept, the rest of the box transparent.
    case contain
    /// Exactly the box, the aspect not kept.
    case fill
    /// As large as fits inside the box, the aspect kept: the output may be smaller on one side.
    case inside
    /// As small as covers the box, the aspect kept: the output may be larger on one side.
    case outside

    /// The parameter table entry: `fit`, default `cover`.
    public static let spec = ChoiceSpec<ResizeFit>(
        name: "fit", defaultValue: .cover, summary: "how the image meets a box of width × height (as sharp's fit)")
}

/// Which part of the image a crop (`cover`) keeps, or where a `contain` places it in its box.
public enum ResizeGravity: Sendable, Hashable {
    /// An edge or corner, or the centre: where the kept part lies, as a fraction 0…1 of the room on
    /// each axis (0 left or top, 0.5 centre, 1 right or bottom).
    case position(x: Double, y: Double)
    /// The part of highest detail, colourfulness and skin tones (libvips's `attention`).
    case attention

    /// The parameter table entry: `gravity`, default `centre`.
    public static let spec = ChoiceSpec<ResizeGravity>(
        name: "gravity",
        choices: [
            .init(["centre", "center", "ce"], .position(x: 0.5, y: 0.5)), .init(["north", "no", "top"], .position(x: 0.5, y: 0)),
            .init(["northeast", "noea"], .position(x: 1, y: 0)), .init(["east", "ea", "right"], .position(x: 1, y: 0.5)),
            .init(["southeast", "soea"], .position(x: 1, y: 1)), .init(["south", "so", "bottom"], .position(x: 0.5, y: 1)),
            .init(["southwest", "sowe"], .position(x: 0, y: 1)), .init(["west", "we", "left"], .position(x: 0, y: 0.5)),
            .init(["northwest", "nowe"], .position(x: 0, y: 0)), .init(["attention", "sm", "smart"], .attention),
        ],
        defaultValue: .position(x: 0.5, y: 0.5),
        summary: "which part a crop keeps, or where contain places the image (attention: the most detailed and colourful part)")
}

/// A resize as asked: a width and/or height in CSS pixels, the device pixel ratio they are
/// multiplied by, how the image fits them, where a crop falls, and whether it may grow.
public struct Resize: Sendable, Hashable {
    /// Width and height asked for, before ``dpr``; nil: from the other and the image's aspect.
    public var width: Int?, height: Int?
    /// How the image meets the box.
    public var fit: ResizeFit
    /// Which part a crop keeps, or where `contain` places the image.
    public var gravity: ResizeGravity
    /// Device pixel ratio, 1…4: the output is width × dpr by height × dpr.
    public var dpr: Double
    /// Whether an image smaller than the box is enlarged; by default it is not.
    public var enlarge: Bool

    /// Widths and heights, in pixels (before the device pixel ratio).
    public static let sideSpec = ParameterSpec(
        name: "width", unit: "px", range: 1...16384, defaultValue: nil, integer: true, summary: "the width asked for")
    /// The device pixel ratio.
    public static let dprSpec = ParameterSpec(
        name: "dpr", unit: "×", range: 1...4, defaultValue: 1, summary: "device pixel ratio: the output is width × dpr by height × dpr")

    /// A resize as given; at least one of `width` and `height`.
    public init(
        width: Int?, height: Int?, fit: ResizeFit = .cover, gravity: ResizeGravity = .position(x: 0.5, y: 0.5), dpr: Double = 1, enlarge: Bool = false
    ) {
        self.width = width
        self.height = height
        self.fit = fit
        self.gravity = gravity
        self.dpr = dpr
        self.enlarge = enlarge
    }

    /// Where an image of `sourceWidth × sourceHeight` goes: the size it is scaled to, the output's
    /// (the canvas) and where the canvas lies on the scaled image (negative: a margin, `contain`).
    public func plan(sourceWidth w: Int, sourceHeight h: Int) -> ResizePlan {
        let sw = Double(w), sh = Double(h)
        let tw = width.map { max(1, Int((Double($0) * dpr).rounded())) }, th = height.map { max(1, Int((Double($0) * dpr).rounded())) }
        let cap = enlarge ? Double.infinity : 1
        func side(_ length: Double, _ factor: Double) -> Int { max(1, Int((length * factor).rounded())) }
        var scaledW: Int, scaledH: Int, canvasW: Int, canvasH: Int
        switch (tw, th) {
        case let (tw?, th?):
            switch fit {
            case .fill:
                scaledW = enlarge ? tw : min(tw, w)
                scaledH = enlarge ? th : min(th, h)
                (canvasW, canvasH) = (scaledW, scaledH)
            case .cover, .outside:
                let f = min(cap, max(Double(tw) / sw, Double(th) / sh))
                (scaledW, scaledH) = (side(sw, f), side(sh, f))
                // Rounding never leaves the scaled image short of the box it covers.
                if f == max(Double(tw) / sw, Double(th) / sh) { (scaledW, scaledH) = (max(scaledW, tw), max(scaledH, th)) }
                if fit == .outside {
                    (canvasW, canvasH) = (scaledW, scaledH)
                } else if scaledW >= tw && scaledH >= th {
                    (canvasW, canvasH) = (tw, th)
                } else {
                    // Not enlarged: the largest box of the asked aspect the image holds.
                    canvasW = max(1, min(scaledW, Int((Double(scaledH) * Double(tw) / Double(th)).rounded())))
                    canvasH = max(1, min(scaledH, Int((Double(scaledW) * Double(th) / Double(tw)).rounded())))
                }
            case .contain, .inside:
                let f = min(cap, min(Double(tw) / sw, Double(th) / sh))
                (scaledW, scaledH) = (min(side(sw, f), tw), min(side(sh, f), th))
                (canvasW, canvasH) = fit == .contain ? (tw, th) : (scaledW, scaledH)
            }
        case let (tw?, nil):
            let f = min(cap, Double(tw) / sw)
            (scaledW, scaledH) = (side(sw, f), side(sh, f))
            (canvasW, canvasH) = (scaledW, scaledH)
        case let (nil, th?):
            let f = min(cap, Double(th) / sh)
            (scaledW, scaledH) = (side(sw, f), side(sh, f))
            (canvasW, canvasH) = (scaledW, scaledH)
        case (nil, nil):
            (scaledW, scaledH, canvasW, canvasH) = (w, h, w, h)
        }
        let (gx, gy): (Double, Double)
        switch gravity {
        case let .position(x, y): (gx, gy) = (x, y)
        case .attention: (gx, gy) = (0.5, 0.5)
        }
        // The canvas's offset on the scaled image: the room (positive: cropped; negative: margin) at
        // the gravity, rounded towards zero (an odd margin leaves its extra pixel after the image,
        // as libvips's `gravity` and so sharp's `contain` do).
        let ox = Int((Double(scaledW - canvasW) * gx).rounded(.towardZero)), oy = Int((Double(scaledH - canvasH) * gy).rounded(.towardZero))
        return ResizePlan(
            scaledWidth: scaledW, scaledHeight: scaledH, width: canvasW, height: canvasH, x: ox, y: oy,
            attention: gravity == .attention && (scaledW > canvasW || scaledH > canvasH))
    }
}

/// Where a resize puts an image: scaled to `scaledWidth × scaledHeight`, of which the output shows
/// `width × height` pixels from (`x`, `y`) on (negative: that many transparent pixels first).
public struct ResizePlan: Sendable, Hashable {
    /// The size the whole image is scaled to.
    public var scaledWidth: Int, scaledHeight: Int
    /// The output's size (the canvas).
    public var width: Int, height: Int
    /// The canvas's top-left corner on the scaled image (negative: a transparent margin).
    public var x: Int, y: Int
    /// The crop is placed by ``ResizeGravity/attention`` once the scaled image is known.
    public var attention: Bool

    /// Nothing to do: the image as it is.
    public func isIdentity(sourceWidth: Int, sourceHeight: Int) -> Bool {
        scaledWidth == sourceWidth && scaledHeight == sourceHeight && width == sourceWidth && height == sourceHeight && x == 0 && y == 0
    }

    /// The JPEG DCT reduction (1, 2, 4 or 8) for a source of `width × height`: shrink-on-load as
    /// libvips chooses it, the largest that leaves the Lanczos reduce at least a factor of two on
    /// both axes (a DCT reduction is a block filter; the reduce after it makes the quality).
    public func reduction(width: Int, height: Int) -> Int {
        let shrink = min(Double(width) / Double(scaledWidth), Double(height) / Double(scaledHeight))
        var r = 8
        while r > 1 && shrink < Double(2 * r) { r /= 2 }
        return r
    }
}
