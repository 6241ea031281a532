/// `glass`: Liquid Glass (SwiftUI's `glassEffect(_:in:)`, UIKit's `UIGlassEffect`) in a shape over a region.
///
/// Every parameter's default is the default of ``GlassEffect``'s property it sets; the region is the
/// shape's frame (a capsule by default, as SwiftUI's).
public enum GlassOperation: ImageOperation {
    /// `glass`.
    public static let name = "glass"
    /// One line about it.
    public static let summary = "Liquid Glass (iOS 26 and 27) in a capsule or rounded rectangle over a region"
    /// The paragraph of `blurkit glass --help`.
    public static let details = """
        Draws Liquid Glass over IN in --region: the backdrop blurred (Regular: more for larger shapes),
        bent inward near the edge, toned, tinted, with a bright rim, a dark edge and (Regular) a shadow.
        The look is iOS 27.0's, fitted to its captures; --variant identity draws nothing.
        """

    private static let standard = GlassEffect()

    /// ``GlassEffect/variant``.
    public static let variant = OperationParameter.choice("variant", GlassVariant.spec, placeholder: "VARIANT")
    /// ``GlassEffect/tint``: none by default.
    public static let tint = OperationParameter.color(
        "tint", default: ParameterValue.Tint.none, summary: "the glass's tint; its alpha is how far the glass is mixed toward it",
        placeholder: "COLOR")
    /// The outline: a capsule (SwiftUI's default) or a rounded rectangle of ``cornerRadius``.
    public static let shape = OperationParameter.choice("shape", GlassShape.Kind.spec, placeholder: "SHAPE")
    /// The rounded rectangle's corner radius (``GlassShape/cornerRadiusSpec``).
    public static let cornerRadius = OperationParameter.number("cornerRadius", flag: "corner-radius", GlassShape.cornerRadiusSpec, placeholder: "R")
        .going(with: shape.parameter)
    /// ``GlassEffect/reduceTransparency``.
    public static let reduceTransparency = OperationParameter.flag(
        "reduceTransparency", summary: "Reduce Transparency: a frosted, opaque glass that bends the backdrop a third as far")
    /// ``GlassEffect/increaseContrast``.
    public static let increaseContrast = OperationParameter.flag(
        "increaseContrast", summary: "Increase Contrast: more contrast, a brighter rim and a darker edge")
    /// ``GlassEffect/dispersion``.
    public static let dispersion = OperationParameter.number("dispersion", GlassEffect.dispersionSpec, placeholder: "D")
    /// Light or dark.
    public static let appearance = BlurOperation.appearance(summary: "the interface style; picks the tone, rim and shadows")
    /// The shape's frame.
    public static let region = BlurOperation.region(summary: "the glass's frame (the shape's bounds)")

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [
            variant.parameter, tint.parameter, shape.parameter, cornerRadius.parameter, reduceTransparency.parameter,
            increaseContrast.parameter, dispersion.parameter, appearance.parameter, region.parameter, BlurOperation.scale.parameter,
        ]
    }

    /// The glass and its tint as given (`background` is the appearance's, resolved when drawn).
    public struct Prepared: Sendable {
        /// The glass, its appearance and tint set when drawn.
        public var glass: GlassEffect
        /// The tint as given.
        public var tint: ParameterValue.Tint
        /// Several shapes drawn as one material instead of one shape over the frame (SwiftUI's
        /// `GlassEffectContainer`), their frames in points from the context frame's origin; nil: one.
        public var container: GlassContainer?

        /// The glass with its tint as given; one shape unless `container` says several.
        public init(glass: GlassEffect, tint: ParameterValue.Tint, container: GlassContainer? = nil) {
            self.glass = glass
            self.tint = tint
            self.container = container
        }

        /// A glass container's shapes, drawn as its material in the context's appearance.
        public init(_ container: GlassContainer) {
            self.init(glass: container.effect, tint: container.effect.tint.map { .color($0) } ?? .none, container: container)
        }
    }

    /// The glass the arguments describe, checked.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Prepared {
        var glass = standard
        glass.variant = arguments[variant]
        switch arguments[shape] {
        case .capsule: glass.shape = .capsule
        case .roundedRectangle: glass.shape = .roundedRectangle(cornerRadius: arguments[cornerRadius])
        }
        glass.reduceTransparency = arguments[reduceTransparency]
        glass.increaseContrast = arguments[increaseContrast]
        glass.dispersion = arguments[dispersion]
        let given = arguments[tint]
        if case let .color(c) = given { glass.tint = c }
        return Prepared(glass: try glass.validated(), tint: given)
    }

    /// The glass in the context's frame, in the context's appearance.
    public static func draw(_ effect: Prepared, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        #if !hasFeature(Embedded)  // the module has no scene, so no container
        if var container = effect.container {
            container.effect.appearance = context.appearance
            let origin = context.frame
            container.members = container.members.map { GlassContainer.Member($0.shape, frame: $0.frame.offsetBy(origin.x, origin.y)) }
            return try container.render(over: image, scale: image.scale, threads: context.threads, checkpoint: context.checkpoint)
        }
        #endif
        var glass = effect.glass
        glass.appearance = context.appearance
        if case .background = effect.tint { glass.tint = context.appearance.backgroundColor }
        if case .roundedRectangle = glass.shape, context.cornerRadius > 0 { glass.shape = .roundedRectangle(cornerRadius: context.cornerRadius) }
        return try glass.render(over: image, frame: context.frame, scale: image.scale, threads: context.threads, checkpoint: context.checkpoint)
    }

    /// ``GlassEffect/estimatedBytes(width:height:)``.
    public static func estimatedBytes(width: Int, height: Int) -> Int { GlassEffect.estimatedBytes(width: width, height: height) }
}

extension GlassShape {
    /// The outline's kind, as the front ends name it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Half the short side rounds the corners (SwiftUI's `.capsule`).
        case capsule
        /// Corners of a given radius (SwiftUI's `.rect(cornerRadius:)`).
        case roundedRectangle

        /// The parameter table entry: `shape`, default `capsule`; `rect` and `roundedRect` are aliases.
        public static let spec = ChoiceSpec<Kind>(
            name: "shape", choices: [.init(["capsule"], .capsule), .init(["roundedRectangle", "roundedRect", "rect"], .roundedRectangle)],
            defaultValue: .capsule, summary: "the outline: a capsule, or a rounded rectangle of corner-radius")
    }
}
