import Foundation

/// How many renders run at once, and which may wait for a turn: `running` at most, then requests
/// queue in arrival order while their deadline allows. A request is admitted only when the renders
/// ahead of it — at the recent mean time of a render — leave it time to run before its deadline,
/// and while fewer than `waiting` are queued (a bound on what the server holds, not the usual limit);
/// otherwise it is refused at once, with the wait it would have had. A place is reserved without
/// waiting (``reserve(deadline:)``, on the thread that read the request), so the refusal is
/// immediate and the queue is bounded by time as well as by count. Only the ticket whose turn has
/// come is woken.
///
/// The estimate can never lock the gate: a gate with nothing running and nothing queued admits
/// (whatever renders cost before), and the mean fades by half every ``halfLife`` seconds after the
/// last render ended, so a burst of renders cut at the time limit stops counting against the next
/// ones even while others are still running.
public final class RenderGate: @unchecked Sendable {
    /// The most renders running at once, ≥ 1.
    public let running: Int
    /// The most renders queued beyond those running, ≥ 0.
    public let waiting: Int
    /// Seconds after which what the last renders cost counts half as much: 10 by default.
    public let halfLife: Double
    /// The time now (a parameter so that tests can drive the gate through hours in no time).
    private let clock: @Sendable () -> Date
    private let lock = NSLock()
    // Guarded by `lock`.
    private var busy = 0
    private var queued = 0
    private var nextTicket = 0
    private var serving = 0
    private var closed = false
    /// Seconds a render takes, a moving mean of the recent ones (0 until one has run), as it was
    /// when `learned`; ``estimate()`` is what it is worth now.
    private var meanSeconds = 0.0
    private var learned = Date.distantPast
    /// Tickets whose holders stopped waiting before their turn.
    private var skipped: Set<Int> = []
    /// The semaphore each waiting ticket sleeps on: a slot coming free wakes the one ticket whose
    /// turn it is, never the whole queue (a hundred waiters woken for each render would cost more
    /// than the renders).
    private var sleepers: [Int: DispatchSemaphore] = [:]

    /// `running` below 1 counts as 1, `waiting` below 0 as 0, a `halfLife` below 0.1 s as 0.1 s.
    public init(running: Int, waiting: Int, halfLife: Double = 10, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.running = max(1, running)
        self.waiting = max(0, waiting)
        self.halfLife = max(0.1, halfLife)
        self.clock = clock
    }

    /// A reserved place: pass it to ``wait(_:until:)`` exactly once.
    public struct Ticket: Sendable {
        fileprivate let number: Int
    }

    /// Why ``reserve(deadline:)`` refused.
    public enum Refusal: Error, Equatable, Sendable {
        /// The gate is closed: the server is shutting down.
        case closed
        /// The queue holds `waiting` already.
        case full
        /// The renders ahead would take about `seconds`, past the request's deadline.
        case wouldWait(seconds: Double)
    }

    /// A place in the queue, or why there is none. Never waits.
    public func reserve(deadline: Date) -> Result<Ticket, Refusal> {
        lock.lock()
        defer { lock.unlock() }
        if let refusal = refusal(deadline: deadline) { return .failure(refusal) }
        queued += 1
        nextTicket += 1
        return .success(Ticket(number: nextTicket - 1))
    }

    /// What ``reserve(deadline:)`` would answer now, reserving nothing: nil when it would admit.
    public func wouldRefuse(deadline: Date) -> Refusal? {
        lock.lock()
        defer { lock.unlock() }
        return refusal(deadline: deadline)
    }

    /// What a render costs now, in seconds: the mean, halved for every ``halfLife`` since the last
    /// render ended.
    private func estimate(at now: Date) -> Double {
        meanSeconds * exp2(-max(0, now.timeIntervalSince(learned)) / halfLife)
    }

    private func refusal(deadline: Date) -> Refusal? {
        if closed { return .closed }
        // Nothing running, nothing waiting: whatever renders cost before, this one may try.
        if busy == 0 && queued == 0 { return nil }
        guard queued < waiting || busy + queued < running else { return .full }
        let now = clock(), mean = estimate(at: now)
        // The renders before it, `running` at a time, each at the mean; then its own.
        let ahead = max(0, busy + queued + 1 - running)
        let seconds = (Double(ahead) / Double(running)).rounded(.up) * mean
        if now.addingTimeInterval(seconds + mean) > deadline { return .wouldWait(seconds: seconds) }
        return nil
    }

    /// Waits for the ticket's turn (first come, first served) until `deadline`: true when it runs —
    /// then call ``release(after:)`` once — false when the deadline came first.
    public func wait(_ ticket: Ticket, until deadline: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { queued -= 1 }
        let sleeper = DispatchSemaphore(value: 0)
        while !(busy < running && ticket.number == serving) {
            sleepers[ticket.number] = sleeper
            lock.unlock()
            let woken = sleeper.wait(timeout: .now() + max(0, deadline.timeIntervalSince(clock()))) == .success
            lock.lock()
            sleepers[ticket.number] = nil
            if !woken, !(busy < running && ticket.number == serving) {
                // Give the turn up: the tickets after this one move on.
                if ticket.number == serving { advance() } else { skipped.insert(ticket.number) }
                wakeNext()
                return false
            }
        }
        advance()
        busy += 1
        wakeNext()
        return true
    }

    /// Ends a render that ``wait(_:until:)`` let run, which took `seconds`.
    public func release(after seconds: Double) {
        lock.lock()
        busy -= 1
        let now = clock(), faded = estimate(at: now)
        meanSeconds = learned == .distantPast ? seconds : 0.8 * faded + 0.2 * seconds
        learned = now
        wakeNext()
        lock.unlock()
    }

    /// Wakes the ticket whose turn it is, when a slot is free and it sleeps.
    private func wakeNext() {
        if busy < running { sleepers[serving]?.signal() }
    }

    /// Refuses every new request from now on: the drain. Those already queued keep their turn
    /// (each within its own deadline, so the drain ends within the time limit).
    public func close() {
        lock.lock()
        closed = true
        lock.unlock()
    }

    /// Renders waiting for a slot now (reserved, not yet running).
    public var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queued
    }

    /// The next ticket to be served, past those given up.
    private func advance() {
        serving += 1
        while skipped.remove(serving) != nil { serving += 1 }
    }
}
