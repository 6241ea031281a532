import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny, real HTTP/1.1 server for tests: it listens on 127.0.0.1 on a port the kernel picks,
/// answers each connection from its own thread with a canned response, and closes the connection.
///
///     let server = try LocalHTTPServer(routes: ["/a.png": .init(body: bytes, contentType: "image/png")])
///     defer { server.stop() }
///     let (data, _) = try await URLSession.shared.data(from: server.url("/a.png"))
///
/// The request body, if any, is ignored. Unknown paths get `notFound` (a 404 by default).
/// `stop()` (also run by `deinit`) closes the listener, cuts short any pending `delay`,
/// shuts down open connections and waits (boundedly) for all server threads to finish.
final class LocalHTTPServer: @unchecked Sendable {
    /// A canned response. `delay` is how long the server waits, after reading the request,
    /// before it sends anything; `stop()` interrupts the wait.
    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
        var contentType: String
        var delay: Double

        init(
            status: Int = 200, body: [UInt8] = [], contentType: String = "application/octet-stream",
            delay: Double = 0
        ) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.delay = delay
        }

        /// A UTF-8 `text/plain` response.
        static func text(_ string: String, status: Int = 200, delay: Double = 0) -> Response {
            Response(
                status: status, body: Array(string.utf8), contentType: "text/plain; charset=utf-8",
                delay: delay)
        }

        /// The default answer for paths that have no route.
        static let notFound = Response.text("Not Found", status: 404)
    }

    enum ServerError: Error, CustomStringConvertible {
        case socket(call: String, errno: Int32)

        var description: String {
            switch self {
            case .socket(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
            }
        }
    }

    /// The port the server listens on (on 127.0.0.1).
    let port: UInt16
    let routes: [String: Response]
    let notFound: Response

    private let state: State

    /// Binds 127.0.0.1:0 and starts the accept loop on its own thread.
    init(routes: [String: Response], notFound: Response = .notFound) throws {
        let fd = try Self.boundSocket()
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw ServerError.socket(call: "listen", errno: code)
        }
        let port: UInt16
        do { port = try Self.localPort(of: fd) } catch { close(fd); throw error }

        self.port = port
        self.routes = routes
        self.notFound = notFound
        self.state = State(listenFD: fd)

        // The thread holds only `state` and the routes, never `self`, so `deinit` can run.
        let state = self.state
        let table = Table(routes: routes, notFound: notFound)
        // Thread names are set from inside the thread (that is what reaches the OS on Linux), ≤ 15 bytes.
        Thread {
            Thread.current.name = "HTTPTest.accept"
            Self.acceptLoop(state: state, table: table)
        }.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` followed by `path` (a leading "/" is added if missing).
    func url(_ path: String) -> URL {
        let p = path.hasPrefix("/") ? path : "/" + path
        return URL(string: "http://127.0.0.1:\(port)\(p)")!
    }

    /// The request targets received so far (path plus any query), in order of arrival.
    var requestedPaths: [String] { state.withLock { $0.requestedPaths } }

    /// Stops accepting, interrupts delayed responses, shuts down open connections and waits up to
    /// `timeout` seconds for the server threads to finish. Idempotent.
    func stop(timeout: Double = 5) {
        let listenFD: Int32? = state.withLock { s in
            guard !s.stopped else { return nil }
            s.stopped = true
            for fd in s.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return s.listenFD
        }
        state.condition.broadcast()  // wake any delayed responses
        guard let listenFD else { return }
        // On Linux, shutdown() on a listening socket makes a blocked accept() return (EINVAL).
        shutdown(listenFD, Int32(SHUT_RDWR))
        // Close only after the accept loop is gone, so the descriptor number cannot be reused under it.
        if state.acceptLoopDone.wait(timeout: .now() + timeout) == .success {
            close(listenFD)
        }
        _ = state.connectionThreads.wait(timeout: .now() + timeout)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on (bound to port 0, read, closed): connecting to
    /// it is refused, unless some other process happens to take it in the meantime.
    static func unusedPort() -> UInt16 {
        guard let fd = try? boundSocket() else { return 1 }  // port 1 (tcpmux) is essentially never open
        defer { close(fd) }
        return (try? localPort(of: fd)) ?? 1
    }

    // MARK: - Shared state

    private struct Table: Sendable {
        let routes: [String: Response]
        let notFound: Response

        func response(for target: String) -> Response {
            if let r = routes[target] { return r }
            let path = String(target.prefix { $0 != "?" && $0 != "#" })
            return routes[path] ?? notFound
        }
    }

    private final class State: @unchecked Sendable {
        struct Guarded {
            var stopped = false
            var listenFD: Int32
            var connections: Set<Int32> = []
            var requestedPaths: [String] = []
        }

        /// Guards `guarded`; also the condition that delayed responses wait on.
        let condition = NSCondition()
        private var guarded: Guarded
        let acceptLoopDone = DispatchSemaphore(value: 0)
        let connectionThreads = DispatchGroup()

        init(listenFD: Int32) { guarded = Guarded(listenFD: listenFD) }

        func withLock<T>(_ body: (inout Guarded) -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body(&guarded)
        }

        /// Sleeps up to `seconds`, returning early when the server stops. Returns false if stopped.
        func sleep(_ seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !guarded.stopped {
                if !condition.wait(until: deadline) { return true }  // deadline passed
            }
            return false
        }
    }

    // MARK: - Threads

    private static func acceptLoop(state: State, table: Table) {
        defer { state.acceptLoopDone.signal() }
        let listenFD = state.withLock { $0.listenFD }
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                let code = errno
                if state.withLock({ $0.stopped }) { return }
                if code == EINTR || code == ECONNABORTED || code == EAGAIN { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    usleep(10_000)
                    continue
                }
                return
            }
            let accepted: Bool = state.withLock { s in
                guard !s.stopped else { return false }
                s.connections.insert(fd)
                state.connectionThreads.enter()
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            Thread {
                Thread.current.name = "HTTPTest.conn"
                serve(fd: fd, state: state, table: table)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
                state.connectionThreads.leave()
            }.start()
        }
    }

    private static func serve(fd: Int32, state: State, table: Table) {
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // A client that never finishes its request must not pin the thread forever.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        guard let head = readHead(fd: fd) else { return }
        // Request line: METHOD SP TARGET SP VERSION
        let requestLine = head.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        let method = parts.first.map(String.init) ?? ""
        var target = parts.count > 1 ? String(parts[1]) : "/"
        // Absolute-form ("http://host:port/path"), as sent to proxies: keep only the path.
        if let url = URL(string: target), url.scheme != nil {
            target = url.path.isEmpty ? "/" : url.path
            if let q = url.query { target += "?" + q }
        }
        state.withLock { $0.requestedPaths.append(target) }

        let response = table.response(for: target)
        if response.delay > 0, !state.sleep(response.delay) { return }  // stopped while waiting

        var header = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        header += "Content-Length: \(response.body.count)\r\n"
        header += "Content-Type: \(response.contentType)\r\n"
        header += "Connection: close\r\n\r\n"
        var bytes = Array(header.utf8)
        if method != "HEAD" { bytes += response.body }
        _ = sendAll(fd: fd, bytes)
        // Half-close so the client sees EOF after the body, then drain briefly so that close()
        // does not turn unread request bytes into a reset that could discard the response.
        shutdown(fd, Int32(SHUT_WR))
        var drainTimeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &drainTimeout, socklen_t(MemoryLayout<timeval>.size))
        var scratch = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &scratch, scratch.count, 0) > 0 {}
    }

    /// Reads until the blank line that ends the request head; nil if the peer closed or timed out first.
    private static func readHead(fd: Int32) -> String? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while data.count < 1 << 20 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            let searchFrom = max(0, data.count - 3)
            data += buffer[0..<n]
            if let end = firstIndex(of: terminator, in: data, from: searchFrom) {
                return String(decoding: data[..<end], as: UTF8.self)
            }
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = start
        while i <= haystack.count - needle.count {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func sendAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0  // Darwin: SO_NOSIGPIPE is set on the socket instead
        #endif
        var offset = 0
        return bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    // MARK: - Sockets

    /// A TCP socket with SO_REUSEADDR, bound to 127.0.0.1 on a kernel-chosen port.
    private static func boundSocket() throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError.socket(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ServerError.socket(call: "bind", errno: code)
        }
        return fd
    }

    private static func localPort(of fd: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw ServerError.socket(call: "getsockname", errno: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
