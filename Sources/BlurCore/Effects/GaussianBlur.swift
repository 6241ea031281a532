/// A Gaussian blur: every pixel becomes the Gaussian-weighted average of its neighbourhood,
/// computed on premultiplied values (no dark halos around transparent regions).
///
/// - `sigma`: the standard deviation in **pixels**, 0…2000. σ ≤ 0.2 returns the input unchanged.
///   Component APIs speak radii in points; convert once at the edge: σ = radius × scale.
/// - `edges`: ``EdgeMode/clamp`` (default) or ``EdgeMode/transparent``.
///
/// The result stays within a tested bound of ``GaussianBlur/reference(_:)`` (a plain float64
/// implementation): PSNR ≥ 58 dB and no byte more than 3 away, for σ from 0.5 to 100.
/// Cost is O(width × height), independent of σ beyond a constant; work is spread over all cores
/// and the bytes are the same whatever the thread count.
public struct GaussianBlur: Sendable, Hashable {
    /// The parameter table entry: `sigma`, pixels, 0…2000, no default.
    public static let sigmaSpec = ParameterSpec(
        name: "sigma", unit: "px", range: 0...2000, defaultValue: nil,
        summary: "standard deviation of the Gaussian in pixels; \(formatNumber(identityThreshold)) or less blurs nothing")

    /// Below this σ the blur is an identity: the kernel's side weights are under 1e-5.
    public static let identityThreshold = 0.2

    /// The standard deviation in pixels, 0…2000; ≤ ``identityThreshold`` leaves the image unchanged.
    public let sigma: Double
    /// What the blur sees past the image's edges. Default ``EdgeMode/clamp``.
    public let edges: EdgeMode

    /// How far (pixels) a blur of `sigma` pixels carries a pixel: 4σ + 2, past which every weight of
    /// the kernel and of its fast path is under 1/255.
    public static func reach(sigma: Double) -> Double { 4 * sigma + 2 }

    /// - Throws: ``ParameterError`` naming `sigma` when it is NaN, ±∞, negative or over 2000.
    public init(sigma: Double, edges: EdgeMode = .clamp) throws(ParameterError) {
        self.sigma = try GaussianBlur.sigmaSpec.validate(sigma)
        self.edges = edges
    }

    /// σ clamped into ``sigmaSpec``'s range (NaN counts as 0): for renderers that are lenient by
    /// design, as UIKit is, and have already turned points into pixels.
    package init(clampingSigma sigma: Double, edges: EdgeMode = .clamp) {
        let range = GaussianBlur.sigmaSpec.range
        self.sigma = sigma.isNaN ? 0 : min(range.upperBound, max(range.lowerBound, sigma))
        self.edges = edges
    }

    /// The blurred image, same size and scale.
    /// `BLURKIT_REFERENCE=1` in the environment runs ``reference(_:)`` instead, so anyone can compare.
    /// - Parameters:
    ///   - image: the image to blur.
    ///   - threads: how many parts the work is split into; nil = as many as suit the cores. The bytes
    ///     do not depend on it.
    public func apply(to image: Bitmap, threads: Int? = nil) -> Bitmap {
        try! apply(to: image, threads: threads, checkpoint: {})
    }

    /// ``apply(to:threads:)`` that stops when `checkpoint` throws, and throws that: it is asked
    /// before each band and each batch of the pyramid's coarse rows (every few tens of milliseconds,
    /// whatever σ; the reference path is not stopped).
    package func apply(to image: Bitmap, threads: Int?, checkpoint: @escaping () throws -> Void) throws -> Bitmap {
        if KernelSwitch.useReference { return reference(image) }
        if sigma <= GaussianBlur.identityThreshold { return image }
        return try stage(width: image.width, height: image.height).run(image, parts: threads, checkpoint: checkpoint)
    }

    /// The fast path alone, whatever the environment says: what the tests hold to the reference.
    package func fastPath(_ image: Bitmap, threads: Int? = nil) -> Bitmap {
        if sigma <= GaussianBlur.identityThreshold { return image }
        return stage(width: image.width, height: image.height).run(image, parts: threads)
    }
}

extension GaussianBlur {
    /// The fast path as a stage of the streaming chain, for a `width × height` image (σ above
    /// ``identityThreshold``).
    package func stage(width: Int, height: Int) -> any RowStage {
        GaussianStage(sigma: sigma, edges: edges, width: width, height: height)
    }

    /// Bytes this blur needs for a `width × height` image, besides the input: the output and the
    /// fast path's largest working images (at most about one float image at ¼ size for the pyramid).
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow else { return .max }
        return pixels.partialValue * 4 + pixels.partialValue * 16 / 4 * 3
    }
}

extension Bitmap {
    /// This image blurred with a Gaussian of `sigma` pixels. See ``GaussianBlur``.
    /// - Throws: ``ParameterError`` for an invalid `sigma`.
    public func gaussianBlurred(sigma: Double, edges: EdgeMode = .clamp) throws(ParameterError) -> Bitmap {
        try GaussianBlur(sigma: sigma, edges: edges).apply(to: self)
    }
}
