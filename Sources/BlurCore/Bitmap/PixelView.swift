/// Read access to premultiplied RGBA8 pixels: the one place where a row's address is computed.
///
/// A view covers `width × height` pixels whose rows lie `bytesPerRow` apart. A whole bitmap's view
/// is tightly packed (`bytesPerRow == width * 4`, see ``Bitmap``); a view of a region inside it
/// (``region(_:)``) keeps the bitmap's stride. A view of a band of a taller image (a window of the
/// streaming chain) numbers its rows as the image does: `firstRow ..< firstRow + height`. A view is valid only inside the closure of
/// ``Bitmap/withPixels(_:)`` that handed it out. ``row(_:)`` checks its index in debug builds; the
/// kernels index within a row, `0 ..< width * 4`.
///
/// `@unchecked Sendable`: kernels hand a view to the bands of ``Parallel/forEachBand(count:parts:_:)``,
/// which only read through it.
package struct PixelView: @unchecked Sendable {
    /// The first byte of row 0.
    package let base: UnsafePointer<UInt8>
    /// Pixels a row (≥ 1).
    package let width: Int
    /// Rows (≥ 1).
    package let height: Int
    /// Bytes from one row to the next (≥ `width * 4`).
    package let bytesPerRow: Int
    /// The number of the row at `base`: 0 for a whole image or a region, the band's first row for
    /// a band of a taller image.
    package let firstRow: Int

    /// - Parameter firstRow: the number the row at `base` has (default 0).
    package init(base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, firstRow: Int = 0) {
        assert(width > 0 && height > 0 && bytesPerRow >= width * 4, "a view of at least one pixel")
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.firstRow = firstRow
    }

    /// The numbers of the rows this view holds.
    package var rows: Range<Int> { firstRow..<(firstRow + height) }

    /// The `width * 4` bytes of row `y` (one of ``rows``).
    @inline(__always)
    package func row(_ y: Int) -> UnsafePointer<UInt8> {
        assert(y >= firstRow && y - firstRow < height, "row \(y) outside \(rows)")
        return base + (y &- firstRow) &* bytesPerRow
    }

    /// The pixels of `rect` (rows numbered as this view numbers them), which must lie inside this
    /// view (checked: a bad rectangle is a programming error, as an array index out of range is).
    /// The region's rows are numbered from 0.
    package func region(_ rect: PixelRect) -> PixelView {
        let local = PixelRect(x: rect.x, y: rect.y - firstRow, width: rect.width, height: rect.height)
        precondition(local.lies(inside: width, height), "region \(rect) is not inside the \(width)×\(height) view")
        return PixelView(base: base + local.y * bytesPerRow + rect.x * 4, width: rect.width, height: rect.height, bytesPerRow: bytesPerRow)
    }

    /// Columns `x ..< x + width` of this view, its rows numbered from `top` (row `top` here is row 0
    /// there): a region of the same image, read where it lies.
    package func columns(_ x: Int, width: Int, top: Int) -> PixelView {
        precondition(x >= 0 && width > 0 && x + width <= self.width, "columns \(x)..<\(x + width) of a view \(self.width) wide")
        return PixelView(base: base + x * 4, width: width, height: height, bytesPerRow: bytesPerRow, firstRow: firstRow - top)
    }

    /// True when every pixel has alpha 255: each row's pixels ANDed together as whole 32-bit words
    /// (a plain run of loads that vectorises), then their alpha byte read.
    package var isOpaque: Bool {
        for y in rows {
            let p = UnsafeRawPointer(row(y))
            var all: UInt32 = .max
            for x in 0..<width { all &= p.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self) }
            if UInt32(littleEndian: all) >> 24 != 255 { return false }
        }
        return true
    }

    /// Rows `rows` of this view, numbered as here (a band of the same image).
    package func band(_ rows: Range<Int>) -> PixelView {
        precondition(!rows.isEmpty && rows.lowerBound >= firstRow && rows.upperBound <= firstRow + height, "band \(rows) outside \(self.rows)")
        return PixelView(base: row(rows.lowerBound), width: width, height: rows.count, bytesPerRow: bytesPerRow, firstRow: rows.lowerBound)
    }
}

/// Write access to premultiplied RGBA8 pixels; see ``PixelView``, which it wraps: the addresses are
/// still computed there alone.
///
/// `@unchecked Sendable`: kernels hand a view to the bands of ``Parallel/forEachBand(count:parts:_:)``,
/// and every band writes only its own rows.
package struct MutablePixelView: @unchecked Sendable {
    /// The same pixels, read-only.
    package let readOnly: PixelView

    package init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, firstRow: Int = 0) {
        readOnly = PixelView(base: base, width: width, height: height, bytesPerRow: bytesPerRow, firstRow: firstRow)
    }

    private init(_ view: PixelView) { readOnly = view }

    /// The first byte of row 0.
    package var base: UnsafeMutablePointer<UInt8> { UnsafeMutablePointer(mutating: readOnly.base) }
    package var width: Int { readOnly.width }
    package var height: Int { readOnly.height }
    package var bytesPerRow: Int { readOnly.bytesPerRow }
    package var firstRow: Int { readOnly.firstRow }
    package var rows: Range<Int> { readOnly.rows }

    /// The `width * 4` bytes of row `y`.
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { UnsafeMutablePointer(mutating: readOnly.row(y)) }

    /// The pixels of `rect`, which must lie inside this view (checked).
    package func region(_ rect: PixelRect) -> MutablePixelView { MutablePixelView(readOnly.region(rect)) }

    /// Rows `rows` of this view, numbered as here.
    package func band(_ rows: Range<Int>) -> MutablePixelView { MutablePixelView(readOnly.band(rows)) }

    /// Copies rows `rows` (numbered as both views number them) of `source` here, this view's
    /// `width` pixels a row.
    package func copyRows(_ rows: Range<Int>, from source: PixelView) {
        for y in rows { row(y).copyBytes(from: source.row(y), count: width * 4) }
    }
}

extension PixelRect {
    /// True when this rectangle is non-empty and lies wholly inside `0..<width × 0..<height`.
    package func lies(inside width: Int, _ height: Int) -> Bool {
        x >= 0 && y >= 0 && self.width > 0 && self.height > 0 && x <= width - self.width && y <= height - self.height
    }
}
