/// A progressive blur along any direction, from `start` to `stop` (imgproxy's
/// `progressive_blur:σ:direction:start:stop`): σ is the minimum radius before `start`, the maximum
/// after `stop` and linear between, where a pixel's place t runs from 0 at the first corner of the
/// region on the clear side to 1 at the last on the full side. The dimming follows the same ramp.
///
/// The angle names the way the blur fades, clockwise, as the direction words do: 0° is `down` (full
/// at the top, fading towards the bottom edge), 90° `right`, 180° `up`, 270° `left`.
public struct ProgressiveRamp: Sendable, Hashable {
    /// The parameter table entry: `angle`, degrees, −360…360, no default (the direction word's).
    public static let angleSpec = ParameterSpec(
        name: "angle", unit: "°", range: -360...360, defaultValue: nil,
        summary: "the way the blur fades, clockwise: 0 is down (full at the top), 90 right, 180 up, 270 left")
    /// The parameter table entry: `start`, 0…1, default 0.
    public static let startSpec = ParameterSpec(
        name: "start", unit: "", range: 0...1, defaultValue: 0, summary: "where the blur starts to grow, 0…1 from the clear end")
    /// The parameter table entry: `stop`, 0…1, default 1.
    public static let stopSpec = ParameterSpec(
        name: "stop", unit: "", range: 0...1, defaultValue: 1, summary: "where the blur reaches its maximum, 0…1 from the clear end")

    /// Degrees, clockwise; 0 is `down`.
    public var angle: Double
    /// Where σ starts to grow, 0…1.
    public var start: Double = ProgressiveRamp.startSpec.defaultValue!
    /// Where σ reaches the maximum, 0…1, not before `start`.
    public var stop: Double = ProgressiveRamp.stopSpec.defaultValue!

    /// A ramp at `angle` degrees from `start` to `stop`.
    public init(angle: Double, start: Double = ProgressiveRamp.startSpec.defaultValue!, stop: Double = ProgressiveRamp.stopSpec.defaultValue!) {
        self.angle = angle
        self.start = start
        self.stop = stop
    }

    /// This ramp, if its numbers are inside their tables and `start` ≤ `stop`.
    public func validated() throws(ParameterError) -> ProgressiveRamp {
        _ = try ProgressiveRamp.angleSpec.validate(angle)
        _ = try ProgressiveRamp.startSpec.validate(start)
        _ = try ProgressiveRamp.stopSpec.validate(stop)
        guard start <= stop else {
            throw .invalidForm(
                name: ProgressiveRamp.startSpec.name, text: formatNumber(start),
                expected: "a start at or before the stop (\(formatNumber(stop)))")
        }
        return self
    }
}

extension GradientDirection {
    /// The angle of a ``ProgressiveRamp`` that runs the same way: down 0°, right 90°, up 180°, left 270°.
    public var angle: Double {
        switch self {
        case .down: return 0
        case .right: return 90
        case .up: return 180
        case .left: return 270
        }
    }
}

extension VariableBlurEffect {
    /// The σ field of this effect's ramp over `frame` (points) of a `width × height` backdrop at
    /// `scale`, and its dimming; nil without a ramp or when the frame covers no pixel.
    func rampField(width: Int, height: Int, scale: Double, frame: Rect, appearance: Appearance) -> (LinearRamp, FieldDimming?)? {
        guard let ramp, let region = frame.pixelRect(scale: scale, clippedTo: width, height) else { return nil }
        let cap = GaussianBlur.sigmaSpec.range.upperBound
        let top = min(cap, effectiveMaximumRadius * scale)
        let field = LinearRamp(
            degrees: ramp.angle, start: ramp.start, stop: ramp.stop, minimum: minimumAlpha * top, maximum: top, region: region,
            frame: frame.scaled(by: scale))
        let alpha = dimmingAlpha?.alpha(for: appearance) ?? 0
        guard let tint = dimmingTintColor?.resolved(for: appearance), alpha > 0, tint.alpha > 0 else { return (field, nil) }
        let dimming = FieldDimming(color: tint) { y, columns, coverage in
            for x in columns { coverage[x - columns.lowerBound] = Float(alpha * field.strength(field.position(x, y))) }
        }
        return (field, dimming)
    }
}
