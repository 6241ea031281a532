import Synchronization

/// A small process-wide store of immutable plans by what they are built from: an interface that
/// redraws the same view frame after frame builds its plan once. Thread-safe. Holds at most
/// `capacity` plans and about `byteLimit` bytes of them; beyond either, the least recently used go
/// (plans already handed out stay valid: they are immutable). A few entries, looked up in turn: no
/// hash table (one fewer in the WebAssembly module).
package final class PlanCache<Key: Equatable & Sendable, Plan: AnyObject & Sendable>: Sendable {
    package let capacity: Int
    package let byteLimit: Int
    private let state = Mutex<(entries: [(key: Key, plan: Plan, bytes: Int, used: Int)], clock: Int)>(([], 0))

    package init(capacity: Int, byteLimit: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = byteLimit
    }

    /// The plan for `key`; `build` makes it (and says roughly how many bytes it holds) on first use.
    package func plan(for key: Key, build: () -> (plan: Plan, bytes: Int)) -> Plan {
        let found: Plan? = state.withLock { state in
            guard let i = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
            state.clock += 1
            state.entries[i].used = state.clock
            return state.entries[i].plan
        }
        if let found { return found }
        let (built, bytes) = build()  // outside the lock: building is the slow part
        return state.withLock { state in
            if let raced = state.entries.first(where: { $0.key == key }) { return raced.plan }
            guard bytes <= byteLimit else { return built }
            state.clock += 1
            state.entries.append((key, built, bytes, state.clock))
            while state.entries.count > capacity || state.entries.reduce(0, { $0 + $1.bytes }) > byteLimit,
                let oldest = state.entries.indices.min(by: { state.entries[$0].used < state.entries[$1].used })
            {
                state.entries.remove(at: oldest)
            }
            return built
        }
    }
}
