import BlurCore
import Testing

/// The store of immutable plans: one build per key, the least recently used dropped beyond its
/// count or its bytes, and a plan larger than the whole limit handed out but never kept.
@Suite struct PlanCacheTests {
    final class Plan: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// The cache's plan for `key`, and whether this call built it.
    static func lookUp(_ cache: PlanCache<String, Plan>, _ key: String, bytes: Int = 1) -> (plan: Plan, built: Bool) {
        var built = false
        let plan = cache.plan(for: key) {
            built = true
            return (Plan(key), bytes)
        }
        return (plan, built)
    }

    @Test func equalKeysShareOnePlanBuiltOnce() {
        let cache = PlanCache<String, Plan>(capacity: 4, byteLimit: 100)
        let first = Self.lookUp(cache, "a"), again = Self.lookUp(cache, "a"), other = Self.lookUp(cache, "b")
        #expect(first.built && !again.built && other.built)
        #expect(first.plan === again.plan && first.plan !== other.plan && other.plan.name == "b")
    }

    @Test func theLeastRecentlyUsedGoFirst() {
        let cache = PlanCache<String, Plan>(capacity: 2, byteLimit: 100)
        _ = Self.lookUp(cache, "a")
        _ = Self.lookUp(cache, "b")
        _ = Self.lookUp(cache, "a")  // now b is the least recently used
        _ = Self.lookUp(cache, "c")
        #expect(!Self.lookUp(cache, "a").built)
        #expect(Self.lookUp(cache, "b").built)
    }

    @Test func theByteLimitHolds() {
        let cache = PlanCache<String, Plan>(capacity: 10, byteLimit: 100)
        _ = Self.lookUp(cache, "a", bytes: 60)
        _ = Self.lookUp(cache, "b", bytes: 60)  // together over the limit: a goes
        #expect(!Self.lookUp(cache, "b").built)
        #expect(Self.lookUp(cache, "a", bytes: 60).built)
        // A plan beyond the whole limit is handed out and not kept.
        let huge = Self.lookUp(cache, "huge", bytes: 101)
        #expect(huge.built && huge.plan.name == "huge" && Self.lookUp(cache, "huge", bytes: 101).built)
        #expect(!Self.lookUp(cache, "a", bytes: 60).built)
    }
}
