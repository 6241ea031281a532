/// A stage whose output row `y` is its input row `y` turned by a function (a ``RowImageOperation``'s
/// `transform`): it holds nothing between bands and reads each input row once.
package final class RowMapStage: RowStage {
    package let width: Int
    package let height: Int
    private let transform: @Sendable (Int, UnsafeMutableBufferPointer<UInt8>, EffectContext) -> Void
    /// The context the rows are turned in (its checkpoint is the stage's caller's to ask, not the rows').
    private let context: SharedContext

    /// An effect's context, shared by the threads that turn rows: they read its frame and
    /// appearance, and none calls its checkpoint.
    private struct SharedContext: @unchecked Sendable {
        let context: EffectContext
    }

    /// A stage over a `width × height` image; `transform` turns row `y` in place, in `context`.
    package init(
        width: Int, height: Int, context: EffectContext,
        transform: @escaping @Sendable (Int, UnsafeMutableBufferPointer<UInt8>, EffectContext) -> Void
    ) {
        self.width = width
        self.height = height
        self.context = SharedContext(context: context)
        self.transform = transform
    }

    package func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        guard let view = try input.rows(rows) else { return }
        let bytes = width * 4, transform = transform, shared = context
        Parallel.forEachBand(count: rows.count, parts: parts) { part in
            for y in (rows.lowerBound + part.lowerBound)..<(rows.lowerBound + part.upperBound) {
                let target = output.row(y)
                target.update(from: view.row(y), count: bytes)
                transform(y, UnsafeMutableBufferPointer(start: target, count: bytes), shared.context)
            }
        }
    }

    /// Nothing between bands.
    package func heldBytes(bandRows: Int) -> Int { 0 }

    /// The band's own rows.
    package func inputBytes(bandRows: Int) -> Int { bandRows * width * 4 }
}
