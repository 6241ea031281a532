import BlurKit

/// One route of the service that renders: the operation of the registry it runs, whose HTTP
/// parameters are its query parameters.
struct ServiceRoute: Sendable {
    /// What the route makes.
    enum Output: Sendable {
        /// One image: `format=` (or `Accept`) picks among the still formats.
        case still
        /// An animation: `format=` picks among webp, gif and apng.
        case animation
        /// A still with `time=` alone, otherwise an animation (a scene file).
        case stillOrAnimation
        /// The placeholder's JSON, or with `format=` its preview as an image.
        case placeholder
    }

    /// The operation of the registry the route runs; its HTTP parameters are the route's.
    let operation: BlurOperation
    let output: Output
    /// Whether a POST body can be the input (a scene file must be under the root).
    let takesBody: Bool

    /// The path's first segment: the operation's name in kebab-case (`/scroll-edge`).
    var name: String { operation.flag }
    /// The methods the route takes: POST too when a body can be the input.
    var methods: [String] { takesBody ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"] }
    var summary: String { operation.summary }
    /// The query parameters, from the registry.
    var parameters: [Parameter] { operation.parameters(in: .http) }

    /// Every route's `format`, read by the registry as the route's own words and then by the
    /// route's output (an animation's or a still's format): the canonical word.
    static let format = OperationParameter<String>(StillOutput.format.parameter) { if case let .word(w) = $0 { w } else { nil } }

    /// Options the server owns: the thread count, the limits, progress lines, and the folder options
    /// of batch commands.
    static let serverOwned: Set<String> = ["threads", "max-pixels", "memory-budget", "quiet", "out", "jobs", "force"]

    init(_ operation: BlurOperation, output: Output, takesBody: Bool = true) {
        self.operation = operation
        self.output = output
        self.takesBody = takesBody
    }

    /// The routes of `operations`, in their order: a still route for each image operation, and
    /// the outputs of the others as ``special`` declares them (an operation of neither kind has no route).
    static func routes(_ operations: [BlurOperation]) -> [ServiceRoute] {
        operations.compactMap { operation in
            if operation.image != nil { return ServiceRoute(operation, output: .still) }
            return special.first { $0.name == operation.name }.map {
                ServiceRoute(operation, output: $0.output, takesBody: $0.takesBody)
            }
        }
    }

    /// What the operations that are not image operations answer, by their declared names.
    static let special: [(name: String, output: Output, takesBody: Bool)] = [
        (BlurUpOperation.name, .animation, true), (RenderOperation.name, .stillOrAnimation, false),
        (PlaceholderOperation.name, .placeholder, true),
    ]

    /// `parameters` read and checked by the registry.
    /// - Throws: 400 naming the parameter as the query spells it: unknown, owned by the server,
    ///   given twice, or a value its kind refuses.
    func arguments(_ parameters: [RequestTarget.Parameter]) throws(ServeError) -> OperationArguments {
        for parameter in parameters where ServiceRoute.serverOwned.contains(parameter.name) {
            throw .badRequest("\(parameter.name) is set by the server, not by a request", parameter: parameter.name)
        }
        do { return try operation.read(parameters.map { ($0.name, $0.value) }, as: .query, in: .http) } catch {
            throw .badRequest(error.description, parameter: error.parameter)
        }
    }

    /// Whether the route answers in the format `word` names (the service's own checks: an
    /// animation is never a folder of PNG frames over HTTP).
    func takes(format word: String) -> Bool {
        let still = (try? ImageFormat.spec.parse(word)) != nil
        let animation = (try? AnimationFormat.spec.parse(word)).map { $0 != .pngSequence } ?? false
        switch output {
        case .still, .placeholder: return still
        case .animation: return animation
        case .stillOrAnimation: return still || animation
        }
    }

    /// The words of the route's `format` parameter it takes, for the OpenAPI document and the
    /// playground's menu: the registry's words, less those the route refuses.
    func formatWords(of p: Parameter) -> [String] { p.allWords.filter(takes(format:)) }
}
