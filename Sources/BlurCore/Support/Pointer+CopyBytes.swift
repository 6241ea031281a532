extension UnsafeMutablePointer where Pointee == UInt8 {
    /// Copies `count` bytes from `source` (the two may overlap): one `memmove`. In WebAssembly the
    /// generic `update(from:count:)` stays a loop calling a copy function per byte, and a `memmove`
    /// there is one bulk-memory `memory.copy`.
    @inline(__always)
    func copyBytes(from source: UnsafePointer<UInt8>, count: Int) {
        UnsafeMutableRawPointer(self).copyMemory(from: source, byteCount: count)
    }
}
