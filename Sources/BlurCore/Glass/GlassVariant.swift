/// Which Liquid Glass material to draw: SwiftUI's `Glass.regular`, `.clear` and `.identity`.
public enum GlassVariant: String, Sendable, Hashable, CaseIterable {
    /// The default material: blur that deepens with the shape's size, a bright frosted tone in light
    /// appearance, an outer shadow that deepens with size.
    case regular
    /// Permanently more transparent: a light blur of the same strength at every size, no outer shadow.
    /// Apple suggests a dimming layer beneath it for legibility.
    case clear
    /// No effect at all: the backdrop's bytes are returned unchanged (for toggling glass on and off).
    case identity

    /// The parameter table entry: `variant`, default `regular`.
    public static let spec = ChoiceSpec<GlassVariant>(name: "variant", defaultValue: .regular, summary: "the Liquid Glass material")
}
