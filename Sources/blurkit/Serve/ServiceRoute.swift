import BlurCommandLine
import BlurKit
import BlurServe

/// One route of `blurkit serve` that renders: the command it runs and the query parameters it
/// takes — the command's own options (the same tables as the command line's), less those the
/// server sets itself.
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
    /// The command it runs (nil: the placeholder route, done here).
    let command: (any Command.Type)?
    let output: Output
    /// Whether a POST body can be the input (a scene file must be under the root).
    let takesBody: Bool

    var name: String { operation.name }
    var summary: String { operation.summary }
    /// The query parameters, from the registry.
    var parameters: [Parameter] { operation.parameters(in: .http) }

    /// Options the server owns: the thread count, the limits, progress lines, and the folder options
    /// of batch commands.
    static let serverOwned: Set<String> = ["threads", "max-pixels", "memory-budget", "quiet", "out", "jobs", "force"]

    init(_ operation: BlurOperation, command: (any Command.Type)?, output: Output, takesBody: Bool = true) {
        self.operation = operation
        self.command = command
        self.output = output
        self.takesBody = takesBody
    }

    /// The routes, in the order the OpenAPI document lists them: one per operation of the registry.
    static let all: [ServiceRoute] = [
        ServiceRoute(BlurOperation.named("blur")!, command: BlurCommand.self, output: .still),
        ServiceRoute(BlurOperation.named("progressive")!, command: ProgressiveCommand.self, output: .still),
        ServiceRoute(BlurOperation.named("material")!, command: MaterialCommand.self, output: .still),
        ServiceRoute(BlurOperation.named("blurup")!, command: BlurUpCommand.self, output: .animation),
        ServiceRoute(BlurOperation.named("render")!, command: RenderCommand.self, output: .stillOrAnimation, takesBody: false),
        ServiceRoute(BlurOperation.named("placeholder")!, command: nil, output: .placeholder),
    ]

    /// The command-line words for `parameters` (`--name value`, or `--name` for a flag that is set),
    /// read and checked by the registry first.
    /// - Throws: 400 naming the parameter as the query spells it: unknown, owned by the server,
    ///   given twice, or a value its kind refuses.
    func arguments(_ parameters: [RequestTarget.Parameter]) throws(ServeError) -> [String] {
        for parameter in parameters where ServiceRoute.serverOwned.contains(parameter.name) {
            throw .badRequest("\(parameter.name) is set by the server, not by a request", parameter: parameter.name)
        }
        let given: OperationArguments
        do { given = try operation.read(parameters.map { ($0.name, $0.value) }, as: .query, in: .http) } catch {
            throw .badRequest(error.description, parameter: error.parameter)
        }
        var words: [String] = []
        for parameter in parameters {
            guard let p = operation.parameter(spelled: parameter.name, as: .query, in: .http) else { continue }
            if case .flag = p.kind {
                if given.flag(p.name) { words.append("--" + p.flag) }
            } else {
                words += ["--" + p.flag, parameter.value]
            }
        }
        return words
    }
}
