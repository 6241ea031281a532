import BlurCore

/// SwiftUI's `GlassEffectContainer(spacing:)` with the `glassEffect(_:in:)` of the views inside it:
/// several glass shapes drawn as one material, sampling one backdrop, merging where they are closer
/// than ``spacing`` (a smooth union of their outlines, as the system morphs them).
///
/// Add shapes with ``glassEffect(_:in:frame:)``, then either `render(over:appearance:threads:)` a
/// backdrop or put ``layer`` in a scene: its backdrop filter is the container. Frames are points in
/// the container's coordinates (the layer's). Not thread-safe: change it from one thread.
public final class GlassEffectContainer {
    /// The layer that draws the container: its frame is the container's, its backdrop the glass.
    public let layer: Layer
    /// Points within which shapes merge; nil (SwiftUI's default) is `GlassContainer.spacingSpec`'s default, 0: none merge.
    public var spacing: Double? { didSet { update() } }
    /// The material every shape is made of (its shape is each member's). Default Regular.
    public var glass: GlassEffect { didSet { update() } }
    /// The shapes, in the order added.
    public private(set) var members: [GlassContainer.Member] = []

    /// An empty container at `frame` (points, in its parent's coordinates).
    public init(frame: Rect, spacing: Double? = nil, glass: GlassEffect = GlassEffect()) {
        layer = Layer(name: "GlassEffectContainer", frame: frame)
        self.spacing = spacing
        self.glass = glass
        update()
    }

    /// A view's `glassEffect(_:in:)`: glass of `variant` (the container's material when nil) in
    /// `shape` (a capsule by default, as SwiftUI's) at `frame` (points, in the container's coordinates).
    public func glassEffect(_ variant: GlassVariant? = nil, in shape: GlassShape = .capsule, frame: Rect) {
        if let variant { glass.variant = variant }
        members.append(GlassContainer.Member(shape, frame: frame))
        update()
    }

    /// The glass as BlurCore draws it, members in the container's coordinates.
    public var container: GlassContainer {
        GlassContainer(effect: glass, spacing: spacing ?? GlassContainer.spacingSpec.defaultValue!, members: members)
    }

    /// `backdrop` with the container drawn at the layer's frame, at the backdrop's scale.
    public func render(over backdrop: Bitmap, appearance: Appearance = .light, threads: Int? = nil) -> Bitmap {
        var shifted = container
        shifted.effect.appearance = appearance
        shifted.members = shifted.members.map { GlassContainer.Member($0.shape, frame: $0.frame.offsetBy(layer.frame.x, layer.frame.y)) }
        return shifted.render(over: backdrop, scale: backdrop.scale, threads: threads)
    }

    private func update() { layer.backdropFilter = .glass(container) }
}

extension Layer {
    /// SwiftUI's `glassEffect(_:in:)`: Liquid Glass of `glass` in `shape` (a capsule by default) over
    /// the layer's bounds, as its backdrop filter; the scene's appearance picks the tone.
    public func glassEffect(_ glass: GlassEffect = GlassEffect(), in shape: GlassShape = .capsule) {
        var effect = glass
        effect.shape = shape
        let bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        backdropFilter = .glass(GlassContainer(effect: effect, members: [GlassContainer.Member(shape, frame: bounds)]))
    }
}
