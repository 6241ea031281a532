/// UIKit's blur-effect materials (`UIBlurEffect.Style`): five thicknesses that adapt to the
/// appearance, and the same five fixed to light or dark.
public enum MaterialStyle: String, Sendable, Hashable, CaseIterable {
    case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
    case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight, systemChromeMaterialLight
    case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark, systemChromeMaterialDark

    /// The five adaptive styles, thinnest first (seed 003's picker).
    public static let adaptive: [MaterialStyle] = [
        .systemUltraThinMaterial, .systemThinMaterial, .systemMaterial, .systemThickMaterial, .systemChromeMaterial,
    ]

    /// The thickness, whatever the appearance.
    public var thickness: MaterialThickness {
        switch self {
        case .systemUltraThinMaterial, .systemUltraThinMaterialLight, .systemUltraThinMaterialDark: return .ultraThin
        case .systemThinMaterial, .systemThinMaterialLight, .systemThinMaterialDark: return .thin
        case .systemMaterial, .systemMaterialLight, .systemMaterialDark: return .regular
        case .systemThickMaterial, .systemThickMaterialLight, .systemThickMaterialDark: return .thick
        case .systemChromeMaterial, .systemChromeMaterialLight, .systemChromeMaterialDark: return .chrome
        }
    }

    /// The appearance this style is drawn in when the interface is in `appearance`.
    public func resolved(for appearance: Appearance) -> Appearance {
        if rawValue.hasSuffix("Light") { return .light }
        if rawValue.hasSuffix("Dark") { return .dark }
        return appearance
    }

    /// The style for a short name: `ultrathin`, `thin`, `regular` (or `material`), `thick`, `chrome`,
    /// or any full name such as `systemThinMaterialDark`.
    public init?(name: String) {
        let short: [String: MaterialStyle] = [
            "ultrathin": .systemUltraThinMaterial, "thin": .systemThinMaterial, "regular": .systemMaterial,
            "material": .systemMaterial, "thick": .systemThickMaterial, "chrome": .systemChromeMaterial,
        ]
        if let style = short[name.lowercased()] ?? MaterialStyle(rawValue: name) { self = style } else { return nil }
    }
}

/// How much a material hides what is behind it.
public enum MaterialThickness: String, Sendable, Hashable, CaseIterable {
    case ultraThin, thin, regular, thick, chrome
}
