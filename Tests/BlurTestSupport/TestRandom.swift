/// Deterministic pseudo-random numbers (xorshift64): the one generator behind every test's noise,
/// so a failure reproduces from its seed.
public struct TestRandom: Sendable {
    public var state: UInt64

    /// A generator whose first state is `seed` spread over all 64 bits (never 0): the seeding of
    /// ``TestImages/noise(width:height:seed:opaque:)``.
    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// A generator that starts from `state` exactly as given. xorshift stays at 0 forever, so
    /// `state` must not be 0.
    public init(state: UInt64) {
        precondition(state != 0, "xorshift never leaves state 0")
        self.state = state
    }

    /// The next 64 bits.
    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// The next byte: bits 24…31 of ``next()``.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }
}
