/// What a filter sees beyond the edges of the image.
public enum EdgeMode: String, Sendable, Hashable, CaseIterable {
    /// Samples beyond the edge repeat the edge pixel (vImage's edge-extend, OpenCV's replicate):
    /// colour and opacity stay full up to the edge, with no dark or transparent fringe. The default
    /// for backdrops and opaque blurs; an opaque image stays opaque.
    case clamp
    /// Outside the image is transparent: a blur fades out towards the edges, as SwiftUI's
    /// non-opaque blur does.
    case transparent

    /// The choices as the command line spells them.
    public static let choices = allCases.map(\.rawValue)

    /// Parses `clamp` or `transparent`.
    public init(parsing word: String, parameter: String = "edges") throws(ParameterError) {
        guard let mode = EdgeMode(rawValue: word) else {
            throw .invalidChoice(name: parameter, value: word, choices: EdgeMode.choices)
        }
        self = mode
    }
}
