extension VariableBlurEffect {
    /// Bytes a render over a `width × height` backdrop needs besides the backdrop: the output, the
    /// blurred region, and up to about two pyramid levels' working images for every row.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow ? .max : pixels.partialValue * (4 + 4 + 24)
    }

    /// The backdrop with this effect drawn over `frame` (points, in the backdrop's coordinates, at the
    /// backdrop's scale): the region blurred progressively (edges clamped to the frame: full colour up
    /// to them), then the dimming gradient on top, its extension drawn where the backdrop has room.
    ///
    /// Per-pixel σ = maximum radius × mask value × scale, the mask sampled between its entries.
    /// The same stage as the streaming chain runs (`VariableBlurStage`; for the horizontal directions over the image turned, `VariableBlurTransposedStage`),
    /// a band at a time over the image in memory; `BLURKIT_REFERENCE=1` in the environment returns
    /// ``reference(over:frame:appearance:cache:)`` instead.
    public func render(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance = .light,
        cache: GradientMaskCache = .shared, threads: Int? = nil
    ) -> Bitmap {
        try! render(over: backdrop, frame: frame, appearance: appearance, cache: cache, threads: threads, checkpoint: {})
    }

    /// ``render(over:frame:appearance:cache:threads:)`` that stops when `checkpoint` throws, and
    /// throws that: it is asked before each band and, inside one, before each batch of the shared
    /// decimation's and each level's coarse rows (the first band of the largest radius reaches
    /// every row). The reference path is not stopped.
    package func render(
        over backdrop: Bitmap, frame: Rect, appearance: Appearance, cache: GradientMaskCache = .shared, threads: Int?,
        checkpoint: @escaping () throws -> Void
    ) throws -> Bitmap {
        guard layout(width: frame.width, height: frame.height) != nil, !frame.isEmpty else { return backdrop }
        if KernelSwitch.useReference { return reference(over: backdrop, frame: frame, appearance: appearance, cache: cache) }
        let stage = stage(width: backdrop.width, height: backdrop.height, scale: backdrop.scale, frame: frame, appearance: appearance, cache: cache)
        return try stage.run(backdrop, parts: threads, checkpoint: checkpoint)
    }
}
