/// What a filter sees beyond the edges of the image.
public enum EdgeMode: String, Sendable, Hashable, CaseIterable {
    /// Samples beyond the edge repeat the edge pixel (vImage's edge-extend, OpenCV's replicate):
    /// colour and opacity stay full up to the edge, with no dark or transparent fringe. The default
    /// for backdrops and opaque blurs; an opaque image stays opaque.
    case clamp
    /// Outside the image is transparent: a blur fades out towards the edges, as SwiftUI's
    /// non-opaque blur does.
    case transparent

    /// The parameter table entry: `edges`, default `clamp`.
    public static let spec = ChoiceSpec<EdgeMode>(
        name: "edges", defaultValue: .clamp,
        summary: "what the blur sees past the edges (clamp: the edge pixels extend, no fringe, opaque stays opaque; transparent: clear beyond them)")
}
