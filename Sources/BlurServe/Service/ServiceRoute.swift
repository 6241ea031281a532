import BlurKit

/// One route of the service that renders: the operation of the registry it runs, whose HTTP
/// parameters are its query parameters.
struct ServiceRoute: Sendable {
    /// The operation of the registry the route runs; its HTTP parameters are the route's.
    let operation: BlurOperation

    /// What the route takes and makes: the operation's form.
    var form: BlurOperation.Form { operation.form }
    /// Whether a POST body can be the input (a scene file must be under the root).
    var takesBody: Bool { form != .scene }
    /// The path's first segment: the operation's name in kebab-case (`/scroll-edge`).
    var name: String { operation.flag }
    /// The methods the route takes: POST too when a body can be the input.
    var methods: [String] { takesBody ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"] }
    var summary: String { operation.summary }
    /// The query parameters, from the registry.
    var parameters: [Parameter] { operation.parameters(in: .http) }
    /// The parameter whose word picks the output's format (``Parameter/Role/format``), if any.
    var format: Parameter? { operation.parameter(role: .format) }

    /// The format word `given` asks for, canonical; nil when none.
    func formatWord(_ given: OperationArguments) -> String? {
        guard let format, case let .word(w)? = given.values[format.name] else { return nil }
        return w
    }

    /// Options the server owns: the thread count, the limits, progress lines, and the folder options
    /// of batch commands.
    static let serverOwned: Set<String> = ["threads", "max-pixels", "memory-budget", "quiet", "out", "jobs", "force"]

    init(_ operation: BlurOperation) { self.operation = operation }

    /// The routes of `operations`, in their order: every operation of a form the service answers,
    /// an image operation when it draws over an image.
    static func routes(_ operations: [BlurOperation]) -> [ServiceRoute] {
        operations.filter { $0.form != .image || $0.image != nil }.map(ServiceRoute.init)
    }

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
        switch form {
        case .image, .placeholder: return still
        case .animation: return animation
        case .scene: return still || animation
        }
    }

    /// The words of the route's `format` parameter it takes, for the OpenAPI document and the
    /// playground's menu: the registry's words, less those the route refuses.
    func formatWords(of p: Parameter) -> [String] { p.allWords.filter(takes(format:)) }
}
