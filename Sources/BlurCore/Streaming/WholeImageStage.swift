/// A stage for an effect that needs the whole image at once: it gathers every input row into a
/// bitmap, applies `transform` once, and hands out the result's rows. The chain around it still
/// streams (decoding and encoding overlap the work), but this stage holds two images, the input
/// gathered and the result (its input window only a band). The window's ``RowWindow/checkpoint``
/// is asked between the bands it gathers and before `transform`, and handed to `transform` to ask
/// inside its passes (what it throws stops the work).
package final class WholeImageStage: RowStage {
    package let width: Int
    package let height: Int
    private let sourceWidth: Int, sourceHeight: Int
    private let scale: Double
    private let workingBytes: Int
    private let transform: (Bitmap, @escaping () throws -> Void) throws -> Bitmap
    private var result: Bitmap?

    /// - Parameter transform: the effect; its result must have the input's size.
    package convenience init(width: Int, height: Int, scale: Double = 1, transform: @escaping (Bitmap) -> Bitmap) {
        self.init(width: width, height: height, scale: scale) { image, _ in transform(image) }
    }

    /// A stage whose `transform` asks the checkpoint it is given between its passes and needs
    /// `workingBytes` besides the input gathered and its result.
    /// `output`: the result's size when the transform changes it (a resize), else the input's.
    package init(
        width: Int, height: Int, scale: Double = 1, workingBytes: Int = 0, output: (width: Int, height: Int)? = nil,
        checked transform: @escaping (Bitmap, @escaping () throws -> Void) throws -> Bitmap
    ) {
        self.sourceWidth = width
        self.sourceHeight = height
        self.width = output?.width ?? width
        self.height = output?.height ?? height
        self.scale = scale
        self.workingBytes = workingBytes
        self.transform = transform
    }

    package func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        if result == nil {
            let image = try input.gathered(height: sourceHeight, scale: scale)
            try input.checkpoint()
            let done = try transform(image, { try input.checkpoint() })
            precondition(done.width == width && done.height == height, "a whole-image stage makes the size it said")
            result = done
        }
        result!.withPixels { output.copyRows(rows, from: $0) }
    }

    package func heldBytes(bandRows: Int) -> Int { (sourceWidth * sourceHeight + width * height) * 4 + workingBytes }
    package func inputBytes(bandRows: Int) -> Int { StreamingDefaults.bandRows(width: sourceWidth) * sourceWidth * 4 }
}
