import BlurCore

/// The end of a chain: rows in order, encoded (and written) as they come.
package protocol RowSink: AnyObject {
    /// Encodes the next rows, premultiplied RGBA8, numbered as the image's rows.
    func write(_ rows: PixelView) throws
    /// Writes what follows the last row; called once, after every row.
    func finish() throws
    /// The most bytes the sink holds at once (its buffers), for the memory estimate.
    var heldBytes: Int { get }
}
