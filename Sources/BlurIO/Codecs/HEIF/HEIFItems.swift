/// The coded images of a HEIF file (`hvc1`, `av01` items: the primary image, its tiles, alpha,
/// depth, thumbnails) with the frame sizes their own bitstreams declare, read from the `meta`
/// box (ISO/IEC 23008-12: `iinf`, `iloc`, `idat`, `iprp`) without decoding anything.
///
/// libheif (1.15) hands a coded image to its decoder without comparing the bitstream's size with
/// the `ispe` box, and dav1d accepts frames up to 2³⁰ pixels: a small file can
/// ask for gigabytes. ``check(_:within:_:format:)`` refuses any coded image larger than the image shown.
struct HEIFItems {
    /// An item's type and where its data is.
    private struct Item {
        var type = ""
        var method = 0
        var extents: [(offset: Int, length: Int)] = []
        var properties: [Int] = []
    }

    private let file: ArraySlice<UInt8>
    private var items: [Int: Item] = [:]
    /// The primary item's id (`pitm`); nil when the file names none.
    private var primary: Int?
    /// `ipco`'s boxes in order (`ipma` counts them from 1): type and payload.
    private var properties: [(type: String, payload: ArraySlice<UInt8>)] = []
    private var itemData: ArraySlice<UInt8> = []

    /// Reads the `meta` box of `file`; throws ``BitReader/End`` if a box runs past its parent.
    init(_ file: [UInt8]) throws(BitReader.End) {
        self.file = file[...]
        for (type, payload) in try HEIFItems.boxes(self.file) where type == "meta" {
            try read(meta: payload.dropFirst(4))
        }
    }

    /// The size the primary item's `ispe` property declares (before any rotation), or nil when
    /// there is none: read before libheif parses the file, so that an image over the pixel limit
    /// is refused as such (libheif's own size limit would call it corrupt).
    var primarySize: (width: Int, height: Int)? {
        guard let primary, let item = items[primary] else { return nil }
        for index in item.properties where index >= 1 && index <= properties.count && properties[index - 1].type == "ispe" {
            var reader = BitReader(properties[index - 1].payload)
            guard (try? reader.skip(32)) != nil, let width = try? reader.int(32), let height = try? reader.int(32) else { return nil }
            return (width, height)
        }
        return nil
    }

    /// Refuses a coded image larger than `width × height` (the size shown; either orientation),
    /// with 64 pixels a side for the coding block rounding, or one whose size cannot be read.
    /// - Returns: what decoding every coded image would cost: the pixels of each at the largest
    ///   size its headers declare (a grid's tiles, alpha, thumbnails), and how many images there are.
    @discardableResult
    static func check(
        _ bytes: [UInt8], within width: Int, _ height: Int, format: ImageFormat
    ) throws(DecodingError) -> (
        pixels: Int, images: Int
    ) {
        let sizes: [(item: Int, sizes: [CodedFrameSize])]
        do {
            sizes = try HEIFItems(bytes).codedSizes()
        } catch {
            throw .corrupt(format: format, message: "a coded image's header cannot be read")
        }
        let side = max(width, height) + 64, area = (width + 64) * (height + 64)
        var pixels = 0
        for (item, found) in sizes {
            guard !found.isEmpty else { throw .corrupt(format: format, message: "item \(item) has no readable sequence header") }
            for size in found where size.width > side || size.height > side || size.width * size.height > area {
                throw .corrupt(
                    format: format, message: "item \(item) is coded at \(size.width)×\(size.height), larger than the \(width)×\(height) image")
            }
            pixels += found.map { $0.width * $0.height }.max() ?? 0
        }
        return (pixels, sizes.count)
    }

    /// Every `hvc1` and `av01` item with the sizes of the sequence headers in its configuration
    /// box and in its data (the decoder sees both).
    func codedSizes() throws(BitReader.End) -> [(item: Int, sizes: [CodedFrameSize])] {
        var found: [(item: Int, sizes: [CodedFrameSize])] = []
        for id in items.keys.sorted() {
            guard let item = items[id], item.type == "hvc1" || item.type == "av01" else { continue }
            let data = try self.data(of: item)
            var sizes: [CodedFrameSize] = []
            for index in item.properties where index >= 1 && index <= properties.count {
                let (type, payload) = properties[index - 1]
                if item.type == "hvc1", type == "hvcC" {
                    var reader = BitReader(payload)
                    try reader.skip(21 * 8 + 6)
                    let lengthSize = try reader.int(2) + 1
                    for _ in 0..<(try reader.int(8)) {
                        try reader.skip(8)
                        for _ in 0..<(try reader.int(16)) {
                            if let size = try CodedFrameSize.hevc(nal: try reader.bytes(try reader.int(16))) { sizes.append(size) }
                        }
                    }
                    if let data { sizes += try CodedFrameSize.hevc(units: data, lengthSize: lengthSize) }
                } else if item.type == "av01", type == "av1C" {
                    sizes += try CodedFrameSize.av1(obus: payload.dropFirst(4))
                    if let data { sizes += try CodedFrameSize.av1(obus: data) }
                }
            }
            found.append((id, sizes))
        }
        return found
    }

    /// The boxes directly inside `bytes`: type and payload (a size of 1 is a 64-bit size, 0 runs
    /// to the end).
    private static func boxes(_ bytes: ArraySlice<UInt8>) throws(BitReader.End) -> [(type: String, payload: ArraySlice<UInt8>)] {
        var reader = BitReader(bytes), found: [(String, ArraySlice<UInt8>)] = []
        while reader.remaining >= 64 {
            var size = try reader.int(32), header = 8
            let type = String(decoding: try reader.bytes(4), as: Unicode.ASCII.self)
            if size == 1 {
                let large = try reader.bits(64)
                guard large <= UInt64(Int.max) else { throw BitReader.End() }
                (size, header) = (Int(large), 16)
            } else if size == 0 {
                size = reader.remaining / 8 + header
            }
            guard size >= header else { throw BitReader.End() }
            found.append((type, try reader.bytes(size - header)))
        }
        return found
    }

    private mutating func read(meta: ArraySlice<UInt8>) throws(BitReader.End) {
        for (type, payload) in try HEIFItems.boxes(meta) {
            switch type {
            case "iinf": try read(itemInfo: payload)
            case "iloc": try read(itemLocations: payload)
            case "idat": itemData = payload
            case "pitm":
                var reader = BitReader(payload)
                let version = try reader.int(8)
                try reader.skip(24)
                primary = try reader.int(version == 0 ? 16 : 32)
            case "iprp":
                for (inner, content) in try HEIFItems.boxes(payload) {
                    if inner == "ipco" { properties = try HEIFItems.boxes(content) }
                    if inner == "ipma" { try read(propertyAssociations: content) }
                }
            default: break
            }
        }
    }

    /// `iinf`: the `infe` boxes of version 2 and 3 name the item types.
    private mutating func read(itemInfo payload: ArraySlice<UInt8>) throws(BitReader.End) {
        var reader = BitReader(payload)
        let version = try reader.int(8)
        try reader.skip(24 + (version == 0 ? 16 : 32))
        for (type, entry) in try HEIFItems.boxes(try reader.rest()) where type == "infe" {
            var infe = BitReader(entry)
            let entryVersion = try infe.int(8)
            guard entryVersion >= 2 else { continue }
            try infe.skip(24)
            let id = try infe.int(entryVersion == 2 ? 16 : 32)
            try infe.skip(16)
            items[id, default: Item()].type = String(decoding: try infe.bytes(4), as: Unicode.ASCII.self)
        }
    }

    /// `iloc`: each item's construction method and extents.
    private mutating func read(itemLocations payload: ArraySlice<UInt8>) throws(BitReader.End) {
        var reader = BitReader(payload)
        let version = try reader.int(8)
        try reader.skip(24)
        let offsetSize = try reader.int(4), lengthSize = try reader.int(4), baseSize = try reader.int(4)
        let fourth = try reader.int(4), indexSize = version >= 1 ? fourth : 0
        for _ in 0..<(try reader.int(version < 2 ? 16 : 32)) {
            let id = try reader.int(version < 2 ? 16 : 32)
            var item = items[id] ?? Item()
            item.method = version >= 1 ? (try reader.int(16)) & 0xF : 0
            try reader.skip(16)  // data_reference_index
            let base = try reader.int(min(62, 8 * baseSize))
            item.extents = []
            for _ in 0..<(try reader.int(16)) {
                try reader.skip(8 * indexSize)
                let offset = try reader.int(min(62, 8 * offsetSize)), length = try reader.int(min(62, 8 * lengthSize))
                item.extents.append((base + offset, length))
            }
            items[id] = item
        }
    }

    /// `ipma`: the properties of each item, as indices into `ipco` from 1.
    private mutating func read(propertyAssociations payload: ArraySlice<UInt8>) throws(BitReader.End) {
        var reader = BitReader(payload)
        let version = try reader.int(8), wide = try reader.int(24) & 1 == 1
        for _ in 0..<(try reader.int(32)) {
            let id = try reader.int(version < 1 ? 16 : 32)
            for _ in 0..<(try reader.int(8)) {
                try reader.skip(1)  // essential
                items[id, default: Item()].properties.append(try reader.int(wide ? 15 : 7))
            }
        }
    }

    /// An item's bytes: its extents in the file (method 0) or in `idat` (method 1); nil for data
    /// in another item (method 2), which only the configuration box then sizes.
    private func data(of item: Item) throws(BitReader.End) -> ArraySlice<UInt8>? {
        let source: ArraySlice<UInt8>
        switch item.method {
        case 0: source = file
        case 1: source = itemData
        default: return nil
        }
        var parts: [ArraySlice<UInt8>] = []
        for (offset, length) in item.extents {
            let end = length == 0 ? source.count : offset + length
            guard offset >= 0, offset <= end, end <= source.count else { throw BitReader.End() }
            parts.append(source[(source.startIndex + offset)..<(source.startIndex + end)])
        }
        // One extent (the usual case) is read where it is; several are joined, as libheif joins them.
        return parts.count == 1 ? parts[0] : ArraySlice(parts.joined())
    }
}
