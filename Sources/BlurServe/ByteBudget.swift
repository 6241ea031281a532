import Synchronization

/// Bytes a server holds beyond its renders — request bodies being read, finished responses waiting
/// for their clients — against one capacity: each is reserved before the memory is spent and given
/// back when it is freed, so that many slow clients cannot hold more than the capacity between them.
public final class ByteBudget: Sendable {
    /// The most bytes held at once.
    public let capacity: Int
    private let held = Atomic<Int>(0)

    /// A budget of `capacity` bytes (at least 0).
    public init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Bytes held now.
    public var heldBytes: Int { held.load(ordering: .relaxed) }

    /// `bytes` more, or nil — reserving nothing — when they do not fit. The reservation is given
    /// back when the value is released.
    public func reserve(_ bytes: Int) -> ByteReservation? {
        guard take(bytes) else { return nil }
        return ByteReservation(budget: self, bytes: bytes)
    }

    /// Takes `bytes` (≥ 0) when they fit: false, taking nothing, when they do not.
    func take(_ bytes: Int) -> Bool {
        var now = held.load(ordering: .relaxed)
        while true {
            guard bytes <= capacity - now else { return false }
            let (exchanged, original) = held.compareExchange(expected: now, desired: now + bytes, ordering: .relaxed)
            if exchanged { return true }
            now = original
        }
    }

    /// Gives back `bytes` taken with ``take(_:)``.
    func give(_ bytes: Int) { held.subtract(bytes, ordering: .relaxed) }
}

/// Bytes reserved in a ``ByteBudget``, given back when the last copy of the value is released.
public final class ByteReservation: Sendable {
    /// The bytes reserved.
    public let bytes: Int
    private let budget: ByteBudget

    init(budget: ByteBudget, bytes: Int) {
        self.budget = budget
        self.bytes = bytes
    }

    deinit { budget.give(bytes) }
}
