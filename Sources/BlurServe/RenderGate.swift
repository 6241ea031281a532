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
/// The wait counts the renders running now, not only the mean: a slot comes free when its render is
/// expected to end — at the mean, or, once it has outlived the mean, after as long again as it has
/// run (up to its own deadline while that is ahead) — so renders that run long keep the next requests out (503 at
/// once, and ``wouldRefuse(deadline:)`` says so for `/healthz`) instead of letting them wait for a
/// slot that will not come. A request is admitted when the slot it would get comes free in time for
/// its own render, counted at the mean.
///
/// The estimate can never lock the gate: a gate with nothing running and nothing queued admits
/// (whatever renders cost before), a render's time counts at most up to its deadline, and the mean
/// fades by half every ``halfLife`` seconds after the last render ended, so a burst of renders cut
/// at the time limit stops counting against the next ones even while others are still running.
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
    /// The renders running, by ticket: when each began and its deadline.
    private var runs: [Int: (began: Date, deadline: Date)] = [:]
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
        let seconds = wait(at: now, mean: mean)
        // Its own render too, at the mean (which, each render counted up to its deadline, is never
        // over the time limit: a free slot always admits).
        if now.addingTimeInterval(seconds + mean) > deadline { return .wouldWait(seconds: seconds) }
        return nil
    }

    /// Seconds until a new request's slot comes free: the `ahead`-th slot to free, the running
    /// renders each ending when expected (see the type), the queued ones after them at the mean.
    private func wait(at now: Date, mean: Double) -> Double {
        let ahead = busy + queued + 1 - running
        guard ahead > 0 else { return 0 }
        var ends = runs.values.map { run -> Double in
            let elapsed = now.timeIntervalSince(run.began), left = run.deadline.timeIntervalSince(now)
            let expected = elapsed < mean ? mean - elapsed : elapsed
            // Until its deadline it ends by then; past it (work that could not be interrupted) it
            // is expected to run as long again.
            return left > 0 ? min(expected, left) : expected
        }
        ends.sort()
        // Slots beyond those whose renders are tracked (none, unless a ticket is released twice) at the mean.
        while ends.count < running { ends.append(mean) }
        // Each round of `running` queued renders ends a mean after the round before it.
        let round = (ahead - 1) / running, slot = (ahead - 1) % running
        return ends[slot] + Double(round) * mean
    }

    /// Waits for the ticket's turn (first come, first served) until `deadline`: true when it runs —
    /// then call ``release(_:after:)`` once — false when the deadline came first.
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
        runs[ticket.number] = (clock(), deadline)
        wakeNext()
        return true
    }

    /// Ends the render `ticket` holds (one ``wait(_:until:)`` let run), which took `seconds`:
    /// counted at most up to its deadline, as it was cut there.
    public func release(_ ticket: Ticket, after seconds: Double) {
        lock.lock()
        busy -= 1
        let run = runs.removeValue(forKey: ticket.number)
        let sample = run.map { min(seconds, max(0, $0.deadline.timeIntervalSince($0.began))) } ?? seconds
        let now = clock(), faded = estimate(at: now)
        meanSeconds = learned == .distantPast ? sample : 0.8 * faded + 0.2 * sample
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

    /// Renders running past their deadline now: work the time limit has not stopped yet, which a
    /// balancer should see as a server not ready.
    public var overrunning: Int {
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        return runs.values.filter { $0.deadline < now }.count
    }

    /// The next ticket to be served, past those given up.
    private func advance() {
        serving += 1
        while skipped.remove(serving) != nil { serving += 1 }
    }
}
