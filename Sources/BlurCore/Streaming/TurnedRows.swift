/// The rows of an image in memory turned a quarter: row y is column y of `image`, top to bottom.
/// A band is read by a tile transpose (``Kernels/transpose(_:columns:into:parts:)``) straight into
/// the reader's memory, so a stage that runs over rows runs over the image's columns through a
/// window of them, without a turned copy of the image.
final class TurnedRows: RowSource {
    private let image: PixelView
    private let parts: Int?

    /// - Parameter image: rows numbered from its ``PixelView/firstRow``; `parts`: the threads a
    ///   read may share (nil: as many as suit the cores).
    init(_ image: PixelView, parts: Int?) {
        self.image = image
        self.parts = parts
    }

    var width: Int { image.height }
    var height: Int { image.width }

    func read(into rows: MutablePixelView) throws {
        Kernels.transpose(image, columns: rows.rows, into: rows, parts: parts)
    }

    /// The image is its owner's: a read holds nothing.
    var heldBytes: Int { 0 }

    /// Any column can be read without those before it.
    func skip(to row: Int) -> Bool { true }
}
