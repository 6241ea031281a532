import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a pool of worker threads, each polling its own connections
/// (epoll), keep-alive, an idle time-out for slow clients, and a graceful drain.
///
/// Each request goes through two functions of the owner's:
/// - `screen`, on the connection's worker once the request line and headers are in and before any
///   body is read: a response to send at once instead (a 503 when the queue would not admit it, a
///   403 for a bad signature), after which — when a body was announced — the connection is closed
///   and the body never read;
/// - `handler`, on the worker once the whole request is in: a response now, or work that makes it
///   (``HTTPAnswer/later(_:)``). For work the connection is suspended and the work runs on a thread
///   of its own, so a long render holds no worker: the workers go on reading, screening and
///   answering every other connection. The owner bounds how much work it hands out.
/// Bodies over `maximumBodyBytes` (declared or counted) get 413 without being kept, and every body
/// is reserved in the `held` budget before it is read — twice its size, for the copy a decoder
/// reads — so that uploads held at once stay within it: beyond it 503, before a `100 Continue`.
/// Every response over 16 KiB is reserved there too, from the moment it is queued until its last
/// byte is sent (libmicrohttpd sends it from our buffer, without a copy): a response that does not
/// fit is answered 503 instead, so clients that do not read cannot hold more than the budget.
///
/// Framing as RFC 9112 asks, since a proxy in front might read the request otherwise: both
/// `Content-Length` and `Transfer-Encoding`, two different `Content-Length` headers, more than one
/// `Transfer-Encoding`, a header name holding white space or another character a name may not hold,
/// or a value with a bare CR or LF get 400 and the connection is closed; a transfer coding other
/// than `chunked` gets 501 and the close. The whole request — line, headers and body — must arrive
/// within `requestTimeout`, and a body at no less than ``minimumBodyRate`` after its first
/// ``bodyGrace`` seconds (a watchdog closes the connection otherwise). When connections near
/// `connectionLimit`, those idle for a second are closed so that new clients get in.
public final class HTTPServer: Sendable {
    /// Where the server listens, its worker threads, its time-outs and its limits.
    public struct Configuration: Sendable {
        /// A numeric IPv4 or IPv6 address.
        public var host: String
        /// 0: any free port (see ``HTTPServer/port``).
        public var port: Int
        /// Worker threads.
        public var threads: Int
        /// A connection idle this long is closed, in seconds.
        public var idleTimeout: Int
        /// The whole request — headers and body — must arrive within this, in seconds (checked as its
        /// parts arrive).
        public var requestTimeout: Double
        /// The largest body taken.
        public var maximumBodyBytes: Int
        /// Connections open at once, over every worker.
        public var connectionLimit: Int
        /// Connections open at once from one address (0: no limit — behind a proxy every client
        /// has the proxy's address).
        public var perClientLimit: Int
        /// Bytes of request bodies (each reserved at twice its size) and of finished responses
        /// held at once, over every connection; share it with the service (``BlurService/Settings/held``)
        /// so that what it reserves for cache hits counts too.
        public var held: ByteBudget

        /// Defaults: 127.0.0.1 port 8080, 4 worker threads, 10 s idle, 30 s per request, 64 MiB
        /// bodies, 1,000 connections (no limit per client), 1 GiB of bodies and responses at once.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, threads: Int = 4, idleTimeout: Int = 10, requestTimeout: Double = 30,
            maximumBodyBytes: Int = 64 << 20, connectionLimit: Int = 1000, perClientLimit: Int = 0,
            held: ByteBudget = ByteBudget(capacity: 1 << 30)
        ) {
            self.perClientLimit = perClientLimit
            self.held = held
            self.host = host
            self.port = port
            self.threads = threads
            self.idleTimeout = idleTimeout
            self.requestTimeout = requestTimeout
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionLimit = connectionLimit
        }
    }

    /// Called on the worker with the method, raw target and headers (names lower-cased) before any body is read:
    /// a response to send instead, after which the connection closes, or nil to go on.
    public typealias Screen = @Sendable (_ method: String, _ rawTarget: String, _ headers: [String: String]) -> HTTPResponse?
    /// Called on the worker once the whole request is in: a response now, or work that makes it.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPAnswer

    /// The slowest a body may arrive once ``bodyGrace`` has passed, in bytes a second (averaged
    /// from the end of the headers): 1,024.
    public static let minimumBodyRate = 1024.0
    /// Seconds a body may take before ``minimumBodyRate`` applies: 2.
    public static let bodyGrace = 2.0
    /// Responses up to this many bytes are not reserved (error answers, small images): 16 KiB —
    /// at most `connectionLimit` of them are held at once.
    public static let unreservedResponseBytes = 16 << 10

    /// The port the server listens on.
    public let port: Int
    private let daemon: Daemon
    private let context: Context

    /// Starts listening.
    /// - Throws: ``ServeError/internalError(_:)`` when the address is not numeric or cannot be bound.
    public init(_ configuration: Configuration, screen: @escaping Screen, handler: @escaping Handler) throws(ServeError) {
        let context = Context(configuration: configuration, screen: screen, handler: handler)
        self.context = context
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = configuration.host.withCString { host in
            var config = bk_mhd_config(
                host: host, port: UInt16(clamping: configuration.port), threads: UInt32(clamping: configuration.threads),
                connection_limit: UInt32(clamping: configuration.connectionLimit), per_ip_limit: UInt32(clamping: configuration.perClientLimit),
                timeout_seconds: UInt32(clamping: configuration.idleTimeout),
                memory_limit: 64 << 10)
            return bk_mhd_start(
                &config, accessHandler, opaque, requestCompleted, opaque, requestStarted, opaque, connectionNotice, opaque,
                acceptPolicy, opaque)
        }
        guard let started else {
            throw .internalError("cannot listen on \(configuration.host) port \(configuration.port) (a numeric address, a free port)")
        }
        daemon = Daemon(pointer: started)
        port = Int(bk_mhd_bound_port(started))
    }

    /// Requests begun and not yet answered.
    public var requestsInProgress: Int { context.active.load(ordering: .relaxed) }

    /// True from ``drain(within:)`` on.
    public var isDraining: Bool { context.draining.load(ordering: .relaxed) }

    /// Stops taking connections (a new one is closed as soon as it is accepted), lets the requests in progress
    /// finish — their responses say `Connection: close` — then stops. Requests still arriving get up
    /// to `seconds`; a handler already running is always waited for (it has its own time limit, and
    /// its connection must be resumed before the daemon stops). Call once.
    public func drain(within seconds: Double) {
        // From here on a new connection is closed as soon as it is accepted (``acceptPolicy``).
        context.draining.store(true, ordering: .relaxed)
        let deadline = Date().addingTimeInterval(seconds)
        // Until nothing has been in progress for a quarter of a second: a request that arrives on an
        // open connection meanwhile is answered (503 for a render, with `Connection: close`) rather
        // than cut off when the daemon stops.
        var quietSince: Date?
        while true {
            let busy = context.handling.load(ordering: .relaxed) > 0 || context.active.load(ordering: .relaxed) > 0
            if busy {
                quietSince = nil
                if context.handling.load(ordering: .relaxed) == 0 && Date() >= deadline { break }
            } else if let quiet = quietSince {
                if Date().timeIntervalSince(quiet) >= 0.25 || Date() >= deadline { break }
            } else {
                quietSince = Date()
            }
            usleep(10_000)
        }
        context.clock.stop()
        bk_mhd_stop(daemon.pointer)
    }
}

/// The daemon's pointer, used only through libmicrohttpd's thread-safe calls.
private struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What the C callbacks reach through their context pointer.
private final class Context: Sendable {
    let configuration: HTTPServer.Configuration
    let screen: HTTPServer.Screen
    let handler: HTTPServer.Handler
    let active = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    /// The time limit on request lines and headers.
    let clock: ConnectionClock
    /// Handlers running (their connections suspended).
    let handling = Atomic<Int>(0)

    init(configuration: HTTPServer.Configuration, screen: @escaping HTTPServer.Screen, handler: @escaping HTTPServer.Handler) {
        self.configuration = configuration
        self.screen = screen
        self.handler = handler
        clock = ConnectionClock(
            limit: configuration.requestTimeout, connectionLimit: configuration.connectionLimit, minimumBodyRate: HTTPServer.minimumBodyRate,
            bodyGrace: HTTPServer.bodyGrace)
    }

    /// Queues `response` on `connection`, closing it afterwards when `close` is set or the server
    /// drains.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer?, close: Bool) -> MHD_Result {
        BlurServe.queue(response, on: connection, close: close || draining.load(ordering: .relaxed), held: configuration.held)
    }
}

/// One request between its first callback and its last. Only the connection's worker touches it.
private final class Exchange {
    let rawTarget: String
    let started = Date()
    var headersRead = false
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// Body bytes received so far (kept or not).
    var received = 0
    var bodyTooLarge = false
    /// The body budget is spent: the rest of the body is dropped and the answer is 503.
    var bodyOverBudget = false
    /// The room this request's body holds in the budget (a chunked body's grows in steps), given
    /// back when it completes.
    var reservations: [ByteReservation] = []
    var reserved = 0
    /// Set once the request is handed to the handler: a later call (after the resume) has nothing to do.
    var handedOver = false

    init(rawTarget: String) { self.rawTarget = rawTarget }
}

/// The raw target, before libmicrohttpd decodes it: the request's state begins here.
private let requestStarted: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    context, uri, _ in
    let context = Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue()
    context.active.add(1, ordering: .relaxed)
    let exchange = Exchange(rawTarget: uri.map { String(cString: $0) } ?? "")
    // The query is read from this copy (RequestTarget); libmicrohttpd's own parse of it is cut.
    bk_mhd_cut_query(uri)
    return Unmanaged.passRetained(exchange).toOpaque()
}

private let requestCompleted:
    @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode) -> Void = {
        context, connection, state, _ in
        guard let state, let exchange = state.pointee else { return }
        let context = Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue()
        // Releasing the exchange gives its body's room back.
        Unmanaged<Exchange>.fromOpaque(exchange).release()
        state.pointee = nil
        if let connection { context.clock.responded(connection) }
        context.active.subtract(1, ordering: .relaxed)
    }

/// Takes a new connection unless the server is draining, when it is closed at once: a client or a
/// balancer sees it fail before a byte is read, as if refused, and tries elsewhere.
private let acceptPolicy: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sockaddr>?, socklen_t) -> MHD_Result = {
    context, _, _ in
    Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue().draining.load(ordering: .relaxed) ? .NO : .YES
}

/// A connection opened or closing: the clock on its request lines and headers.
private let connectionNotice:
    @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode)
        -> Void = { context, connection, _, notice in
            guard let connection else { return }
            let clock = Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue().clock
            if notice == .CONNECTION_NOTIFY_STARTED {
                clock.opened(connection, socket: bk_mhd_connection_fd(connection))
            } else {
                clock.closed(connection)
            }
        }

private let accessHandler:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result = { context, connection, _, method, version, upload, uploadSize, state in
        let context = Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue()
        guard let state, let pointer = state.pointee else { return .NO }
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        let methodText = method
        let method = method.map { String(cString: $0) } ?? "GET"
        let configuration = context.configuration
        // A request that has taken too long to arrive is dropped without an answer.
        if Date().timeIntervalSince(exchange.started) > configuration.requestTimeout { return .NO }

        if !exchange.headersRead {
            exchange.headersRead = true
            if let connection { context.clock.headersArrived(connection) }
            let (headers, malformed) = readHeaders(
                of: connection, version: version.map { String(cString: $0) } ?? "", cutShort: bk_mhd_dropped_header_line(connection, methodText) != 0)
            exchange.headers = headers
            let declared = headers["content-length"].flatMap(Int.init)
            let announced = (declared ?? 0) > 0 || headers["transfer-encoding"] != nil
            if let malformed { return context.queue(malformed, on: connection, close: true) }
            if let declared, declared > configuration.maximumBodyBytes {
                return context.queue(
                    ServeError.tooLarge("the body is over \(configuration.maximumBodyBytes) bytes").response, on: connection, close: true)
            }
            if let early = context.screen(method, exchange.rawTarget, headers) {
                return context.queue(early, on: connection, close: announced)
            }
            // The body's room, before a byte of it is read (and before libmicrohttpd's 100 Continue).
            if let declared, declared > 0 {
                let capacity = configuration.held.capacity
                guard 2 * declared <= capacity else {
                    return context.queue(
                        ServeError.tooLarge("the body is over \(capacity / 2) bytes, half the memory the server keeps for bodies").response,
                        on: connection, close: true)
                }
                guard let room = configuration.held.reserve(2 * declared) else {
                    return context.queue(uploadsBusy.response, on: connection, close: true)
                }
                exchange.reservations = [room]
                exchange.reserved = room.bytes
            }
            return .YES
        }
        if let uploadSize, uploadSize.pointee > 0 {
            let n = uploadSize.pointee
            exchange.received += n
            if let connection { context.clock.received(connection, bytes: exchange.received) }
            if exchange.body.count + n > configuration.maximumBodyBytes {
                exchange.bodyTooLarge = true
                exchange.body = []
            } else if !exchange.bodyTooLarge, !exchange.bodyOverBudget, let upload {
                // A chunked body, whose size is not declared, is reserved as it comes.
                let needed = 2 * (exchange.body.count + n)
                if needed > exchange.reserved {
                    // Grown in steps of at least 64 KiB (the body's doubling at most: few steps).
                    let step = max(needed - exchange.reserved, 64 << 10, exchange.reserved / 2)
                    if let room = configuration.held.reserve(step) {
                        exchange.reservations.append(room)
                        exchange.reserved += room.bytes
                    } else {
                        exchange.bodyOverBudget = true
                    }
                }
                if exchange.bodyOverBudget {
                    exchange.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: n) {
                        exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if exchange.bodyTooLarge {
            return context.queue(
                ServeError.tooLarge("the body is over \(configuration.maximumBodyBytes) bytes").response, on: connection, close: true)
        }
        if exchange.bodyOverBudget { return context.queue(uploadsBusy.response, on: connection, close: true) }
        if exchange.handedOver { return .YES }
        exchange.handedOver = true
        if let connection { context.clock.arrived(connection) }
        var request = HTTPRequest(method: method, rawTarget: exchange.rawTarget, headers: exchange.headers, body: exchange.body)
        exchange.body = []
        let socket = connection.map { bk_mhd_connection_fd($0) } ?? -1
        request.isAbandoned = { bk_mhd_peer_gone(socket) != 0 }
        request.began = exchange.started
        let work: @Sendable () -> HTTPResponse
        switch context.handler(request) {
        case let .now(response): return context.queue(response, on: connection, close: false)
        case let .later(later): work = later
        }
        // Answered from a thread of its own: suspended, the connection waits without holding the
        // worker; the response is queued, then the connection resumed (both allowed from any thread
        // while it is suspended). The owner bounds how many such threads there are.
        let suspended = Suspended(connection: connection)
        context.handling.add(1, ordering: .relaxed)
        MHD_suspend_connection(connection)
        Thread {
            let response = work()
            _ = context.queue(response, on: suspended.connection, close: false)
            MHD_resume_connection(suspended.connection)
            context.handling.subtract(1, ordering: .relaxed)
        }.start()
        return .YES
    }

/// A suspended connection, handed to the thread that answers it.
private struct Suspended: @unchecked Sendable {
    let connection: OpaquePointer?
}

/// The 503 for a body that does not fit the body budget.
private let uploadsBusy = ServeError.busy("the server is receiving as many uploads as it holds; try again shortly", retryAfter: 1)

/// Every request header, by lower-cased name (the first of repeated ones), and the answer when the
/// request is malformed (400) or framed with a coding the server does not take (501) — see the
/// type's doc comment for the rules. `cutShort`: libmicrohttpd ended the headers at a line it did
/// not report (an empty name), so what it reports is not the whole request.
private func readHeaders(of connection: OpaquePointer?, version: String, cutShort: Bool) -> (headers: [String: String], malformed: HTTPResponse?) {
    final class Box {
        var headers: [String: String] = [:]
        var malformed: String?
        var transferEncodings = 0
        var hosts = 0
    }
    let box = Box()
    _ = MHD_get_connection_values(
        connection, .HEADER_KIND,
        { box, _, key, value in
            guard let box, let key else { return .YES }
            let found = Unmanaged<Box>.fromOpaque(box).takeUnretainedValue()
            let raw = String(cString: key)
            let name = raw.lowercased()
            let text = value.map { String(cString: $0) } ?? ""
            func refuse(_ reason: String) { found.malformed = found.malformed ?? reason }
            if raw.isEmpty || !raw.utf8.allSatisfy(isTokenByte) { refuse("a header name holds white space or a character a name may not hold") }
            if text.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) { refuse("the \(name) header holds a bare CR or LF") }
            if name == "transfer-encoding" { found.transferEncodings += 1 }
            if name == "host" { found.hosts += 1 }
            // 1*DIGIT and no more than fits: no sign, space, list or hex (RFC 9110 §8.6).
            if name == "content-length", text.isEmpty || text.utf8.count > 18 || !text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                refuse("Content-Length must be a number of bytes, got \(text)")
            }
            if let first = found.headers[name] {
                if name == "content-length", first != text { refuse("two different Content-Length headers") }
            } else {
                found.headers[name] = text
            }
            return .YES
        }, Unmanaged.passUnretained(box).toOpaque())
    if box.malformed == nil, cutShort { box.malformed = "a header line with an empty name, or folded onto the line before (RFC 9112 §5)" }
    if box.malformed == nil, box.hosts > 1 { box.malformed = "more than one Host header" }
    if box.malformed == nil, box.hosts == 0, version == "HTTP/1.1" { box.malformed = "an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)" }
    if let reason = box.malformed { return (box.headers, ServeError.badRequest(reason).response) }
    if let coding = box.headers["transfer-encoding"] {
        if version == "HTTP/1.0" {
            return (box.headers, ServeError.badRequest("Transfer-Encoding in an HTTP/1.0 request (RFC 9112 §6.1)").response)
        }
        if box.transferEncodings > 1 { return (box.headers, ServeError.badRequest("more than one Transfer-Encoding header").response) }
        if box.headers["content-length"] != nil {
            return (box.headers, ServeError.badRequest("both Content-Length and Transfer-Encoding (RFC 9112 §6.1)").response)
        }
        // Exactly `chunked`: libmicrohttpd reads a value with white space around it as another
        // coding (and then closes without an answer), so such a request is answered 501 here.
        guard coding.lowercased() == "chunked" else {
            var answer = ServeError.badRequest("the transfer coding \(coding) is not one this server takes (chunked alone)").response
            answer.status = 501
            return (box.headers, answer)
        }
    }
    return (box.headers, nil)
}

/// Whether `byte` may stand in a header name (RFC 9110 §5.6.2's `tchar`).
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

/// A response's body in memory libmicrohttpd sends from, and the room it holds in the budget, both
/// let go when libmicrohttpd is done with the response.
private final class HeldBody {
    let buffer: UnsafeMutableRawPointer
    let reservation: ByteReservation?

    init(buffer: UnsafeMutableRawPointer, reservation: ByteReservation?) {
        self.buffer = buffer
        self.reservation = reservation
    }

    deinit { free(buffer) }
}

extension ServeError {
    /// The 503 for a response that does not fit the budget for responses held (the server's, or a
    /// cache hit's before it is read).
    static let responsesHeld = ServeError.busy(
        "the server holds as many finished responses for clients still reading them as its memory allows; try again shortly", retryAfter: 2)
}

/// Queues `response`, closing the connection afterwards when `close` is set. A body over
/// ``HTTPServer/unreservedResponseBytes`` keeps its room in `held` (its own reservation or one made
/// here) until libmicrohttpd has sent it; when there is no room, the answer is 503 instead.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer?, close: Bool, held: ByteBudget) -> MHD_Result {
    var response = response
    var reservation = response.reservation
    let count = response.body.count
    if count > HTTPServer.unreservedResponseBytes, (reservation?.bytes ?? 0) < count {
        reservation = held.reserve(count)
        if reservation == nil { response = ServeError.responsesHeld.response }
    }
    if response.status == 304 {
        // No Content-Length (libmicrohttpd's from a buffer would be 0), and the connection closed after it.
        guard let made = bk_mhd_create_bodyless_response() else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, 304, made)
    }
    let body = response.body
    guard let buffer = malloc(max(1, body.count)) else { return .NO }
    body.withUnsafeBytes { raw in if let base = raw.baseAddress { buffer.copyMemory(from: base, byteCount: raw.count) } }
    response.body = []
    let owner = Unmanaged.passRetained(HeldBody(buffer: buffer, reservation: reservation)).toOpaque()
    guard let made = MHD_create_response_from_buffer_with_free_callback_cls(body.count, buffer, releaseBody, owner) else {
        Unmanaged<HeldBody>.fromOpaque(owner).release()
        return .NO
    }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
    if close { _ = MHD_add_response_header(made, "Connection", "close") }
    return MHD_queue_response(connection, UInt32(response.status), made)
}

/// libmicrohttpd's call when a response's buffer is no longer needed.
private let releaseBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { owner in
    if let owner { Unmanaged<HeldBody>.fromOpaque(owner).release() }
}
