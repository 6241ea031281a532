import BlurCore

/// An image operation of the registry with its checked arguments, as a layer's backdrop filter
/// (``Layer/BackdropFilter/effect(_:)``): drawn over the layer's frame with the scene's appearance
/// and the layer's corner radius.
public struct BackdropEffect: Sendable, Hashable {
    /// The operation and the values given.
    public let arguments: OperationArguments
    /// The effect they describe, ready to draw.
    let prepared: PreparedEffect

    /// The effect `arguments` describe.
    /// - Throws: a parameter error when the arguments do not make one, or when the operation does not draw over an image.
    public init(_ arguments: OperationArguments) throws(ParameterError) {
        guard let run = arguments.operation.image else {
            throw .invalidForm(name: arguments.operation.name, text: "", expected: "an operation that draws over an image")
        }
        self.init(arguments: arguments, prepared: try run.prepare(arguments))
    }

    init(arguments: OperationArguments, prepared: PreparedEffect) {
        self.arguments = arguments
        self.prepared = prepared
    }

    /// The same operation with the same values given.
    public static func == (a: BackdropEffect, b: BackdropEffect) -> Bool {
        a.arguments.operation.name == b.arguments.operation.name && a.canonical == b.canonical
    }

    /// The operation's name and the values given.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(arguments.operation.name)
        hasher.combine(canonical)
    }

    /// The value of parameter `name`: given, else its default in `appearance`.
    public func value(_ name: String, appearance: Appearance) -> ParameterValue? {
        arguments.values[name] ?? arguments.operation.parameter(name)?.defaultValue(for: appearance)
    }

    /// This effect with `values` in place of its own (numbers clamped to their ranges, as an
    /// animation that overshoots draws); itself when the operation refuses them.
    func with(_ values: [String: ParameterValue]) -> BackdropEffect {
        var all = arguments.values
        for (name, value) in values {
            if case let .number(v) = value, case let .number(spec)? = arguments.operation.parameter(name)?.kind {
                all[name] = .number(min(max(v, spec.range.lowerBound), spec.range.upperBound))
            } else {
                all[name] = value
            }
        }
        let changed = OperationArguments(operation: arguments.operation, values: all, spelling: arguments.spelling)
        guard let run = changed.operation.image, let prepared = try? run.prepare(changed) else { return self }
        return BackdropEffect(arguments: changed, prepared: prepared)
    }

    private var canonical: [String] { arguments.pairs.map { $0.name + "=" + $0.value.exactText }.sorted() }
}
