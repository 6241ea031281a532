/// Byte-for-byte comparisons for the engine's own words: parameter names, choice words, colour
/// words, units and raw values, all ASCII.
///
/// Swift's `==`, `hasPrefix`, `lowercased()` and any walk over a String's Characters follow Unicode
/// (canonical equivalence, case mapping, grapheme breaks), and those rules bring Unicode's data
/// tables into the WebAssembly module: `make wasm` links without them, so a new use fails to link.
/// Here a word matches only its own bytes (`"\u{212A}"`, the Kelvin sign, is not `"K"`), and case is
/// ignored for ASCII letters only.
extension String {
    /// True when both hold the same UTF-8 bytes.
    func sameBytes(as other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// True when both hold the same UTF-8 bytes once ASCII letters are lower-cased.
    func sameBytes(ignoringASCIICase other: String) -> Bool {
        utf8.elementsEqual(other.utf8) { asciiLowercased($0) == asciiLowercased($1) }
    }

    /// True when the last bytes are `suffix`'s (ASCII case ignored when `ignoringASCIICase`).
    func endsWithBytes(of suffix: String, ignoringASCIICase: Bool = false) -> Bool {
        let bytes = Array(utf8), end = Array(suffix.utf8)
        guard bytes.count >= end.count else { return false }
        return bytes[(bytes.count - end.count)...].elementsEqual(end) { ignoringASCIICase ? asciiLowercased($0) == asciiLowercased($1) : $0 == $1 }
    }
}

/// The byte with an ASCII capital turned into its small letter; any other byte as it is.
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
