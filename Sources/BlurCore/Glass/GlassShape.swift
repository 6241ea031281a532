/// The outline of a piece of glass, in the frame it is drawn in.
public enum GlassShape: Sendable, Hashable {
    /// Fully rounded ends: the corner radius is half the frame's shorter side. SwiftUI's default.
    case capsule
    /// A rounded rectangle; the corner radius is in points, clamped to half the shorter side when
    /// drawn (NaN and negative radii draw square corners).
    case roundedRectangle(cornerRadius: Double)

    /// The parameter table entry for a rounded rectangle's corner radius: `corner-radius`, points,
    /// 0…1,000,000, default 16 (Haze's glass shape).
    public static let cornerRadiusSpec = ParameterSpec(
        name: "corner-radius", unit: "pt", range: 0...1_000_000, defaultValue: 16,
        summary: "corner radius of the glass's rounded rectangle (clamped to half the shorter side)")

    /// A rounded rectangle with the default corner radius, 16 pt.
    public static let roundedRectangle = GlassShape.roundedRectangle(cornerRadius: cornerRadiusSpec.defaultValue!)

    /// The corner radius drawn in a `width × height` frame, in the frame's unit: half the shorter side
    /// for a capsule; the given radius clamped to 0…half the shorter side otherwise (NaN counts as 0).
    public func cornerRadius(width: Double, height: Double) -> Double {
        let half = max(0, min(width, height) / 2)
        switch self {
        case .capsule: return half
        case let .roundedRectangle(radius): return radius.isNaN ? 0 : min(half, max(0, radius))
        }
    }

    /// This shape, if its corner radius (if any) is finite and inside ``cornerRadiusSpec``'s range;
    /// otherwise an error naming `corner-radius`.
    public func validated() throws(ParameterError) -> GlassShape {
        if case let .roundedRectangle(radius) = self { _ = try GlassShape.cornerRadiusSpec.validate(radius) }
        return self
    }
}
