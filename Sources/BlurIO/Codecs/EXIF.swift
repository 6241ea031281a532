import BlurCore

/// The one piece of EXIF that BlurKit reads: the orientation tag (0x0112) of IFD0 in a JPEG's
/// APP1 segment. Malformed metadata is ignored (the picture is still shown, as stored).
public enum EXIF {
    /// The orientation recorded in a JPEG, or nil when there is none or it is not 1…8.
    public static func orientation(inJPEG bytes: [UInt8]) -> ImageOrientation? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        // Walk the marker segments up to the start of scan.
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 16,
                bytes[(at + 4)..<(at + 10)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
            {
                return orientation(inTIFF: bytes[(at + 10)..<(at + 2 + length)])
            }
            at += 2 + length
        }
        return nil
    }

    /// Reads tag 0x0112 from IFD0 of a TIFF structure (the body of an Exif segment).
    static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> ImageOrientation? {
        let base = tiff.startIndex, count = tiff.count
        guard count >= 8 else { return nil }
        let little: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= count else { return nil }
            let a = Int(tiff[base + o]), b = Int(tiff[base + o + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ o: Int) -> Int? {
            guard let hi = u16(little ? o + 2 : o), let lo = u16(little ? o : o + 2) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for e in 0..<entries {
            let entry = ifd + 2 + e * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
