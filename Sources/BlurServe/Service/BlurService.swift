import BlurKit
import Foundation
import Synchronization

/// BlurKit over HTTP as a library: every operation of the registry as a route over images under
/// the root (by path) or sent as a POST body, and `/` (the playground), `/healthz`, `/metrics`,
/// `/openapi.json` and `/images`. Framework-neutral: ``handle(_:)`` takes an ``HTTPRequest`` value
/// and answers an ``HTTPAnswer`` (a response now, or work that makes it), so any Swift server can
/// mount it in a few lines — `blurkit serve` wires libmicrohttpd (``HTTPServer``) to it, and
/// `Examples/Server` shows another. Renders run the library's typed operations (``Renderer``) from
/// the file or the body in memory to memory: no temporary files, no command line.
///
/// A render waits for one of `maximumConcurrent` slots, in arrival order, while its deadline allows:
/// it is admitted only when the renders ahead of it, at the recent mean time of one, leave it time
/// to run within the request time limit (and while fewer than `maximumQueued` wait); otherwise it is
/// refused with 503 at once — an upload before its body is read. An idle service always admits,
/// and the mean fades with time, so a run of slow renders never locks the routes (``RenderGate``);
/// `/healthz` answers 503 while a render would be refused, so a balancer can send traffic elsewhere. The time limit holds inside the work — checked
/// while it waits, between bands, frames and layers — and a render whose client has gone is stopped. Responses carry a strong ETag (the input's
/// SHA-256, the route, its parameters and the format); `If-None-Match` gets 304 before any work;
/// the disk cache, when there is one, keeps what was rendered.
public final class BlurService: Sendable {
    /// How the service runs.
    public struct Settings: Sendable {
        /// The folder whose images and scene files the routes may name.
        public var root: ServeRoot
        /// With a key: signed URLs only (and the playground through its signed link).
        public var signer: URLSigner?
        /// Where rendered responses are kept, if anywhere.
        public var cache: DiskCache?
        /// Renders at once.
        public var maximumConcurrent: Int
        /// Renders that may wait for a slot beyond those running, at most: a bound on what the server
        /// holds; the usual limit is the time limit (see the type).
        public var maximumQueued: Int
        /// Seconds a request may take, checked while it waits and between bands, frames and layers.
        public var timeout: Double
        /// The most bytes a rendered response may take (413 beyond; an uncompressed one is refused
        /// before it is rendered). Default 256 MiB.
        public var maximumOutputBytes: Int
        /// What `make wasm` writes (`blurkit.mjs`, `blurkit.wasm`), served at `/web/` for the
        /// playground's previews; nil for none.
        public var web: [String: [UInt8]]?
        /// The budget the server holds request bodies and finished responses in
        /// (``HTTPServer/Configuration/held``): a cache hit reserves its body there before it reads
        /// the entry, and answers 503 when it does not fit. Nil: the server reserves at sending.
        public var held: ByteBudget?
        /// The operations served, one route each (`BlurOperation.all`, the registry, by default).
        public var operations: [BlurOperation] = BlurOperation.all

        /// Settings as given; by default no key, no cache, 2 renders at once and at most 1,024
        /// waiting, 30 s, outputs up to 256 MiB.
        public init(
            root: ServeRoot, signer: URLSigner? = nil, cache: DiskCache? = nil, maximumConcurrent: Int = 2, maximumQueued: Int = 1024,
            timeout: Double = 30, maximumOutputBytes: Int = 256 << 20, web: [String: [UInt8]]? = nil, held: ByteBudget? = nil
        ) {
            self.held = held
            self.maximumOutputBytes = maximumOutputBytes
            self.root = root
            self.signer = signer
            self.cache = cache
            self.maximumConcurrent = maximumConcurrent
            self.maximumQueued = maximumQueued
            self.timeout = timeout
            self.web = web
        }
    }

    /// The settings it runs with.
    public let settings: Settings
    /// Its counters, served at `/metrics`.
    let metrics = Metrics()
    private let gate: RenderGate
    /// SHA-256 of files under the root, by path, while their size, modification and change times and inode stay
    /// (at most 100,000 of them; then they are computed afresh).
    private let digests = Mutex<[String: (stamp: [Int], digest: String)]>([:])
    /// `/openapi.json`, made once from the registry.
    let openAPI: [UInt8]
    /// The routes that render, one per operation of ``Settings/operations``.
    let routes: [ServiceRoute]
    /// True once ``drain()`` is called: renders still running finish, new ones get 503.
    public var draining: Bool { isDraining.load(ordering: .relaxed) }
    private let isDraining = Atomic<Bool>(false)

    /// A service with `settings`.
    public init(_ settings: Settings) {
        self.settings = settings
        gate = RenderGate(running: settings.maximumConcurrent, waiting: settings.maximumQueued)
        routes = ServiceRoute.routes(settings.operations)
        // Under a key the document is public while /images is not: it names no file then.
        let found = settings.signer == nil ? BlurService.paths(under: settings.root, limit: 1000) : []
        openAPI = Array(
            OpenAPIDocument.make(
                routes: routes, signed: settings.signer != nil, web: settings.web != nil,
                examples: (found.first { !$0.hasSuffix(".json") }, found.first { $0.hasSuffix(".json") })
            ).utf8)
    }

    /// Starts the drain: new renders get 503 ("shutting down"); those queued or running finish,
    /// each within its time limit.
    public func drain() {
        isDraining.store(true, ordering: .relaxed)
        gate.close()
    }

    /// The answer to a request from its line and headers alone, before any body is read or room
    /// reserved for it, on the target as decoded (so `/%62lur` is `/blur`): 400 for a malformed
    /// target, 404 for no such route, 405 for a method the route does not take, under a key 403 for
    /// a signature that does not verify or has expired, and 503 for an upload the render queue
    /// would not admit (a GET goes on: it may be a cache hit or a 304). Nil: go on. A server closes
    /// the connection after such an answer when a body was announced.
    public func screen(method: String, rawTarget: String, headers: [String: String]) -> HTTPResponse? {
        let request = HTTPRequest(method: method, rawTarget: rawTarget, headers: headers)
        let target: RequestTarget
        do { target = try RequestTarget(rawTarget) } catch { return count(error.response, route: "other", request, Date()) }
        let route = routeName(target)
        do throws(ServeError) {
            let render = routes.first { $0.name == target.route }
            switch route {
            case "other": throw .notFound("no route /\(target.route); see /openapi.json")
            case "images": _ = try authorize(request)
            default: break
            }
            let allowed = render?.methods ?? ["GET", "HEAD"]
            guard allowed.contains(method) else { throw .methodNotAllowed("\(method) is not allowed here", allowed: allowed) }
            guard render != nil else { return nil }
            if settings.signer != nil { _ = try authorize(request) }
            if method == "POST", let refusal = gate.wouldRefuse(deadline: Date().addingTimeInterval(settings.timeout)) {
                return countRefusal(refusal, route: route)
            }
        } catch {
            return count(error.response, route: route, request, Date())
        }
        return nil
    }

    /// The name a request is counted under in the metrics: its route, `playground` for `/`, `other`
    /// for no route.
    private func routeName(_ target: RequestTarget) -> String {
        let known = routes.map(\.name) + ["healthz", "metrics", "openapi.json", "images", "web", "playground.js", "playground.css"]
        return target.route.isEmpty ? "playground" : known.contains(target.route) ? target.route : "other"
    }

    /// The 503 for `refusal`, counted.
    private func countRefusal(_ refusal: RenderGate.Refusal, route: String) -> HTTPResponse {
        let error = BlurService.busy(refusal, timeout: settings.timeout)
        if refusal != .closed { metrics.reject() }
        metrics.finish(route: route, status: 503, bytes: 0, seconds: 0)
        return error.response
    }

    /// The 503 for a refusal of the gate.
    static func busy(_ refusal: RenderGate.Refusal, timeout: Double) -> ServeError {
        switch refusal {
        case .closed: return .busy("the server is shutting down", retryAfter: 1)
        case .full: return .busy("the render queue is full; try again shortly", retryAfter: 1)
        case let .wouldWait(seconds):
            return .busy(
                "the renders ahead would take about \(formatNumber((seconds * 10).rounded() / 10)) s, past the time limit of \(formatNumber(timeout)) s; try again shortly",
                retryAfter: max(1, Int(seconds.rounded(.up)) / 2))
        }
    }

    /// The answer to `request`: at once, or — for a render — work for a thread of its own. Each is
    /// counted in the metrics under its route when it is answered.
    public func handle(_ request: HTTPRequest) -> HTTPAnswer {
        let began = Date()
        let target: RequestTarget
        do { target = try RequestTarget(request.rawTarget) } catch {
            return .now(count(error.response, route: "other", request, began))
        }
        let route = routeName(target)
        do {
            switch try respond(to: request, target) {
            case let .now(response): return .now(count(response, route: route, request, began))
            case let .later(work): return .later { [self] in count(work(), route: route, request, began) }
            }
        } catch {
            return .now(count(error.response, route: route, request, began))
        }
    }

    /// `response`, counted in the metrics.
    private func count(_ response: HTTPResponse, route: String, _ request: HTTPRequest, _ began: Date) -> HTTPResponse {
        metrics.finish(
            route: route, status: response.status, bytes: request.method == "HEAD" ? 0 : response.body.count,
            seconds: Date().timeIntervalSince(began))
        return response
    }

    private func respond(to request: HTTPRequest, _ target: RequestTarget) throws(ServeError) -> HTTPAnswer {
        let method = request.method
        func only(_ allowed: [String]) throws(ServeError) {
            guard allowed.contains(method) else { throw .methodNotAllowed("\(method) is not allowed here", allowed: allowed) }
        }
        switch target.route {
        case "":
            try only(["GET", "HEAD"])
            var token: String?
            if let signer = settings.signer {
                // The page itself is signed (`blurkit serve` prints the link), and hands its script a
                // token good until the link's expiry.
                let expiry = target.parameters.first { $0.name == "expires" }.flatMap { Int($0.value) } ?? 0
                guard (try? signer.verify(request.rawTarget)) != nil, Double(expiry) > Date().timeIntervalSince1970 else {
                    return .now(
                        HTTPResponse(
                            status: 403, contentType: "text/html; charset=utf-8",
                            body: Array(BlurService.signedOnlyPage.utf8)))
                }
                token = signer.token(until: expiry)
            }
            return .now(
                HTTPResponse(
                    status: 200, contentType: "text/html; charset=utf-8", body: PlaygroundFiles.page(token: token),
                    headers: ["Cache-Control": "no-store"]))
        case "playground.js":
            try only(["GET", "HEAD"])
            return .now(
                HTTPResponse(
                    status: 200, contentType: "text/javascript; charset=utf-8", body: PlaygroundFiles.script, headers: ["Cache-Control": "no-cache"]))
        case "playground.css":
            try only(["GET", "HEAD"])
            return .now(
                HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: PlaygroundFiles.style, headers: ["Cache-Control": "no-cache"])
            )
        case "healthz":
            try only(["GET", "HEAD"])
            if draining { throw .busy("the server is shutting down", retryAfter: 1) }
            let late = gate.overrunning
            if late > 0 { throw .busy("not ready: \(late) render\(late == 1 ? " is" : "s are") running past the time limit", retryAfter: 1) }
            // Not ready while a render asked now would be refused: a balancer sends it elsewhere.
            if let refusal = gate.wouldRefuse(deadline: Date().addingTimeInterval(settings.timeout)) {
                let reason = BlurService.busy(refusal, timeout: settings.timeout)
                throw .busy("not ready: \(reason.description)", retryAfter: 1)
            }
            return .now(.text("ok\n"))
        case "metrics":
            try only(["GET", "HEAD"])
            let queue = "# HELP blurkit_queued Renders waiting for a slot.\n# TYPE blurkit_queued gauge\nblurkit_queued \(gate.queuedCount)\n"
            return .now(.text(metrics.text + queue, contentType: "text/plain; version=0.0.4; charset=utf-8"))
        case "openapi.json":
            try only(["GET", "HEAD"])
            return .now(HTTPResponse(status: 200, contentType: "application/json", body: openAPI))
        case "images":
            try only(["GET", "HEAD"])
            _ = try authorize(request)
            return .now(try images())
        case "web":
            try only(["GET", "HEAD"])
            guard let files = settings.web else { throw .notFound("no WebAssembly build is served here (blurkit serve --web DIR)") }
            guard let body = files[target.rest] else { throw .notFound("/web/ has blurkit.mjs and blurkit.wasm") }
            let type = target.rest.hasSuffix(".wasm") ? "application/wasm" : "text/javascript; charset=utf-8"
            return .now(HTTPResponse(status: 200, contentType: type, body: body, headers: ["Cache-Control": "no-cache"]))
        default:
            guard let route = routes.first(where: { $0.name == target.route }) else {
                throw .notFound("no route /\(target.route); see /openapi.json")
            }
            try only(route.methods)
            return try render(route, request, target)
        }
    }

    /// With a key: the request's signature (and its `expires=`, when it has one), or the
    /// playground's token in `X-BlurKit-Token`.
    private func authorize(_ request: HTTPRequest) throws(ServeError) -> Access {
        guard let signer = settings.signer else { return .open }
        let now = Date().timeIntervalSince1970
        let target = try RequestTarget(request.rawTarget)
        // A URL that carries a signature or an expiry is held to them, token or not.
        let signs = target["sig"] != nil || target["expires"] != nil
        if !signs, let token = request.header("x-blurkit-token"), signer.accepts(token: token, now: now) { return .token }
        _ = try signer.verify(request.rawTarget, now: now)
        return .signed(expires: target["expires"].flatMap { Int($0) })
    }

    /// How a request was let in, which says how long its answer may be kept.
    enum Access {
        /// No key: every URL is open.
        case open
        /// A signed URL, good until `expires` (seconds since 1970) when it has one.
        case signed(expires: Int?)
        /// The playground's token: the answer is for that browser alone.
        case token

        /// `Cache-Control` for a 200 or 304 (at `now`): a signed URL for ever unless it expires, then
        /// until that second and never `immutable`; a token's answer `private`; an open one an hour.
        func cacheControl(now: Double) -> String {
            switch self {
            case .open: return "public, max-age=3600"
            case .signed(expires: nil): return "public, max-age=31536000, immutable"
            case let .signed(expires?): return "public, max-age=\(max(0, Int((Double(expires) - now).rounded(.down))))"
            case .token: return "private, no-cache"
            }
        }
    }

    /// What `/` answers under `--key` without its signed link.
    static let signedOnlyPage = """
        <!doctype html><html lang="en"><meta charset="utf-8"><title>BlurKit playground</title>
        <p>This server takes signed URLs only (<code>blurkit serve --key</code>), so its playground needs the signed
        link the server printed when it started (<code>/?expires=…&amp;sig=…</code>). Ask its operator for one.</p></html>
        """

    /// Up to 1,000 image and scene paths under the root, for the playground's picker.
    private func images() throws(ServeError) -> HTTPResponse {
        let found = BlurService.paths(under: settings.root, limit: 1000)
        let body = "[" + found.map { JSONText.quoted($0) }.joined(separator: ", ") + "]\n"
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(body.utf8), headers: ["Cache-Control": "no-cache"])
    }

    /// Up to `limit` paths of images and scene files under `root` that a request may name, sorted
    /// (hidden names and links out of the root left out).
    static func paths(under root: ServeRoot, limit: Int) -> [String] {
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        while let name = walker.nextObject() as? String, found.count < limit {
            if (name as NSString).lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            if ImageFormat(path: name) != nil || name.hasSuffix(".json"), (try? root.resolve(name)) != nil { found.append(name) }
        }
        return found.sorted()
    }

    private func render(_ route: ServiceRoute, _ request: HTTPRequest, _ target: RequestTarget) throws(ServeError) -> HTTPAnswer {
        // From the request's first byte: an upload's time counts.
        let deadline = request.began.addingTimeInterval(settings.timeout)
        var parameters = target.parameters
        let access = try authorize(request)
        if settings.signer != nil { parameters.removeAll { $0.name == "sig" || $0.name == "expires" } }
        let given = try route.arguments(parameters)
        let formatWord = route.formatWord(given)

        // The input: a file under the root, opened once (every later step reads that file), or the
        // body (read where it is: no file is written).
        let source: ImageSource, inputDigest: String, name: String
        var opened: ServedFile?
        if request.method == "POST" {
            guard !request.body.isEmpty else { throw .badRequest("a POST needs the image as its body") }
            guard target.rest.isEmpty else { throw .badRequest("a POST takes the image as its body, not a path") }
            guard ImageFormat(sniffing: Array(request.body.prefix(64))) != nil else {
                throw .unsupportedMediaType("the body is not an image BlurKit reads (PNG, JPEG, WebP, AVIF, HEIC, GIF, PAM, PPM, PGM)")
            }
            source = .bytes(request.body, name: "the body")
            inputDigest = Digest.hex(Digest.sha256(request.body))
            name = "the body"
        } else {
            let file = try settings.root.open(target.rest)
            opened = file
            source = .file(file.path)
            let own = try digest(of: file, named: target.rest)
            // A scene's answer is made of its images too: their digests are in its key.
            inputDigest = route.form == .scene ? sceneDigest(of: file, named: target.rest, own: own) : own
            name = target.rest
        }

        // The format as the query spelled it, for an error (`frames` is `png`'s alias).
        let askedFormat = route.format.flatMap { f in parameters.first { $0.name == f.flag }?.value }
        let (format, contentType) = try outputFormat(
            route, word: formatWord, asked: askedFormat, accept: request.header("accept"), source: source, given: given)
        // A format chosen from Accept that cannot hold the output's size gives way to PNG or JPEG,
        // when Accept takes them (format= asked is kept, or refused).
        let accepted = BlurService.acceptable(request.header("accept"))
        let fallbacks: [ImageFormat] =
            formatWord == nil && route.form == .image
            ? [ImageFormat.png, .jpeg].filter { candidate in
                accepted.map { BlurService.quality(of: BlurService.contentType(candidate), in: $0) > 0 } ?? true
            }
            : []
        // The key: the input, the route, the format and the values read (canonical names and
        // forms: however a client orders or spells them, the same result has the same ETag).
        // (`format` is in the key as the format it resolves to, asked for or negotiated.)
        // Numbers in full: values that differ anywhere are different results.
        let canonical = given.pairs.filter { $0.name != route.format?.name }.map { "\($0.name)=\($0.value.exactText)" }.sorted()
        // The placeholder's JSON names its input: the name is part of what was made.
        let label = route.form == .placeholder && format == nil ? ["file=" + (request.method == "POST" ? "body" : target.rest)] : []
        let key = Digest.hex(
            Digest.sha256(Array(([route.name, inputDigest, format ?? "json"] + canonical + label).joined(separator: "\n").utf8)))
        let etag = "\"" + key.prefix(40) + "\""
        var headers = [
            "ETag": etag, "Vary": "Accept",
            "Cache-Control": access.cacheControl(now: Date().timeIntervalSince1970),
        ]
        if let match = request.header("if-none-match"),
            match.trimmingCharacters(in: .whitespaces) == "*"
                || match.split(separator: ",").contains(where: { BlurService.weaklyEqual($0.trimmingCharacters(in: .whitespaces), etag) })
        {
            return .now(HTTPResponse(status: 304, headers: headers))
        }
        if let cache = settings.cache, let size = cache.size(of: key) {
            // Room for the body before it is read: a cache hit holds memory like any response.
            var room: ByteReservation?
            if let held = settings.held {
                room = held.reserve(size)
                guard room != nil else { throw .responsesHeld }
            }
            if let body = cache.get(key, contentType: contentType) {
                metrics.cacheHit()
                headers["X-Cache"] = "hit"
                var response = HTTPResponse(status: 200, contentType: contentType, body: body, headers: headers)
                response.reservation = room
                return .now(response)
            }
        }
        if settings.cache != nil { metrics.cacheMiss() }

        // Refused before the image is opened when there is no place (the reservation below decides).
        if let refusal = gate.wouldRefuse(deadline: deadline) {
            if refusal != .closed { metrics.reject() }
            throw BlurService.busy(refusal, timeout: settings.timeout)
        }
        if route.form == .scene {
            guard request.method != "POST", target.rest.hasSuffix(".json") else {
                throw .unsupportedMediaType("/render takes a scene file (.json) under the root")
            }
        } else {
            try probe(source, name: name)
        }

        // A place in the render queue now, or 503 at once; the render itself waits its turn on a
        // thread of its own.
        let ticket: RenderGate.Ticket
        switch gate.reserve(deadline: deadline) {
        case let .success(reserved): ticket = reserved
        case let .failure(refusal):
            if refusal != .closed { metrics.reject() }
            throw BlurService.busy(refusal, timeout: settings.timeout)
        }
        let relative = request.method == "POST" ? nil : target.rest, finalHeaders = headers, input = opened
        let abandoned = request.isAbandoned
        return .later { [self] in
            guard gate.wait(ticket, until: deadline) else {
                metrics.reject()
                return ServeError.busy("no render slot came free within the server's time limit", retryAfter: 2).response
            }
            metrics.startRender()
            let started = Date()
            defer {
                gate.release(ticket, after: Date().timeIntervalSince(started))
                metrics.endRender()
            }
            do {
                let cancelled: @Sendable () -> Bool = { Date() >= deadline || abandoned() }
                let body = try withExtendedLifetime(input) {
                    try run(
                        route, given, source: source, format: format, name: name, relative: relative, deadline: deadline,
                        cancelled: cancelled, fallbacks: fallbacks)
                }
                // A negotiated format that could not hold the output gave way to another the client takes.
                let written = ImageFormat(sniffing: Array(body.prefix(64)))
                let contentType = written.map { fallbacks.contains($0) ? BlurService.contentType($0) : contentType } ?? contentType
                settings.cache?.put(key, contentType: contentType, body: body)
                // How long it may be kept counts from when it is answered (a URL's expiry draws nearer
                // while the render waits and runs).
                var answered = finalHeaders
                answered["Cache-Control"] = access.cacheControl(now: Date().timeIntervalSince1970)
                return HTTPResponse(status: 200, contentType: contentType, body: body, headers: answered)
            } catch let error as ServeError {
                return error.response
            } catch {
                return ServeError.internalError("\(error)").response
            }
        }
    }

    /// The output format's word (nil: the placeholder's JSON) and content type, from `format=`,
    /// else `Accept`, else the input's own format when BlurKit writes it (PNG otherwise); for
    /// animations WebP unless `Accept` prefers GIF or APNG.
    private func outputFormat(
        _ route: ServiceRoute, word: String?, asked: String? = nil, accept: String?, source: ImageSource, given: OperationArguments
    ) throws(ServeError) -> (String?, String) {
        let accepted = BlurService.acceptable(accept)
        let animated = route.form == .animation || (route.form == .scene && !RenderOperation.isStill(given))
        if animated {
            if let word {
                guard let format = try? AnimationFormat.spec.parse(word), format != .pngSequence else {
                    let name = route.format?.flag ?? ""
                    throw .badRequest("\(name) must be webp, gif or apng for an animation, got \(asked ?? word)", parameter: name)
                }
                return (format.rawValue, BlurService.contentType(animation: format))
            }
            let format = try BlurService.negotiate(
                [AnimationFormat.webp, .gif, .apng], own: .webp, accepted, type: BlurService.contentType(animation:))
            return (format.rawValue, BlurService.contentType(animation: format))
        }
        if let word {
            guard let format = try? ImageFormat.spec.parse(word) else {
                let name = route.format?.flag ?? ""
                throw .badRequest("\(name) must be one of \(ImageFormat.spec.words.joined(separator: ", ")), got \(word)", parameter: name)
            }
            return (format.rawValue, BlurService.contentType(format))
        }
        if route.form == .placeholder {
            // The JSON, unless Accept refuses it: then the preview itself, in a format it takes.
            guard let accepted, BlurService.quality(of: "application/json", in: accepted) == 0 else { return (nil, "application/json") }
        }
        // WebP before AVIF among equals: a browser that takes both gets the one that encodes in a
        // fraction of the time; AVIF when `Accept` ranks it higher or names it alone.
        let found = (try? Renderer.format(of: source)) ?? .png
        let own = Renderer.defaultFormat(for: found)
        let format = try BlurService.negotiate([ImageFormat.webp, .avif, .png, .jpeg, .gif], own: own, accepted, type: BlurService.contentType)
        return (format.rawValue, BlurService.contentType(format))
    }

    /// The format to answer in, of `formats` (the server's order of preference): those `Accept`
    /// names by their own type with q > 0, the highest q first; else `own` (the input's format, or
    /// the route's usual one) when a range (`image/*`, `*/*`) or no `Accept` at all takes it; else
    /// the first of `formats` a range takes.
    /// - Throws: 406 when `Accept` refuses every one (`image/png;q=0` alone, say).
    static func negotiate<Format: Equatable>(
        _ formats: [Format], own: Format, _ accepted: [String: Double]?, type: (Format) -> String
    ) throws(ServeError) -> Format {
        guard let accepted else { return own }
        if let named = preferred(formats, accepted, type: type).first { return named }
        if quality(of: type(own), in: accepted) > 0 { return own }
        if let any = formats.first(where: { quality(of: type($0), in: accepted) > 0 }) { return any }
        throw .notAcceptable(
            "Accept refuses every format this route writes (\(formats.map(type).joined(separator: ", "))); send format= or another Accept")
    }

    /// The q-value `Accept` gives `type`: its own entry's, else `image/*`'s, else `*/*`'s, else 0.
    static func quality(of type: String, in accepted: [String: Double]) -> Double {
        let major = type.split(separator: "/").first.map(String.init) ?? type
        return accepted[type] ?? accepted[major + "/*"] ?? accepted["*/*"] ?? 0
    }

    /// `If-None-Match` compares weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
    static func weaklyEqual(_ given: String, _ etag: String) -> Bool {
        (given.hasPrefix("W/") ? String(given.dropFirst(2)) : given) == etag
    }

    /// The media types and ranges an `Accept` header names with their q-values (1 when not given),
    /// or nil when there is no `Accept` (everything is acceptable then): `image/png;q=0` refuses
    /// PNG, `image/webpx` is not WebP, `image/*` and `*/*` are ranges (``quality(of:in:)``).
    static func acceptable(_ header: String?) -> [String: Double]? {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        var types: [String: Double] = [:]
        entries: for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first, !type.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                // A q-value that is not one (`q=abc`) makes the entry unreadable: it is left out.
                guard let value = parseDecimal(String(parameter.dropFirst(2))), value >= 0, value <= 1 else { continue entries }
                q = value
            }
            types[type] = max(types[type] ?? 0, q)
        }
        // Nothing readable: as if there were no Accept.
        return types.isEmpty ? nil : types
    }

    /// Of `formats` (in the server's order of preference), those `accepted` names with q > 0, the
    /// highest q first (the server's order among equals).
    static func preferred<Format>(_ formats: [Format], _ accepted: [String: Double], type: (Format) -> String) -> [Format] {
        let ranked = formats.enumerated().compactMap { item -> (Int, Double, Format)? in
            guard let q = accepted[type(item.element)], q > 0 else { return nil }
            return (item.offset, q, item.element)
        }
        return ranked.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.2)
    }

    static func contentType(_ format: ImageFormat) -> String {
        switch format {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .avif: return "image/avif"
        case .heic: return "image/heic"
        case .pam: return "image/x-portable-arbitrarymap"
        case .ppm: return "image/x-portable-anymap"
        }
    }

    static func contentType(animation format: AnimationFormat) -> String {
        switch format {
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .apng, .pngSequence: return "image/apng"
        }
    }

    /// The SHA-256 of a file under the root, computed once per version of the file (its
    /// ``ServedFile/stamp``: the change time too, so a file rewritten in place with its size and
    /// modification time put back is read again).
    private func digest(of file: ServedFile, named path: String) throws(ServeError) -> String {
        let stamp = file.stamp
        if let known = digests.withLock({ $0[path] }), known.stamp == stamp { return known.digest }
        guard let hex = try? FileDigest.sha256(file: file.path) else { throw .notFound("\(path): cannot be read") }
        digests.withLock { known in
            // Bounded: a root of millions of files must not grow the server without limit.
            if known.count >= 100_000 { known.removeAll(keepingCapacity: true) }
            known[path] = (stamp, hex)
        }
        return hex
    }

    /// The digest of the scene at `path` (its own digest `own`) with every image it reads, named
    /// as it names them: its file read once with each image standing in as a pixel (no image is
    /// decoded), then each image's digest (``digest(of:named:)``, kept per version of the file). A
    /// scene that does not parse gets the digests of the images named before the error: its answer
    /// is the error, keyed by those bytes.
    private func sceneDigest(of file: ServedFile, named path: String, own: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent, root = settings.root
        guard let bytes = try? SceneFile.bytes(at: file.path), let stub = try? Bitmap(width: 1, height: 1) else { return own }
        var names: [String] = []
        _ = try? SceneFile.parse(
            bytes, baseDirectory: folder,
            imageLoader: { name in
                names.append(name)
                return stub
            })
        var parts = [own]
        for name in names {
            let relative = try? ServeRoot.relative(name, from: folder)
            let image = relative.flatMap { try? root.open($0) }
            let found = image.flatMap { image in relative.flatMap { try? digest(of: image, named: $0) } }
            parts.append(name + "=" + (found ?? "unreadable"))
        }
        return Digest.hex(Digest.sha256(Array(parts.joined(separator: "\n").utf8)))
    }

    /// Checks that the input is an image BlurKit reads, within the pixel limit, from its header.
    private func probe(_ source: ImageSource, name: String) throws(ServeError) {
        do { try Renderer.probe(source) } catch let RenderError.input(_, error) {
            throw BlurService.status(of: error, name: name)
        } catch {
            throw .unsupportedMediaType("\(name): \(error)")
        }
    }

    private static func status(of error: DecodingError, name: String) -> ServeError {
        if error.isLimit { return .tooLarge("\(name): \(error)") }
        switch error {
        case .empty, .unknownFormat: return .unsupportedMediaType("\(name): \(error)")
        default: return .unprocessable("\(name): \(error)")
        }
    }

    /// Renders the route's operation from `source` by `deadline` and returns its bytes.
    private func run(
        _ route: ServiceRoute, _ given: OperationArguments, source: ImageSource, format: String?, name: String, relative: String?,
        deadline: Date, cancelled: @escaping @Sendable () -> Bool, fallbacks: [ImageFormat] = []
    ) throws(ServeError) -> [UInt8] {
        let limit = settings.maximumOutputBytes
        let options = RenderOptions(threads: nil, cancelled: cancelled, maximumOutputBytes: limit, deadline: deadline)
        /// An animation is sized when it is done (its frames were budgeted before it began).
        func limited(_ bytes: [UInt8]) throws -> [UInt8] {
            guard bytes.count <= limit else { throw RenderError.outputTooLarge(bytes: bytes.count, limit: limit) }
            return bytes
        }
        do {
            switch route.form {
            case .image:
                let still = try ImageFormat.spec.parse(format ?? "png")
                var options = options
                options.fallbackFormats = fallbacks
                return try Renderer.still(given, from: source, to: .memory, format: still, options: options)
            case .animation:
                let animation = try AnimationFormat.spec.parse(format ?? "webp")
                return try limited(
                    Renderer.blurUp(given, from: source, to: nil, format: animation, label: (name as NSString).lastPathComponent, options: options))
            case .scene:
                guard case let .file(path) = source else { throw ServeError.unsupportedMediaType("/render takes a scene file under the root") }
                // A scene's images: relative to the scene's folder (`..` read as it reads), under the
                // root only, each opened once.
                // Decoded under the deadline and counted together (`Renderer.sceneImages`); each file
                // stays open until the scene is read.
                let root = settings.root, folder = ((relative ?? "") as NSString).deletingLastPathComponent
                // The image being read stays open until the next is opened (one descriptor at a time).
                var current: ServedFile?
                let file = try SceneFile.parse(
                    try SceneFile.bytes(at: path), baseDirectory: folder,
                    imageLoader: Renderer.sceneImages(options: options) { name in
                        let image = try root.open(try ServeRoot.relative(name, from: folder))
                        current = image
                        return .file(image.path)
                    })
                withExtendedLifetime(current) {}
                let still = RenderOperation.isStill(given) ? try ImageFormat.spec.parse(format ?? "png") : nil
                let animation = still == nil ? try AnimationFormat.spec.parse(format ?? "webp") : nil
                return try limited(Renderer.scene(given, file, to: nil, still: still, animation: animation, options: options))
            case .placeholder:
                let placeholder = try Renderer.placeholder(given, from: source, options: options)
                if let format { return try ImageFile.encode(placeholder.preview, as: try ImageFormat.spec.parse(format)) }
                let png = try ImageFile.encode(placeholder.preview, as: .png)
                let widths = (given.given(PlaceholderOperation.widths) ?? []).map { Int($0) }
                guard widths.isEmpty || relative != nil else {
                    let name = PlaceholderOperation.widths.parameter.flag
                    throw ServeError.badRequest("\(name) lists URLs of an image under the root: GET it, not POST", parameter: name)
                }
                let signer = settings.signer
                let entry = PlaceholderManifest.Entry(file: relative ?? "body", previewFile: "", placeholder: placeholder, png: png)
                    .with(widths: widths) { file, width in URLSigner.resizeTarget(file, width: width, signer: signer) }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return Array(try encoder.encode(entry)) + [10]
            }
        } catch let error as ServeError {
            throw error
        } catch let error as ParameterError {
            throw .badRequest(error.description, parameter: error.parameter)
        } catch let error as BudgetError {
            throw .tooLarge(error.description)
        } catch let error as BitmapError {
            throw .tooLarge(error.description)
        } catch let RenderError.input(_, error) {
            throw BlurService.status(of: error, name: name)
        } catch RenderError.cancelled {
            throw overran
        } catch let RenderError.outputTooLarge(bytes, limit) {
            throw .tooLarge(
                "the response would take \(bytes > limit ? "over" : "at least") \(BudgetError.megabytes(limit)) MB, the server's limit (--max-output): ask for a compressed format or a smaller size"
            )
        } catch let RenderError.output(text) {
            throw .unprocessable(shown(text, source: source, name: name))
        } catch let error as DecodingError {
            throw BlurService.status(of: error, name: name)
        } catch SceneFileError.cancelled {
            throw overran
        } catch let SceneFileError.overBudget(_, message) {
            throw .tooLarge(shown(message, source: source, name: name))
        } catch let error as SceneFileError {
            throw .unprocessable(shown(error.description, source: source, name: name))
        } catch let error as EncodingError {
            if case .tooSlow = error { throw .tooLarge(error.description) }
            // What the request asks the encoder for (a size the format cannot hold, a frame it
            // refuses): the client's to change, not the server's failure.
            throw .unprocessable(shown(error.description, source: source, name: name))
        } catch let error as FileError {
            throw .unprocessable(shown(error.description, source: source, name: name))
        } catch {
            throw .internalError(shown("\(error)", source: source, name: name))
        }
    }

    /// The 503 of a render stopped at the time limit.
    private var overran: ServeError {
        .busy("the request took longer than the server's time limit of \(formatNumber(settings.timeout)) s", retryAfter: 5)
    }

    /// A message as a client may see it: paths relative to the root, and the open file's path
    /// (`/proc/self/fd/N`) as the request named it.
    private func shown(_ message: String, source: ImageSource? = nil, name: String = "") -> String {
        var text = message.replacingOccurrences(of: settings.root.path + "/", with: "")
        if case let .file(path)? = source { text = text.replacingOccurrences(of: path, with: name) }
        return text
    }
}
