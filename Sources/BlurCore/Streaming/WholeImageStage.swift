/// A stage for an effect that needs the whole image at once: it gathers every input row into a
/// bitmap, applies `transform` once, and hands out the result's rows. The chain around it still
/// streams (decoding and encoding overlap the work), but this stage holds two images.
package final class WholeImageStage: RowStage {
    package let width: Int
    package let height: Int
    private let scale: Double
    private let transform: (Bitmap) -> Bitmap
    private var result: Bitmap?

    /// - Parameter transform: the effect; its result must have the input's size.
    package init(width: Int, height: Int, scale: Double = 1, transform: @escaping (Bitmap) -> Bitmap) {
        self.width = width
        self.height = height
        self.scale = scale
        self.transform = transform
    }

    package func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        if result == nil {
            let source = try input.rows(0..<height)!
            var image = Bitmap(validatedWidth: width, height: height, scale: scale)
            image.withMutablePixels { target in
                for y in 0..<height { target.row(y).update(from: source.row(y), count: width * 4) }
            }
            let done = transform(image)
            precondition(done.width == width && done.height == height, "a whole-image stage keeps the size")
            result = done
        }
        result!.withPixels { pixels in
            for y in rows { output.row(y).update(from: pixels.row(y), count: width * 4) }
        }
    }

    package func heldBytes(bandRows: Int) -> Int { width * height * 4 }
    package func inputBytes(bandRows: Int) -> Int { width * height * 4 }
}
