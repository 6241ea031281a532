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

    var name: String { operation.name }
    /// The methods the route takes: POST too when a body can be the input.
    var methods: [String] { takesBody ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"] }
    var summary: String { operation.summary }
    /// The query parameters, from the registry.
    var parameters: [Parameter] { operation.parameters(in: .http) }

    /// Options the server owns: the thread count, the limits, progress lines, and the folder options
    /// of batch commands.
    static let serverOwned: Set<String> = ["threads", "max-pixels", "memory-budget", "quiet", "out", "jobs", "force"]

    init(_ operation: BlurOperation, output: Output, takesBody: Bool = true) {
        self.operation = operation
        self.output = output
        self.takesBody = takesBody
    }

    /// The routes, in the order the OpenAPI document lists them: one per operation of the registry.
    static let all: [ServiceRoute] = [
        ServiceRoute(BlurOperation.named("blur")!, output: .still),
        ServiceRoute(BlurOperation.named("progressive")!, output: .still),
        ServiceRoute(BlurOperation.named("material")!, output: .still),
        ServiceRoute(BlurOperation.named("blurup")!, output: .animation),
        ServiceRoute(BlurOperation.named("render")!, output: .stillOrAnimation, takesBody: false),
        ServiceRoute(BlurOperation.named("placeholder")!, output: .placeholder),
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

    /// Whether a scene is asked for as a still: `time` alone, without `duration` or `fps`.
    static func isStill(_ given: OperationArguments) -> Bool { given.has("time") && !given.has("duration") && !given.has("fps") }
}
