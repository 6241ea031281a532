#if !hasFeature(Embedded)
import BlurCore
#endif

/// A toy image operation declared in this file alone: a veil of one colour over a region. It is a
/// row operation, so it streams; the tests find it in every front end made from the registry
/// (`ToyOperationTests`), and `Tests/Web/test_added.mjs` compiles this file into a WebAssembly
/// module beside the engine's sources (`ADD=… Scripts/wasm.sh`), where the list at the end adds it.
enum VeilOperation: RowImageOperation {
    static let name = "veil"
    static let summary = "a veil of one colour over a region"
    static let strength = OperationParameter.number(
        "strength", ParameterSpec(name: "strength", unit: "", range: 0...1, defaultValue: 0.5, summary: "how opaque the veil is"),
        placeholder: "A")
    static let color = OperationParameter.color(
        "veilColor", flag: "color", default: .color(Color(red: 0, green: 0, blue: 0)), summary: "the veil's colour", placeholder: "COLOR")
    static let region = BlurOperation.region(summary: "the veil's frame")
    static var parameters: [Parameter] { [strength.parameter, color.parameter, region.parameter] }

    /// The veil's colour at its strength, straight alpha.
    static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Color {
        let base = arguments[color].color(for: .light)
        return Color(red: base.red, green: base.green, blue: base.blue, alpha: base.alpha * arguments[strength])
    }

    /// The veil over the part of row `y` inside the context's frame: source-over, premultiplied.
    static func transform(
        _ effect: Color, row: UnsafeMutableBufferPointer<UInt8>, y: Int, width: Int, height: Int, scale: Double, in context: EffectContext
    ) {
        guard let rect = context.frame.pixelRect(scale: scale, clippedTo: width, height), y >= rect.y, y < rect.y + rect.height else { return }
        let a = min(1, max(0, effect.alpha))
        let veil = [effect.red * a, effect.green * a, effect.blue * a, a].map { min(1, max(0, $0)) * 255 }
        for x in rect.x..<(rect.x + rect.width) {
            for c in 0..<4 {
                let under = Double(row[x * 4 + c])
                row[x * 4 + c] = UInt8((veil[c] + under * (1 - a)).rounded())
            }
        }
    }
}

#if BLURKIT_WASM_ADDED
extension BlurOperation {
    /// The module's added operations: the veil.
    static var added: [BlurOperation] { [BlurOperation(VeilOperation.self)] }
}
#endif
