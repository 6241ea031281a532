/// The numbers of SwiftUI Blocks' Blur Up Image that every drawing of it takes — the scene
/// component (`BlurUpImage` in BlurScene), `blurkit blurup` and the web's `<blur-up-image>` — declared
/// once: the preview's blur radius, the transition's duration and curve, and Reduce Motion's fade.
public enum BlurUpTransition {
    /// The seed's default blur radius of the preview, points: 24.
    public static let defaultBlurRadius = 24.0
    /// The parameter table entry of the preview's blur: `radius`, points, 0…200, default 24.
    public static let radiusSpec = ParameterSpec(
        name: "radius", unit: "pt", range: 0...200, defaultValue: defaultBlurRadius, summary: "blur radius of the preview")
    /// The preview's blur as a parameter (`blurRadius`; `--radius` on the command line).
    public static let blurRadius = OperationParameter.number("blurRadius", flag: "radius", radiusSpec, placeholder: "R", in: [.commandLine, .http])
    /// Seconds the image takes to come into focus, or to leave: 0.8.
    public static let duration = 0.8
    /// Seconds of the fade that replaces the transition under Reduce Motion: 0.2.
    public static let reducedMotionDuration = 0.2
    /// The transition's curve, a cubic Bézier's control points (x1, y1, x2, y2): SwiftUI's
    /// `.easeOut`, (0, 0, 0.58, 1) — CSS's `ease-out`.
    public static let curve = (x1: 0.0, y1: 0.0, x2: 0.58, y2: 1.0)
    /// The activity indicator's side, points (UIKit's medium style).
    public static let indicatorSize = 20.0

    /// The same as JSON, for the web component (`<blur-up-image>`), with the blur radius's
    /// parameter as the registry describes a parameter.
    public static var data: String {
        "{\"parameters\":[" + Describe.parameter(blurRadius.parameter, spelling: .key) + "],\"radius\":" + Describe.quoted(blurRadius.name)
            + ",\"duration\":" + formatNumber(duration)
            + ",\"reducedMotionDuration\":" + formatNumber(reducedMotionDuration) + ",\"curve\":["
            + [curve.x1, curve.y1, curve.x2, curve.y2].map(formatNumber).joined(separator: ",") + "],\"indicatorSize\":"
            + formatNumber(indicatorSize) + "}"
    }
}
