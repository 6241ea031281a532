/// An operation of BlurKit declared as one type: its name, a line about it and its parameters as
/// typed values (``OperationParameter``). The registry (`BlurOperation.all` in BlurKit) is a list of
/// these types, each turned into a ``BlurOperation`` value, and every front end — the command line,
/// the HTTP routes and OpenAPI, the playground, the scene reader, the WebAssembly module and its
/// TypeScript types, the reference pages — is made from that list; none names an operation.
///
/// An operation that draws over an image declares its run too: see ``ImageOperation``.
public protocol OperationDefinition {
    /// The command, the route, the scene backdrop's key and the module's function (`blur`).
    static var name: String { get }
    /// One line about it, for help texts and documents.
    static var summary: String { get }
    /// A paragraph for `blurkit NAME --help` under the usage line; empty by default.
    static var details: String { get }
    /// The parameters, in the order help texts and controls list them (each ``OperationParameter/parameter``).
    static var parameters: [Parameter] { get }
    /// Sets of parameters of which at most one may be given; none by default.
    static var exclusive: [[Parameter]] { get }
    /// Tables a front end draws the operation from itself, as a JSON object (a material's recipes,
    /// for the web components over the browser's compositor); nil by default.
    static var data: String? { get }
    /// What it takes and what it makes, from which the front ends derive its command, route and
    /// help: ``BlurOperation/Form/image`` by default (an ``ImageOperation``'s).
    static var form: BlurOperation.Form { get }
}

extension OperationDefinition {
    /// No paragraph.
    public static var details: String { "" }
    /// No exclusive sets.
    public static var exclusive: [[Parameter]] { [] }
    /// No tables.
    public static var data: String? { nil }
    /// An image in, an image out.
    public static var form: BlurOperation.Form { .image }
}

/// What an effect drawn over an image is told besides its own parameters: the frame it covers and
/// the appearance, which a front end takes from the effect's `region` and `appearance` parameters
/// (``BlurOperation/regionParameter``, ``BlurOperation/appearanceParameter``) or, in a scene, from
/// the layer and the scene; the threads; and a checkpoint asked between passes that stops the work
/// by throwing.
public struct EffectContext {
    /// The frame in points, at the image's scale.
    public var frame: Rect
    /// Light or dark.
    public var appearance: Appearance
    /// The corner radius of the frame in points (a scene layer's), 0 for square corners.
    public var cornerRadius: Double
    /// How many threads may share the work; nil: as many as suit the cores.
    public var threads: Int?
    /// Asked between passes; what it throws stops the work and is thrown on.
    public var checkpoint: () throws -> Void
    /// The image's own size in pixels when it was decoded smaller (shrink-on-load, for a resize);
    /// nil: the size of the image drawn over.
    public var sourceSize: (width: Int, height: Int)?

    /// A context as given.
    public init(frame: Rect, appearance: Appearance, cornerRadius: Double = 0, threads: Int? = nil, checkpoint: @escaping () throws -> Void = {}) {
        self.frame = frame
        self.appearance = appearance
        self.cornerRadius = cornerRadius
        self.threads = threads
        self.checkpoint = checkpoint
    }
}

/// An operation that draws an effect over an image: from its checked arguments to a typed effect
/// (whose defaults are its parameters' defaults), and from the effect to pixels. The command line,
/// the HTTP routes, the WebAssembly module and scene backdrops all run it through this.
public protocol ImageOperation: OperationDefinition {
    /// The effect its arguments describe.
    associatedtype Effect: Sendable
    /// The effect `arguments` describe, checked.
    /// - Throws: a parameter error naming the parameter as the arguments' front end spells it.
    static func effect(_ arguments: OperationArguments) throws(ParameterError) -> Effect
    /// `image` with the effect drawn over `context.frame`.
    static func draw(_ effect: Effect, over image: Bitmap, in context: EffectContext) throws -> Bitmap
    /// Bytes a draw over a `width × height` image needs besides the image; 16 per pixel by default.
    static func estimatedBytes(width: Int, height: Int) -> Int
    /// Whether an opaque image stays opaque under the effect; true by default.
    static func keepsOpaque(_ effect: Effect) -> Bool
}

extension ImageOperation {
    /// Sixteen bytes a pixel: an output and a float working copy.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow || pixels.partialValue > Int.max / 16 ? .max : pixels.partialValue * 16
    }

    /// Opaque stays opaque.
    public static func keepsOpaque(_ effect: Effect) -> Bool { true }
}

/// An image operation that also runs as stages over bands of rows (the streaming pipeline of
/// file-to-file work), besides its whole-image ``ImageOperation/draw(_:over:in:)``.
package protocol StreamingImageOperation: ImageOperation {
    /// The stages for a `width × height` image at `scale` pixels per point; empty when the effect
    /// leaves the image unchanged.
    static func stages(_ effect: Effect, width: Int, height: Int, scale: Double, in context: EffectContext) -> [any RowStage]
    /// The JPEG DCT reduction (1, 2, 4 or 8) a `width × height` source may be decoded at before the
    /// stages run (shrink-on-load); 1 by default. The stages are then given the smaller size, and
    /// the image's own in `EffectContext/sourceSize`.
    static func reduction(_ effect: Effect, width: Int, height: Int) -> Int
    /// Whether ``reduction(_:width:height:)`` is asked at all (a resize): false by default, so that
    /// no other operation reads a JPEG's header twice.
    static var shrinksOnLoad: Bool { get }
}

extension StreamingImageOperation {
    /// No reduction: every effect but a resize needs every pixel.
    package static func reduction(_ effect: Effect, width: Int, height: Int) -> Int { 1 }
    /// No reduction is asked.
    package static var shrinksOnLoad: Bool { false }
}

/// An image operation whose output row `y` is made from input row `y` alone (a tint, a curve, a
/// veil over a region): it streams through the file-to-file pipeline a band at a time with no
/// stage of its own to write, and its whole-image draw is the same rows. A package of its own can
/// declare one; `BlurOperation.init(_:)` gives it its run and its stage.
public protocol RowImageOperation: ImageOperation {
    /// Turns `row`, input row `y` of a `width × height` image at `scale` pixels per point
    /// (premultiplied RGBA, 4 bytes a pixel), into the output's row `y`, in place.
    static func transform(
        _ effect: Effect, row: UnsafeMutableBufferPointer<UInt8>, y: Int, width: Int, height: Int, scale: Double, in context: EffectContext)
}

extension RowImageOperation {
    /// Every row turned, as the stage turns them (the same bytes).
    public static func draw(_ effect: Effect, over image: Bitmap, in context: EffectContext) throws -> Bitmap {
        let (width, height, scale) = (image.width, image.height, image.scale)
        return try RowMapStage(width: width, height: height, context: context) { y, row, context in
            transform(effect, row: row, y: y, width: width, height: height, scale: scale, in: context)
        }.run(image, parts: context.threads, checkpoint: context.checkpoint)
    }

    /// An output and nothing else.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow || pixels.partialValue > Int.max / 4 ? .max : pixels.partialValue * 4
    }
}
