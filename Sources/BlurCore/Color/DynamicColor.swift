/// A colour that may differ between light and dark appearance, as UIKit's dynamic colours do.
public struct DynamicColor: Sendable, Hashable {
    /// The colour in light appearance.
    public var light: Color
    /// The colour in dark appearance.
    public var dark: Color

    /// A colour for each appearance.
    public init(light: Color, dark: Color) {
        self.light = light
        self.dark = dark
    }

    /// The same colour in both appearances.
    public init(_ color: Color) { self.init(light: color, dark: color) }

    /// UIKit's `.systemBackground` at the base elevation: white in light, black in dark.
    public static let systemBackground = DynamicColor(light: .white, dark: .black)

    /// The colour for `appearance`.
    public func resolved(for appearance: Appearance) -> Color {
        appearance == .light ? light : dark
    }
}
