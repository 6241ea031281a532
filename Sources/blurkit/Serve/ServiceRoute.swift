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

    let name: String
    let summary: String
    /// The command it runs (nil: the placeholder route, done here).
    let command: (any Command.Type)?
    let parameters: [OptionSpec]
    let output: Output
    /// Whether a POST body can be the input (a scene file must be under the root).
    let takesBody: Bool

    /// Options the server owns: the thread count, the limits, progress lines, and the folder options
    /// of batch commands.
    static let serverOwned: Set<String> = ["threads", "max-pixels", "memory-budget", "quiet", "out", "jobs", "force"]

    init(_ command: any Command.Type, output: Output, takesBody: Bool = true) {
        name = command.name
        summary = command.summary
        self.command = command
        parameters = command.options.filter { !ServiceRoute.serverOwned.contains($0.name) }
        self.output = output
        self.takesBody = takesBody
    }

    init(placeholderWith parameters: [OptionSpec]) {
        name = "placeholder"
        summary =
            "the blur-up placeholder: size, ThumbHash, the preview as a data URI and the average colour (JSON), or the preview itself with format="
        command = nil
        self.parameters = parameters
        output = .placeholder
        takesBody = true
    }

    /// The routes, in the order the OpenAPI document lists them.
    static let all: [ServiceRoute] = [
        ServiceRoute(BlurCommand.self, output: .still),
        ServiceRoute(ProgressiveCommand.self, output: .still),
        ServiceRoute(MaterialCommand.self, output: .still),
        ServiceRoute(BlurUpCommand.self, output: .animation),
        ServiceRoute(RenderCommand.self, output: .stillOrAnimation, takesBody: false),
        ServiceRoute(
            placeholderWith: [
                OptionSpec(Placeholder.sizeSpec, value: "N"),
                OptionSpec(name: "no-thumbhash", value: nil, help: "leave the ThumbHash out"),
                OptionSpec(ImageFormat.spec, value: "FMT", extra: " (default: JSON)"),
            ]),
    ]

    /// The command-line words for `parameters` (`--name value`, or `--name` for a flag that is set).
    /// - Throws: 400 naming the parameter: unknown, owned by the server, a flag with a value other
    ///   than empty, 1, true, 0 or false, or a value its table refuses.
    func arguments(_ parameters: [RequestTarget.Parameter]) throws(ServeError) -> [String] {
        var words: [String] = []
        for parameter in parameters {
            guard let option = self.parameters.first(where: { $0.name == parameter.name }) else {
                if ServiceRoute.serverOwned.contains(parameter.name) {
                    throw .badRequest("\(parameter.name) is set by the server, not by a request", parameter: parameter.name)
                }
                throw .badRequest("/\(name) takes no parameter \(parameter.name)", parameter: parameter.name)
            }
            if option.value == nil {
                switch parameter.value.lowercased() {
                case "", "1", "true": words.append("--" + option.name)
                case "0", "false": break
                default: throw .badRequest("\(option.name) is a flag: give it as \(option.name)=1 or leave it out", parameter: option.name)
                }
                continue
            }
            do { try option.check?(parameter.value) } catch { throw .badRequest(error.description, parameter: error.parameter) }
            words += ["--" + option.name, parameter.value]
        }
        return words
    }
}
