/// The edge of a scroll view a scroll-edge effect lies along (SwiftUI's `Edge`, UIKit's
/// `topEdgeEffect` … `rightEdgeEffect`); leading and trailing are left and right (left-to-right).
public enum ScrollEdge: String, Sendable, Hashable, CaseIterable {
    /// Under a navigation bar.
    case top
    /// Over a tab bar or a toolbar.
    case bottom
    /// Along the left side.
    case leading
    /// Along the right side.
    case trailing

    /// The parameter table entry: `edge`, default `top`; `left` and `right` are aliases.
    public static let spec = ChoiceSpec<ScrollEdge>(
        name: "edge",
        choices: [.init(["top"], .top), .init(["bottom"], .bottom), .init(["leading", "left"], .leading), .init(["trailing", "right"], .trailing)],
        defaultValue: .top, summary: "the edge of the scroll view the effect lies along")

    /// The progressive blur's direction with its full end at this edge.
    public var direction: GradientDirection {
        switch self {
        case .top: return .down
        case .bottom: return .up
        case .leading: return .left
        case .trailing: return .right
        }
    }
}

/// How a scroll-edge effect looks (`ScrollEdgeEffectStyle`, `UIScrollEdgeEffect.Style`).
public enum ScrollEdgeStyle: String, Sendable, Hashable, CaseIterable {
    /// A subtle, blurred boundary: translucent, more opaque toward the edge (`automatic` on iOS).
    case soft
    /// A nearly opaque boundary with a hard cutoff and a dividing line.
    case hard

    /// The parameter table entry: `style`, default `soft`; `automatic` is soft, as on iOS.
    public static let spec = ChoiceSpec<ScrollEdgeStyle>(
        name: "style", choices: [.init(["soft", "automatic"], .soft), .init(["hard"], .hard)], defaultValue: .soft,
        summary: "soft: a blurred band, more opaque toward the edge; hard: a nearly opaque band with a dividing line")
}
