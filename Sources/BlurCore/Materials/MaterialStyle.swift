/// UIKit's blur-effect materials (`UIBlurEffect.Style`): five thicknesses that adapt to the
/// appearance, and the same five fixed to light or dark.
public enum MaterialStyle: String, Sendable, Hashable, CaseIterable {
    /// The thinnest, adapting to the appearance.
    case systemUltraThinMaterial
    /// Thin, adapting to the appearance.
    case systemThinMaterial
    /// Regular, adapting to the appearance (the default).
    case systemMaterial
    /// Thick, adapting to the appearance.
    case systemThickMaterial
    /// Chrome, adapting to the appearance.
    case systemChromeMaterial
    /// Ultra-thin, always light.
    case systemUltraThinMaterialLight
    /// Thin, always light.
    case systemThinMaterialLight
    /// Regular, always light.
    case systemMaterialLight
    /// Thick, always light.
    case systemThickMaterialLight
    /// Chrome, always light.
    case systemChromeMaterialLight
    /// Ultra-thin, always dark.
    case systemUltraThinMaterialDark
    /// Thin, always dark.
    case systemThinMaterialDark
    /// Regular, always dark.
    case systemMaterialDark
    /// Thick, always dark.
    case systemThickMaterialDark
    /// Chrome, always dark.
    case systemChromeMaterialDark

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
        if rawValue.endsWithBytes(of: "Light") { return .light }
        if rawValue.endsWithBytes(of: "Dark") { return .dark }
        return appearance
    }

    /// The parameter table entry: `style`, default `regular`. Short names — `ultrathin`, `thin`,
    /// `regular` (or `material`), `thick`, `chrome` — name the adaptive styles; every full name
    /// (`systemThinMaterialDark`) is accepted too, in any case.
    public static let spec = ChoiceSpec<MaterialStyle>(
        name: "style",
        choices: [
            .init(["ultrathin"], .systemUltraThinMaterial), .init(["thin"], .systemThinMaterial),
            .init(["regular", "material"], .systemMaterial), .init(["thick"], .systemThickMaterial),
            .init(["chrome"], .systemChromeMaterial),
        ] + allCases.map { .init([$0.rawValue], $0) },
        defaultValue: .systemMaterial, summary: "the UIBlurEffect style")

    /// The style for a short or full name, in any case (see ``spec``); nil for anything else.
    public init?(name: String) {
        guard let style = try? MaterialStyle.spec.parse(name) else { return nil }
        self = style
    }
}

/// How much a material hides what is behind it.
public enum MaterialThickness: String, Sendable, Hashable, CaseIterable {
    /// The thinnest: shows the most of what is behind.
    case ultraThin
    /// Thicker than ultra-thin, thinner than regular.
    case thin
    /// The standard material (`systemMaterial`).
    case regular
    /// Thicker than regular: hides the most of the four.
    case thick
    /// The chrome material: regular's first layer under a 75 % white (light) or black (dark) fill.
    case chrome
}
