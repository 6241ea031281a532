import BlurCommandLine
import BlurKit
import BlurServe
import Foundation

/// `blurkit serve --root DIR`: the effects and placeholders over HTTP, with a playground at `/`.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "serve the effects and placeholders over HTTP, with a playground page"
    static let usage = "blurkit serve --root DIR [--host 127.0.0.1] [--port 8080] [options]"
    static let details = """
        Serves every effect of the command line over HTTP for images under --root (GET /blur/PATH?sigma=8)
        or sent as a POST body (POST /blur?sigma=8): one route per operation of the registry,
        \(BlurOperation.all.map { "/" + $0.flag }.joined(separator: ", ")) (/render takes a scene file
        under the root). Query parameters have the command line's names and
        ranges (see /openapi.json and docs/http-api.md); the format comes from format= or Accept. Also
        /healthz, /metrics (Prometheus) and the playground at /.

        Renders beyond --max-concurrent wait in arrival order while their time limit allows: a request
        whose wait (the renders ahead at the recent time of one) would leave it no time to render gets 503
        with Retry-After at once, before its query is read. --timeout holds inside every render (checked
        between bands, frames and layers), and a render whose client has gone stops. --memory-budget
        covers the renders (each gets its share) and what the server holds for clients (a quarter of
        it: request bodies, reserved before they are read at twice their size, and finished responses
        until their last byte is sent) and the process itself (64 MB, at most a quarter); outputs are
        capped by --max-output.
        SIGINT or SIGTERM stops accepting, lets the requests in flight finish within --timeout + 1 s, and exits 0.
        """
    static let operandCount = 0...0
    static let readsFirstWritesSecond = false

    static let port = ParameterSpec(
        name: "port", unit: "", range: 0...65535, defaultValue: 8080, integer: true, summary: "TCP port (0: any free one, printed at start)")
    static let threads = ParameterSpec(
        name: "threads", unit: "", range: 1...1024, defaultValue: nil, integer: true,
        summary: "threads reading and answering connections (renders run on threads of their own)")
    static let maximumConcurrent = ParameterSpec(
        name: "max-concurrent", unit: "", range: 1...1024, defaultValue: nil, integer: true,
        summary: "renders at once; more wait in the queue")
    static let maximumQueued = ParameterSpec(
        name: "max-queue", unit: "", range: 0...65536, defaultValue: 1024, integer: true,
        summary: "renders that may wait for a slot at most (they wait while their time limit allows; beyond, 503 at once)")
    static let maximumConnections = ParameterSpec(
        name: "max-connections", unit: "", range: 1...100_000, defaultValue: 1000, integer: true,
        summary: "connections open at once (near it, connections idle for a second are closed)")
    static let maximumPerClient = ParameterSpec(
        name: "max-connections-per-client", unit: "", range: 0...100_000, defaultValue: 0, integer: true,
        summary: "connections open at once from one address (0: no limit; keep 0 behind a proxy)")
    static let maximumOutput = ParameterSpec(
        name: "max-output", unit: "MB", range: 1...65536, defaultValue: 256, integer: true,
        summary: "largest response body (413 beyond; an uncompressed one is refused before it is rendered)")
    static let timeout = ParameterSpec(
        name: "timeout", unit: "s", range: 0.1...3600, defaultValue: 30,
        summary: "time limit of a request, from its first byte to its response; also the idle limit of a connection")
    static let cacheSize = ParameterSpec(
        name: "cache-size", unit: "MB", range: 1...Double(1 << 30), defaultValue: 1024, integer: true, summary: "the disk cache's size")
    static let maximumBody = ParameterSpec(
        name: "max-body", unit: "MB", range: 1...4096, defaultValue: 64, integer: true, summary: "largest request body taken")

    static let options: [OptionSpec] =
        [
            OptionSpec(name: "root", value: "DIR", help: "the folder whose images and scene files are served (required)"),
            OptionSpec(name: "host", value: "ADDR", help: "numeric address to listen on (default 127.0.0.1; 0.0.0.0 for every IPv4 address)"),
            OptionSpec(port, value: "N"),
            OptionSpec(threads, value: "N", defaultText: "the cores, at least 2"),
            OptionSpec(maximumConcurrent, value: "N", defaultText: "the cores"),
            OptionSpec(maximumQueued, value: "N"),
            OptionSpec(timeout, value: "S"),
            OptionSpec(maximumConnections, value: "N"),
            OptionSpec(maximumPerClient, value: "N"),
            OptionSpec(name: "key", value: "HEX", help: "take signed URLs only: HMAC-SHA256 under this key (hex, ≥ 16 bytes) as sig="),
            OptionSpec(name: "cache", value: "DIR", help: "keep rendered responses in this folder (made if missing)"),
            OptionSpec(cacheSize, value: "MB"),
            OptionSpec(maximumBody, value: "MB"),
            OptionSpec(maximumOutput, value: "MB"),
            OptionSpec(
                name: "web", value: "DIR",
                help: "the folder make wasm writes (blurkit.mjs, blurkit.wasm): served at /web/, and the playground previews with them as you drag"),
            StandardOptions.quiet,
        ] + StandardOptions.limits

    static func run(_ arguments: ParsedArguments) throws -> String? {
        guard let rootFolder = arguments.values["root"] else { throw CLIError.usage("serve needs --root DIR") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let maximumConcurrent = try arguments.integer(maximumConcurrent) ?? cores
        let maximumQueued = try arguments.integer(maximumQueued)!
        let timeout = try arguments.number(timeout)!
        let host = arguments.values["host"] ?? "127.0.0.1"
        guard ServeCommand.isNumericAddress(host) else {
            throw CLIError.usage("--host \(host): give a numeric address (127.0.0.1, ::1, 0.0.0.0), not a name")
        }
        let quiet = arguments.has(StandardOptions.quiet.name)
        // Mistakes in the command line (exit status 2), before anything is opened.
        let signer: URLSigner?
        do { signer = try arguments.values["key"].map { (key: String) throws(ServeError) in try URLSigner(hexKey: key) } } catch {
            throw CLIError.usage("\(error)")
        }
        do {
            let root: ServeRoot
            do { root = try ServeRoot(rootFolder) } catch { throw CLIError.failure("--root \(error)") }
            let capacity = try arguments.integer(cacheSize)! << 20
            let cache = try arguments.values["cache"].map { (folder: String) throws(ServeError) in try DiskCache(folder: folder, capacity: capacity) }
            // A quarter of the memory budget for request bodies and finished responses held at once
            // (cache hits included), the process itself set aside (its code, libraries, thread
            // stacks and the allocator's slack: 64 MB, at most a quarter of the budget), the rest
            // shared by the renders, so that together they stay under it.
            let budget = ImageLimits.memoryBudget, bodies = budget / 4, process = HeapCeiling.processAllowance(budget: budget)
            let held = ByteBudget(capacity: bodies)
            ImageLimits.memoryBudget = max(1 << 20, (budget - bodies - process) / maximumConcurrent)
            // The backstop behind every estimate: past the whole budget (less the process's own
            // resident code and libraries; at least half of it), every render stops.
            HeapCeiling.ceilProcess(at: max(budget / 2, budget - (HeapCeiling.residentOutsideHeap() ?? 0)))
            // The WebAssembly build, read once: the playground previews with it.
            var web: [String: [UInt8]]?
            if let folder = arguments.values["web"] {
                web = [:]
                for name in ["blurkit.mjs", "blurkit.wasm"] {
                    guard let bytes = try? AtomicFile.read(folder + "/" + name) else {
                        throw CLIError.usage("--web \(folder): no \(name) there (make wasm writes it to demo-output/web)")
                    }
                    web?[name] = bytes
                }
            }
            let service = BlurService(
                .init(
                    root: root, signer: signer, cache: cache, maximumConcurrent: maximumConcurrent, maximumQueued: maximumQueued,
                    timeout: timeout, maximumOutputBytes: try arguments.integer(maximumOutput)! << 20, web: web, held: held))

            // SIGINT and SIGTERM are waited for here: blocked in every thread (the server's inherit
            // the mask), taken with sigwait, so the drain runs as ordinary code.
            Interruption.serving.store(true, ordering: .relaxed)
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &signals, nil)

            let configuration = HTTPServer.Configuration(
                host: host, port: try arguments.integer(port)!, threads: try arguments.integer(threads) ?? max(2, cores),
                idleTimeout: max(1, Int(timeout.rounded(.up))), requestTimeout: timeout,
                maximumBodyBytes: try arguments.integer(maximumBody)! << 20, connectionLimit: try arguments.integer(maximumConnections)!,
                perClientLimit: try arguments.integer(maximumPerClient)!, held: held)
            let server = try HTTPServer(
                configuration, screen: { service.screen(method: $0, rawTarget: $1, headers: $2) }, handler: { service.handle($0) })
            let shown = host.contains(":") ? "[\(host)]" : host
            try AtomicFile.writeStandardError(
                Array("blurkit serve: listening on http://\(shown):\(server.port)/ (root \(root.path), \(maximumConcurrent) renders at once)\n".utf8))

            if let signer {
                // The playground's signed link, good for a day: the page it opens signs nothing itself.
                let expiry = Int(Date().timeIntervalSince1970) + 86_400
                try? AtomicFile.writeStandardError(
                    Array("blurkit serve: playground for 24 h: http://\(shown):\(server.port)\(signer.sign("/?expires=\(expiry)"))\n".utf8))
            }
            var received: Int32 = 0
            sigwait(&signals, &received)
            if !quiet { try? AtomicFile.writeStandardError(Array("blurkit serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"), draining\n".utf8)) }
            service.drain()
            server.drain(within: timeout + 1)
            if !quiet { try? AtomicFile.writeStandardError(Array("blurkit serve: stopped\n".utf8)) }
            return nil
        } catch let error as ServeError {
            throw CLIError.failure(error.description)
        }
    }

    /// True for an IPv4 or IPv6 address in numeric form, the only kind the server listens on.
    static func isNumericAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
