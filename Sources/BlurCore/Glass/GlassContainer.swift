/// Several pieces of glass drawn as one, as SwiftUI's `GlassEffectContainer(spacing:)` draws its
/// children: one material, one sampling of the backdrop (glass never samples other glass), and shapes
/// closer than `spacing` merged into one surface.
///
/// The outline is the smooth union of the members' signed distance fields: a quadratic smooth
/// minimum of width 2 × spacing, so two shapes whose gap is under `spacing` are joined by a bridge,
/// and shapes up to twice as far apart lean toward each other. Spacing 0 (the default, as AppKit's)
/// draws the members together without merging them. The optics (blur, depth, shadow) are sized by the
/// longest of the members' shorter sides.
public struct GlassContainer: Sendable, Hashable {
    /// One piece of glass: its outline and its frame in points.
    public struct Member: Sendable, Hashable {
        /// The outline within the frame.
        public var shape: GlassShape
        /// The frame in points, in the backdrop's coordinates.
        public var frame: Rect
        /// A member with `shape` (default a capsule) in `frame` (points).
        public init(_ shape: GlassShape = .capsule, frame: Rect) {
            self.shape = shape
            self.frame = frame
        }
    }

    /// The parameter table entry for ``spacing``: `spacing`, points, 0…10,000, default 0.
    public static let spacingSpec = ParameterSpec(
        name: "spacing", unit: "pt", range: 0...10_000, defaultValue: 0,
        summary: "shapes closer than this merge into one surface; 0 = drawn together, never merged")

    /// The material every member is drawn in; its ``GlassEffect/shape`` is not read (each member has
    /// its own).
    public var effect: GlassEffect
    /// Points; default 0. NaN and negative values count as 0.
    public var spacing: Double = GlassContainer.spacingSpec.defaultValue!
    /// The pieces of glass, in order (the smooth union is taken in this order).
    public var members: [Member]

    /// A container of `members` in `effect`'s material, merging shapes closer than `spacing` points.
    public init(effect: GlassEffect = GlassEffect(), spacing: Double = 0, members: [Member]) {
        self.effect = effect
        self.spacing = spacing
        self.members = members
    }

    /// This container, if its spacing, its effect and every member's shape are valid (see
    /// ``GlassEffect/validated()``); otherwise an error naming the first parameter that is not.
    public func validated() throws(ParameterError) -> GlassContainer {
        _ = try GlassContainer.spacingSpec.validate(spacing)
        _ = try effect.validated()
        for member in members { _ = try member.shape.validated() }
        return self
    }

    /// The backdrop with every member drawn, as ``GlassEffect/render(over:frame:scale:threads:)``
    /// draws one (the same units, bytes and leniency); members with an empty frame are left out.
    public func render(over backdrop: Bitmap, scale: Double, threads: Int? = nil) -> Bitmap {
        try! render(over: backdrop, scale: scale, threads: threads, checkpoint: {})
    }

    /// ``render(over:scale:threads:)`` that stops when `checkpoint` throws, and throws that.
    package func render(over backdrop: Bitmap, scale: Double, threads: Int?, checkpoint: @escaping () throws -> Void) throws -> Bitmap {
        var out = backdrop
        try draw(in: &out, scale: scale, threads: threads, checkpoint: checkpoint)
        return out
    }

    /// ``render(over:scale:threads:)`` in place: only the glass's region and its shadow's margin
    /// are written.
    public func draw(in image: inout Bitmap, scale: Double, threads: Int? = nil) {
        try! draw(in: &image, scale: scale, threads: threads, checkpoint: {})
    }

    /// ``draw(in:scale:threads:)`` that stops when `checkpoint` throws, and throws that.
    package func draw(in image: inout Bitmap, scale: Double, threads: Int?, checkpoint: @escaping () throws -> Void) throws {
        guard let plan = GlassPlan(self, scale: scale, width: image.width, height: image.height) else { return }
        if KernelSwitch.useReference {
            image = plan.reference(over: image)
            return
        }
        try plan.render(into: &image, threads: threads, checkpoint: checkpoint)
    }

    /// The float64 reference of ``render(over:scale:threads:)``: see ``GlassEffect/reference(over:frame:scale:)``.
    public func reference(over backdrop: Bitmap, scale: Double) -> Bitmap {
        GlassPlan(self, scale: scale, width: backdrop.width, height: backdrop.height)?.reference(over: backdrop) ?? backdrop
    }
}
