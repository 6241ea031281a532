/// `scrollEdge`: the scroll-edge effect of iOS 26, soft or hard, along one edge of a region.
///
/// Every parameter's default is the default of ``ScrollEdgeEffect``'s property it sets.
public enum ScrollEdgeOperation: StreamingImageOperation {
    /// `scrollEdge` (JavaScript and scene files; the command and the route are `scroll-edge`).
    public static let name = "scrollEdge"
    /// One line about it.
    public static let summary = "the scroll-edge effect (soft or hard) along one edge of a region"
    /// The paragraph of `blurkit scroll-edge --help`.
    public static let details = """
        Draws iOS 26's scroll-edge effect over IN: soft, a progressive blur whose dimming of the bar's
        background grows more opaque toward the edge; hard, a nearly opaque band with a dividing line.
        --height sets the band's extent in points (Apple's is fixed).
        """

    private static let standard = ScrollEdgeEffect()

    /// ``ScrollEdgeEffect/style``.
    public static let style = OperationParameter.choice("style", ScrollEdgeStyle.spec, placeholder: "STYLE")
    /// ``ScrollEdgeEffect/edge``.
    public static let edge = OperationParameter.choice("edge", ScrollEdge.spec, placeholder: "EDGE")
    /// ``ScrollEdgeEffect/height``.
    public static let height = OperationParameter.number("height", ScrollEdgeEffect.heightSpec, placeholder: "PT")
    /// ``ScrollEdgeEffect/maximumBlurRadius``.
    public static let maximumBlurRadius = OperationParameter.number(
        "maximumBlurRadius", flag: "max-radius", ScrollEdgeEffect.maximumRadiusSpec, placeholder: "R")
    /// ``ScrollEdgeEffect/tint``.
    public static let tint = OperationParameter.color(
        "tint", default: ParameterValue.Tint(standard.tint), summary: "the bar's background, which the band fades to", placeholder: "COLOR")
    /// Light or dark.
    public static let appearance = BlurOperation.appearance(summary: "the interface style; picks the background and the dividing line")
    /// The scroll view's frame.
    public static let region = BlurOperation.region(summary: "the scroll view's frame")

    /// The effect's fixed numbers, for the web component that draws it with the browser's
    /// compositor (`<scroll-edge-effect>`): the soft band's dimming at the edge, the hard band's
    /// cover and its dividing line, per appearance, and the progressive blur's direction per edge.
    public static var data: String? {
        func both(_ f: (Appearance) -> String) -> String { "{\"light\":\(f(.light)),\"dark\":\(f(.dark))}" }
        return "{\"edgeParameter\":" + Describe.quoted(edge.name) + ",\"softOpacity\":"
            + both { formatNumber(ScrollEdgeEffect.softOpacity.alpha(for: $0)) } + ",\"hardOpacity\":"
            + formatNumber(ScrollEdgeEffect.hardOpacity) + ",\"separator\":"
            + both { Describe.quoted(ScrollEdgeEffect.separator.resolved(for: $0).hexString) } + ",\"directions\":{"
            + ScrollEdge.spec.choices.map { edge in
                Describe.quoted(edge.words[0]) + ":"
                    + Describe.quoted(GradientDirection.spec.choices.first { $0.value == edge.value.direction }?.words[0] ?? "down")
            }.joined(separator: ",") + "}}"
    }

    /// In the order help texts list them.
    public static var parameters: [Parameter] {
        [
            style.parameter, edge.parameter, height.parameter, maximumBlurRadius.parameter, tint.parameter, appearance.parameter,
            region.parameter, BlurOperation.scale.parameter,
        ]
    }

    /// The effect the arguments describe, checked.
    @_optimize(size)
    public static func effect(_ arguments: OperationArguments) throws(ParameterError) -> ScrollEdgeEffect {
        var effect = standard
        effect.style = arguments[style]
        effect.edge = arguments[edge]
        effect.height = arguments[height]
        effect.maximumBlurRadius = arguments[maximumBlurRadius]
        if let given = arguments.given(tint) { effect.tint = given.dynamicColor ?? DynamicColor(.clear) }
        return try effect.validated()
    }

    /// The effect along the context's frame.
    public static func draw(_ effect: ScrollEdgeEffect, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        try effect.render(over: image, frame: context.frame, appearance: context.appearance, threads: context.threads, checkpoint: context.checkpoint)
    }

    /// ``ScrollEdgeEffect/estimatedBytes(width:height:)``.
    public static func estimatedBytes(width: Int, height: Int) -> Int { ScrollEdgeEffect.estimatedBytes(width: width, height: height) }

    /// ``ScrollEdgeEffect``'s stages over the context's frame.
    package static func stages(_ effect: ScrollEdgeEffect, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage] {
        effect.stages(width: width, height: height, scale: scale, frame: context.frame, appearance: context.appearance, threads: context.threads)
    }
}
