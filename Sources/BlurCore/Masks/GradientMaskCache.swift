import Synchronization

/// The process-wide store of gradient masks: equal keys return the identical mask object, so views
/// with equal parameters share one, and a mask is built once.
///
/// Thread-safe. Holds at most ``capacity`` masks; when full, it starts over (masks already handed
/// out stay valid: they are immutable).
public final class GradientMaskCache: Sendable {
    /// The process-wide cache, holding at most 256 masks.
    public static let shared = GradientMaskCache()

    /// The most masks kept at once.
    public let capacity: Int
    private let state = Mutex<(masks: [GradientMask.Key: GradientMask], builds: Int)>(([:], 0))

    /// An empty cache of at most `capacity` masks (default 256; values < 1 count as 1).
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The mask for `key`, built on first use.
    public func mask(for key: GradientMask.Key) -> GradientMask {
        if let mask = state.withLock({ $0.masks[key] }) { return mask }
        let built = GradientMask(key)  // outside the lock: building is the slow part
        return state.withLock { state in
            if let raced = state.masks[key] { return raced }
            if state.masks.count >= capacity { state.masks.removeAll(keepingCapacity: true) }
            state.masks[key] = built
            state.builds += 1
            return built
        }
    }

    /// How many masks this cache has built since it was made: tests use it to prove that a change
    /// which does not affect a mask builds none.
    public var buildCount: Int { state.withLock { $0.builds } }
}
