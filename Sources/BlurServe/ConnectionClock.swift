import Foundation
import Synchronization

/// The time limit on what a connection sends: from the moment the server waits for a request (the
/// connection opened, or the previous response sent) until the whole request — line, headers and
/// body — is in. libmicrohttpd's own time-out only measures silence, so a client trickling a byte
/// at a time could hold a connection for ever; a watchdog thread shuts the socket of any connection
/// over the limit, and libmicrohttpd then closes it. A body must also keep up a minimum rate once
/// its grace has passed, so that slow uploads cannot fill the connection limit for the whole time
/// limit. When the connections open reach nine tenths of the server's cap, those that have been
/// waiting for a request for a second or more are shut as well, and bodies get no grace: idle
/// clients make way for new ones.
final class ConnectionClock: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        /// When the server began waiting for the request; nil once it is all in.
        var waitingSince: Date?
        /// When its headers were in, while its body arrives.
        var bodySince: Date?
        var bodyBytes = 0
    }

    private let limit: Double
    private let minimumBodyRate: Double
    private let bodyGrace: Double
    /// Open connections at which idle ones are cut early.
    private let crowded: Int
    /// Guarded by `lock` (a pthread mutex, which ThreadSanitizer sees, unlike `Mutex`'s futex).
    private var table: [UInt: Entry] = [:]
    private let lock = NSLock()
    private let running = Atomic<Bool>(true)

    /// - Parameters:
    ///   - limit: seconds a whole request may take to arrive.
    ///   - minimumBodyRate: bytes a second a body must average once `bodyGrace` seconds have passed.
    init(limit: Double, connectionLimit: Int, minimumBodyRate: Double, bodyGrace: Double) {
        self.limit = limit
        self.minimumBodyRate = minimumBodyRate
        self.bodyGrace = bodyGrace
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

    /// A request's headers are all in: its body, if any, is timed from now.
    func headersArrived(_ connection: OpaquePointer) {
        withTable { $0[key(connection)]?.bodySince = Date() }
    }

    /// `bytes` of the request's body are in so far.
    func received(_ connection: OpaquePointer, bytes: Int) {
        withTable { $0[key(connection)]?.bodyBytes = bytes }
    }

    /// The whole request is in: the clock stops until the response is sent.
    func arrived(_ connection: OpaquePointer) {
        withTable { table in
            table[key(connection)]?.waitingSince = nil
            table[key(connection)]?.bodySince = nil
        }
    }

    /// A response is sent: the clock runs for the next request.
    func responded(_ connection: OpaquePointer) {
        withTable { table in
            table[key(connection)]?.waitingSince = Date()
            table[key(connection)]?.bodySince = nil
            table[key(connection)]?.bodyBytes = 0
        }
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
            let isCrowded = table.count >= crowded
            let allowed = isCrowded ? min(1, limit) : limit
            let grace = isCrowded ? min(1, bodyGrace) : bodyGrace
            for (key, entry) in table {
                guard let since = entry.waitingSince else { continue }
                var late = false
                if let body = entry.bodySince {
                    let elapsed = now.timeIntervalSince(body)
                    late = now.timeIntervalSince(since) > limit || (elapsed > grace && Double(entry.bodyBytes) < minimumBodyRate * elapsed)
                } else {
                    late = now.timeIntervalSince(since) > allowed
                }
                guard late else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                table[key]?.waitingSince = nil
                table[key]?.bodySince = nil
            }
        }
    }
}
