import Foundation

/// How many renders run at once, and how many may wait for a turn: `running` at most, then up to
/// `waiting` more queue, in arrival order, each until its own deadline; a request beyond both is
/// refused at once. A place is reserved without waiting (``reserve()``, on the thread that reads
/// the request), so the refusal is immediate and the queue is bounded: the server never holds more
/// work than this, and a burst of twice the cores is served rather than refused.
public final class RenderGate: @unchecked Sendable {
    /// The most renders running at once, ≥ 1.
    public let running: Int
    /// The most renders queued beyond those running, ≥ 0.
    public let waiting: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var busy = 0
    private var queued = 0
    private var nextTicket = 0
    private var serving = 0
    /// Tickets whose holders stopped waiting before their turn.
    private var skipped: Set<Int> = []

    /// `running` below 1 counts as 1, `waiting` below 0 as 0.
    public init(running: Int, waiting: Int) {
        self.running = max(1, running)
        self.waiting = max(0, waiting)
    }

    /// A reserved place: pass it to ``wait(_:until:)`` exactly once.
    public struct Ticket: Sendable {
        fileprivate let number: Int
    }

    /// A place in the queue, or nil when every slot and place is taken. Never waits.
    public func reserve() -> Ticket? {
        condition.lock()
        defer { condition.unlock() }
        guard busy + queued < running + waiting else { return nil }
        queued += 1
        nextTicket += 1
        return Ticket(number: nextTicket - 1)
    }

    /// Waits for the ticket's turn (first come, first served) until `deadline`: true when it runs —
    /// then call ``release()`` once — false when the deadline came first.
    public func wait(_ ticket: Ticket, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        defer { queued -= 1 }
        while !(busy < running && ticket.number == serving) {
            if !condition.wait(until: deadline) {
                // Give the turn up: the tickets after this one move on.
                if ticket.number == serving { advance() } else { skipped.insert(ticket.number) }
                condition.broadcast()
                return false
            }
        }
        advance()
        busy += 1
        condition.broadcast()
        return true
    }

    /// Ends a render that ``wait(_:until:)`` let run.
    public func release() {
        condition.lock()
        busy -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Renders waiting for a slot now (reserved, not yet running).
    public var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued
    }

    /// True when a new request would be refused.
    public var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return busy + queued >= running + waiting
    }

    /// The next ticket to be served, past those given up.
    private func advance() {
        serving += 1
        while skipped.remove(serving) != nil { serving += 1 }
    }
}
