/// What a material draws over the blurred backdrop: its blur, a saturation boost and tint layers.
public struct MaterialRecipe: Sendable, Hashable {
    /// One tint layer: a solid colour with its alpha, composited with a blend mode.
    public struct Layer: Sendable, Hashable {
        /// The layer's colour, straight alpha.
        public var color: Color
        /// How the layer combines with what lies beneath it.
        public var mode: BlendMode
        /// A layer of `color` composited in `mode`.
        public init(_ color: Color, _ mode: BlendMode) { self.color = color; self.mode = mode }
    }

    /// The default blur radius, σ in points.
    public var blurRadius: Double
    /// Saturation factor applied after the blur (1 = none).
    public var saturation: Double
    /// Tint layers, bottom first.
    public var layers: [Layer]

    /// A recipe as given: nothing is checked.
    public init(blurRadius: Double, saturation: Double, layers: [Layer]) {
        self.blurRadius = blurRadius
        self.saturation = saturation
        self.layers = layers
    }
}

/// The material table: one place to read and retune every number.
///
/// Sources (see `../shared/reference/FIDELITY.md` §2.2):
/// - ultra-thin, thin, regular, thick: Apple's iOS 18 design kit as transcribed by Haze's
///   `CupertinoMaterials` — blur 24 pt; light: a grey layer in colour-dodge, then a normal fill;
///   dark: a grey layer in overlay, then a #252525 fill.
/// - chrome: no design-kit numbers exist; the first layer is the regular material's, the fill is
///   expo-blur's `systemChromeMaterial` approximation (white at 0.75 light, black at 0.75 dark).
/// - saturation 1.8: Apple's iOS 7 `UIImageEffects` and the recreations agree on ~1.8–2.0; no
///   source gives per-style values for iOS 13+.
/// These are approximations of an undocumented system; the ordering (ultra-thin < thin < regular <
/// thick) is certain, the exact values are not.
public enum MaterialTable {
    /// Every style's blur radius, σ in points: 24.
    public static let blurRadius = 24.0
    /// Every style's saturation factor after the blur: 1.8 (1 = none).
    public static let saturation = 1.8

    @inline(never)  // once, not inlined in each of the table's twenty entries
    private static func grey(_ hex: String, _ alpha: Double = 1) -> Color {
        Color(hex: hex)!.withAlphaMultiplied(by: alpha)
    }

    /// The recipe for a thickness in an appearance.
    public static func recipe(_ thickness: MaterialThickness, _ appearance: Appearance) -> MaterialRecipe {
        let layers: [MaterialRecipe.Layer]
        switch (thickness, appearance) {
        case (.ultraThin, .light): layers = [.init(grey("#0D0D0D"), .colorDodge), .init(grey("#BFBFBF", 0.44), .normal)]
        case (.thin, .light): layers = [.init(grey("#333333"), .colorDodge), .init(grey("#A6A6A6", 0.70), .normal)]
        case (.regular, .light): layers = [.init(grey("#383838"), .colorDodge), .init(grey("#B3B3B3", 0.82), .normal)]
        case (.thick, .light): layers = [.init(grey("#5C5C5C"), .colorDodge), .init(grey("#999999", 0.97), .normal)]
        case (.chrome, .light): layers = [.init(grey("#383838"), .colorDodge), .init(grey("#FFFFFF", 0.75), .normal)]
        case (.ultraThin, .dark): layers = [.init(grey("#9C9C9C"), .overlay), .init(grey("#252525", 0.55), .normal)]
        case (.thin, .dark): layers = [.init(grey("#9C9C9C"), .overlay), .init(grey("#252525", 0.70), .normal)]
        case (.regular, .dark): layers = [.init(grey("#8C8C8C"), .overlay), .init(grey("#252525", 0.82), .normal)]
        case (.thick, .dark): layers = [.init(grey("#7C7C7C"), .overlay), .init(grey("#252525", 0.90), .normal)]
        case (.chrome, .dark): layers = [.init(grey("#8C8C8C"), .overlay), .init(grey("#000000", 0.75), .normal)]
        }
        return MaterialRecipe(blurRadius: blurRadius, saturation: saturation, layers: layers)
    }
}
