import BlurCore

/// Seed 003's `Blur`: a background of one of UIKit's blur materials. Defaults to `.systemMaterial`,
/// which adapts to light and dark appearance.
///
///     Blur(style: .systemUltraThinMaterial).render(over: photo, frame: card, cornerRadius: 15, appearance: .dark)
public struct Blur: Sendable, Hashable {
    /// The material. Default `.systemMaterial`.
    public var style: MaterialStyle = .systemMaterial

    /// A background of the material `style`, default `.systemMaterial`.
    public init(style: MaterialStyle = .systemMaterial) {
        self.style = style
    }

    /// The backdrop with this material drawn over `frame` (points, at the backdrop's scale).
    public func render(over backdrop: Bitmap, frame: Rect, cornerRadius: Double = 0, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        Material(style: style, cornerRadius: cornerRadius).render(over: backdrop, frame: frame, appearance: appearance, threads: threads)
    }
}

/// `UIVisualEffectView` with seed 004's adjustments: `blurEffectRadius` (points; nil = the style's
/// default) and `dimmingAlpha` (1 = the style's own tint, 0 = blur only). Changing the style or the
/// appearance re-renders with nothing stale: every render reads the current values.
public final class VisualEffectView {
    /// Points, in the backdrop's coordinates.
    public var frame: Rect
    /// The material, as `UIBlurEffect.Style`; the next render uses the new one.
    public var style: MaterialStyle
    /// Points; nil (default) = the style's default, 24 pt. NaN and negative values count as 0.
    public var blurEffectRadius: Double?
    /// The opacity of the style's tint, 0…1: 1 (default) = the style's own, 0 = blur only. NaN counts as 0.
    public var dimmingAlpha: Double = Material.dimmingSpec.defaultValue!
    /// Points, default 0.
    public var cornerRadius: Double = Material.cornerRadiusSpec.defaultValue!

    /// A view of `style` (default `.systemMaterial`) at `frame` (points), with the style's own radius and tint.
    public init(style: MaterialStyle = .systemMaterial, frame: Rect) {
        self.style = style
        self.frame = frame
    }

    /// The material as it is now.
    public var material: Material {
        Material(style: style, blurEffectRadius: blurEffectRadius, dimmingAlpha: dimmingAlpha, cornerRadius: cornerRadius)
    }

    /// The backdrop with the material drawn over ``frame`` (points, at the backdrop's scale), as the properties are now.
    public func render(over backdrop: Bitmap, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        material.render(over: backdrop, frame: frame, appearance: appearance, threads: threads)
    }
}
