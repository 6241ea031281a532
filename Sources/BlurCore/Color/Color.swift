/// A colour with straight (not premultiplied) alpha, sRGB-encoded components 0…1.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// sRGB-encoded components and straight alpha, 0…1: the initialisers clamp, setting one directly does not.
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// Components are clamped to 0…1; NaN counts as 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        self.red = unit(red); self.green = unit(green); self.blue = unit(blue); self.alpha = unit(alpha)
    }

    /// A grey: `white` in all three components. Clamped to 0…1 as ``init(red:green:blue:alpha:)`` does.
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Opaque white.
    public static let white = Color(white: 1)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// Fully transparent black.
    public static let clear = Color(white: 0, alpha: 0)

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional), or nil.
    public init?(hex: String) {
        var digits = Array(hex.utf8)[...]
        if digits.first == UInt8(ascii: "#") { digits = digits.dropFirst() }
        guard [3, 6, 8].contains(digits.count) else { return nil }
        var value: UInt32 = 0
        for c in digits {
            let lower = asciiLowercased(c)
            switch lower {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(lower - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(lower - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        switch digits.count {
        case 3:
            let r = Double((value >> 8) & 0xF), g = Double((value >> 4) & 0xF), b = Double(value & 0xF)
            self.init(red: r / 15, green: g / 15, blue: b / 15)
        case 6:
            self.init(red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255, blue: Double(value & 0xFF) / 255)
        default:
            self.init(
                red: Double(value >> 24) / 255, green: Double((value >> 16) & 0xFF) / 255,
                blue: Double((value >> 8) & 0xFF) / 255, alpha: Double(value & 0xFF) / 255)
        }
    }

    /// The colour with its alpha multiplied by `factor` (clamped to 0…1).
    public func withAlphaMultiplied(by factor: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// The colour as upper-case hex, `#RRGGBB`, or `#RRGGBBAA` when alpha is below 1: for messages.
    public var description: String {
        func byte(_ v: Double) -> String {
            let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }
}

/// Light or dark interface style: picks the adaptive colours and alphas of the components.
public enum Appearance: String, Sendable, Hashable, CaseIterable {
    /// The light interface style.
    case light
    /// The dark interface style.
    case dark

    /// The parameter table entry: `appearance`, default `light`.
    public static let spec = ChoiceSpec<Appearance>(name: "appearance", defaultValue: .light, summary: "the interface style")

    /// `.systemBackground` at the base elevation: white in light, black in dark.
    public var backgroundColor: Color { self == .light ? .white : .black }
}

extension Color {
    /// The colour `t` of the way (0…1) from this one to `other`, mixed on premultiplied components
    /// (so a fade to clear does not darken).
    public func mixed(with other: Color, at t: Double) -> Color {
        let a = alpha + (other.alpha - alpha) * t
        func channel(_ p: Double, _ q: Double) -> Double {
            a > 0 ? (p * alpha + (q * other.alpha - p * alpha) * t) / a : 0
        }
        return Color(red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue), alpha: a)
    }
}

extension Color {
    /// One component (red, green, blue, white or alpha), 0…1.
    public static let componentSpec = ParameterSpec(
        name: "component", unit: "", range: 0...1, defaultValue: nil, summary: "a colour component from 0 to 1")
}
