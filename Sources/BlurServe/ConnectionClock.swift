import Foundation
import Synchronization

/// The time limit on what a connection sends: from the moment the server waits for a request's
/// line and headers (the connection opened, or the previous response sent) until they are all in.
/// libmicrohttpd's own time-out only measures silence, so a client trickling a byte at a time
/// could hold a connection for ever; a watchdog thread shuts the socket of any connection over the
/// limit, and libmicrohttpd then closes it. (Bodies are timed by the request handler as they come.)
/// When the connections open reach nine tenths of the server's cap, those that have been waiting
/// for a request for a second or more are shut as well: idle clients make way for new ones.
final class ConnectionClock: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        var waitingSince: Date?
    }

    private let limit: Double
    /// Open connections at which idle ones are cut early.
    private let crowded: Int
    /// Guarded by `lock` (a pthread mutex, which ThreadSanitizer sees, unlike `Mutex`'s futex).
    private var table: [UInt: Entry] = [:]
    private let lock = NSLock()
    private let running = Atomic<Bool>(true)

    init(limit: Double, connectionLimit: Int) {
        self.limit = limit
        crowded = max(1, connectionLimit * 9 / 10)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                usleep(100_000)
                cutOffLateConnections()
            }
        }
        thread.name = "blurkit-connection-clock"
        thread.start()
    }

    /// A connection opened (libmicrohttpd's start notification).
    func opened(_ connection: OpaquePointer, socket: Int32) {
        withTable { $0[key(connection)] = Entry(socket: socket, waitingSince: Date()) }
    }

    /// A connection is closing: called before its socket is closed, so the watchdog, which shuts
    /// sockets under the same lock, never touches a socket number that has been reused.
    func closed(_ connection: OpaquePointer) {
        withTable { _ = $0.removeValue(forKey: key(connection)) }
    }

    /// A request's headers are all in: the clock stops until the response is sent.
    func headersArrived(_ connection: OpaquePointer) {
        withTable { $0[key(connection)]?.waitingSince = nil }
    }

    /// A response is sent: the clock runs for the next request.
    func responded(_ connection: OpaquePointer) {
        withTable { $0[key(connection)]?.waitingSince = Date() }
    }

    /// Stops the watchdog (before the daemon stops).
    func stop() { running.store(false, ordering: .relaxed) }

    private func withTable(_ body: (inout [UInt: Entry]) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&table)
    }

    private func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    private func cutOffLateConnections() {
        let now = Date()
        withTable { table in
            let allowed = table.count >= crowded ? min(1, limit) : limit
            for (key, entry) in table {
                guard let since = entry.waitingSince, now.timeIntervalSince(since) > allowed else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                table[key]?.waitingSince = nil
            }
        }
    }
}
