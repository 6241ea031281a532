import BlurCommandLine
import BlurIO
import BlurKit
import BlurServe
import Foundation
import Synchronization

/// What `blurkit serve` answers: the routes of ``ServiceRoute`` over images under the root (by
/// path) or sent as a POST body, and `/`, `/healthz`, `/metrics`, `/openapi.json` and `/images`.
///
/// A render waits for one of `maximumConcurrent` slots in a queue of at most `maximumQueued`; beyond
/// that it is refused with 503 at once (never an unbounded queue). Each has the request time limit,
/// checked while it waits and between bands and frames. Responses carry a strong ETag (the input's
/// SHA-256, the route, its parameters and the format); `If-None-Match` gets 304 before any work;
/// the disk cache, when there is one, keeps what was rendered.
final class BlurService: Sendable {
    struct Settings: Sendable {
        var root: ServeRoot
        var signer: URLSigner?
        var cache: DiskCache?
        var maximumConcurrent: Int
        /// Renders that may wait for a slot beyond those running.
        var maximumQueued: Int
        var timeout: Double
        /// Where request bodies and outputs wait while a request is handled.
        var workFolder: String
        /// What `make wasm` writes (`blurkit.mjs`, `blurkit.wasm`), served at `/web/` for the
        /// playground's previews; nil without `--web`.
        var web: [String: [UInt8]]? = nil
    }

    let settings: Settings
    let metrics = Metrics()
    private let gate: RenderGate
    /// SHA-256 of files under the root, by path, while their size, modification time and inode stay
    /// (at most 100,000 of them; then they are computed afresh).
    private let digests = Mutex<[String: (stamp: [Int], digest: String)]>([:])
    let openAPI: [UInt8]
    /// Set when the server starts draining: renders still running finish, new ones get 503.
    let draining = Atomic<Bool>(false)

    init(_ settings: Settings) {
        self.settings = settings
        gate = RenderGate(running: settings.maximumConcurrent, waiting: settings.maximumQueued)
        let found = BlurService.paths(under: settings.root, limit: 1000)
        openAPI = Array(
            OpenAPIDocument.make(
                routes: ServiceRoute.all, signed: settings.signer != nil, web: settings.web != nil,
                examples: (found.first { !$0.hasSuffix(".json") }, found.first { $0.hasSuffix(".json") })
            ).utf8)
    }

    /// Requests with a body to answer before reading it: 503 while draining or when every render
    /// slot and place in the queue is taken (the body would only wait). Such an answer closes the
    /// connection; a request without a body is refused later, at the same point, and keeps its
    /// connection open, which costs a client that retries far less.
    func screen(method: String, rawTarget: String, headers: [String: String]) -> HTTPResponse? {
        let route = rawTarget.dropFirst().prefix { $0 != "/" && $0 != "?" }
        let hasBody = (headers["content-length"].flatMap(Int.init) ?? 0) > 0 || headers["transfer-encoding"] != nil
        guard hasBody, ServiceRoute.all.contains(where: { $0.name == route }) else { return nil }
        if draining.load(ordering: .relaxed) { return ServeError.busy("the server is shutting down", retryAfter: 1).response }
        if gate.isFull {
            metrics.reject()
            return ServeError.busy("every render slot is busy; try again shortly", retryAfter: 1).response
        }
        return nil
    }

    /// The answer to `request`: at once, or — for a render — work for a thread of its own. Each is
    /// counted in the metrics under its route when it is answered.
    func handle(_ request: HTTPRequest) -> HTTPAnswer {
        let began = Date()
        let target: RequestTarget
        do { target = try RequestTarget(request.rawTarget) } catch {
            return .now(count(error.response, route: "other", request, began))
        }
        let known = [
            "blur", "progressive", "material", "blurup", "render", "placeholder", "healthz", "metrics", "openapi.json", "images", "web",
            "playground.js", "playground.css",
        ]
        let route = target.route.isEmpty ? "playground" : known.contains(target.route) ? target.route : "other"
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
            if draining.load(ordering: .relaxed) { throw .busy("the server is shutting down", retryAfter: 1) }
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
            try authorize(request)
            return .now(try images())
        case "web":
            try only(["GET", "HEAD"])
            guard let files = settings.web else { throw .notFound("no WebAssembly build is served here (blurkit serve --web DIR)") }
            guard let body = files[target.rest] else { throw .notFound("/web/ has blurkit.mjs and blurkit.wasm") }
            let type = target.rest.hasSuffix(".wasm") ? "application/wasm" : "text/javascript; charset=utf-8"
            return .now(HTTPResponse(status: 200, contentType: type, body: body, headers: ["Cache-Control": "no-cache"]))
        default:
            guard let route = ServiceRoute.all.first(where: { $0.name == target.route }) else {
                throw .notFound("no route /\(target.route); see /openapi.json")
            }
            try only(route.takesBody ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"])
            return try render(route, request, target)
        }
    }

    /// With a key: the request's signature, or the playground's token in `X-BlurKit-Token`.
    private func authorize(_ request: HTTPRequest) throws(ServeError) {
        guard let signer = settings.signer else { return }
        if let token = request.header("x-blurkit-token"), signer.accepts(token: token, now: Date().timeIntervalSince1970) { return }
        _ = try signer.verify(request.rawTarget)
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
        let deadline = Date().addingTimeInterval(settings.timeout)
        var parameters = target.parameters
        if settings.signer != nil {
            try authorize(request)
            parameters.removeAll { $0.name == "sig" }
        }
        var words = try route.arguments(parameters.filter { $0.name != "format" })
        let formatWord = parameters.first { $0.name == "format" }?.value

        // The input: a file under the root, or the body.
        let input: String, inputDigest: String
        var removeAfter: [String] = []
        var handedOver = false
        defer { if !handedOver { for path in removeAfter { unlink(path) } } }
        if request.method == "POST" {
            guard !request.body.isEmpty else { throw .badRequest("a POST needs the image as its body") }
            guard target.rest.isEmpty else { throw .badRequest("a POST takes the image as its body, not a path") }
            guard ImageFormat(sniffing: Array(request.body.prefix(64))) != nil else {
                throw .unsupportedMediaType("the body is not an image BlurKit reads (PNG, JPEG, WebP, GIF, PAM, PPM, PGM)")
            }
            input = settings.workFolder + "/" + UUID().uuidString + ".in"
            do { try AtomicFile.write(request.body, to: input) } catch { throw .internalError("cannot keep the body: \(error)") }
            removeAfter.append(input)
            inputDigest = Digest.hex(Digest.sha256(request.body))
        } else {
            input = try settings.root.resolve(target.rest)
            inputDigest = try digest(of: input)
        }

        let (format, contentType) = try outputFormat(route, word: formatWord, accept: request.header("accept"), input: input, words: words)
        if let word = format { words += ["--format", word] }
        // The key: the input, the route, the format and the parameters in name order (however a
        // client orders them, the same result has the same ETag).
        let canonical = try route.arguments(parameters.filter { $0.name != "format" }.sorted { $0.name < $1.name })
        let key = Digest.hex(Digest.sha256(Array(([route.name, inputDigest, format ?? "json"] + canonical).joined(separator: "\n").utf8)))
        let etag = "\"" + key.prefix(40) + "\""
        var headers = [
            "ETag": etag, "Vary": "Accept",
            "Cache-Control": settings.signer != nil ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        ]
        if let match = request.header("if-none-match"),
            match == "*" || match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            return .now(HTTPResponse(status: 304, headers: headers))
        }
        if let cached = settings.cache?.get(key) {
            metrics.cacheHit()
            headers["X-Cache"] = "hit"
            return .now(HTTPResponse(status: 200, contentType: cached.contentType, body: cached.body, headers: headers))
        }
        if settings.cache != nil { metrics.cacheMiss() }

        // Refused before the image is opened when no place is left (the reservation below decides).
        if gate.isFull {
            metrics.reject()
            throw .busy("every render slot is busy; try again shortly", retryAfter: 1)
        }
        if route.output == .stillOrAnimation {
            guard input.hasSuffix(".json") else { throw .unsupportedMediaType("/render takes a scene file (.json) under the root") }
        } else {
            try probe(input, name: request.method == "POST" ? "the body" : target.rest)
        }

        // A place in the render queue now, or 503 at once; the render itself waits its turn on a
        // thread of its own.
        if draining.load(ordering: .relaxed) { throw .busy("the server is shutting down", retryAfter: 1) }
        guard let ticket = gate.reserve() else {
            metrics.reject()
            throw .busy("every render slot is busy; try again shortly", retryAfter: 1)
        }
        handedOver = true
        let cleanup = removeAfter, relative = request.method == "POST" ? nil : target.rest, finalHeaders = headers, arguments = words
        return .later { [self] in
            defer { for path in cleanup { unlink(path) } }
            guard gate.wait(ticket, until: deadline) else {
                metrics.reject()
                return ServeError.busy("no render slot came free within the server's time limit", retryAfter: 2).response
            }
            metrics.startRender()
            defer {
                gate.release()
                metrics.endRender()
            }
            let output = settings.workFolder + "/" + UUID().uuidString + "." + (format.map(suffix(for:)) ?? "json")
            defer { unlink(output) }
            do {
                let body = try run(route, input: input, output: output, words: arguments, relative: relative, deadline: deadline)
                settings.cache?.put(key, contentType: contentType, body: body)
                return HTTPResponse(status: 200, contentType: contentType, body: body, headers: finalHeaders)
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
        _ route: ServiceRoute, word: String?, accept: String?, input: String, words: [String]
    ) throws(ServeError) -> (String?, String) {
        let accepted = (accept ?? "").lowercased()
        let animated =
            route.output == .animation
            || (route.output == .stillOrAnimation && !(words.contains("--time") && !words.contains("--duration") && !words.contains("--fps")))
        if animated {
            if let word {
                guard let format = try? AnimationFormat.spec.parse(word), format != .pngSequence else {
                    throw .badRequest("format must be webp, gif or apng for an animation, got \(word)", parameter: "format")
                }
                return (format.rawValue, BlurService.contentType(animation: format))
            }
            for format in [AnimationFormat.webp, .gif, .apng] where accepted.contains(BlurService.contentType(animation: format)) {
                return (format.rawValue, BlurService.contentType(animation: format))
            }
            return ("webp", "image/webp")
        }
        if let word {
            guard let format = try? ImageFormat.spec.parse(word) else {
                throw .badRequest("format must be one of \(ImageFormat.spec.words.joined(separator: ", ")), got \(word)", parameter: "format")
            }
            return (format.rawValue, BlurService.contentType(format))
        }
        if route.output == .placeholder { return (nil, "application/json") }
        for format in [ImageFormat.webp, .png, .jpeg, .gif] where accepted.contains(BlurService.contentType(format)) {
            return (format.rawValue, BlurService.contentType(format))
        }
        let own = (try? InputFile(path: input).format) ?? .png
        let format: ImageFormat = [.png, .jpeg, .webp].contains(own) ? own : .png
        return (format.rawValue, BlurService.contentType(format))
    }

    static func contentType(_ format: ImageFormat) -> String {
        switch format {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
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

    private func suffix(for word: String) -> String {
        if let format = try? AnimationFormat.spec.parse(word), format == .apng { return "apng" }
        return (try? ImageFormat.spec.parse(word))?.rawValue ?? word
    }

    /// The SHA-256 of a file under the root, computed once per version of the file.
    private func digest(of path: String) throws(ServeError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .notFound("no such file") }
        let stamp = [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino)]
        if let known = digests.withLock({ $0[path] }), known.stamp == stamp { return known.digest }
        guard let digest = Digest.sha256(file: path) else { throw .notFound("cannot read the file") }
        let hex = Digest.hex(digest)
        digests.withLock { known in
            // Bounded: a root of millions of files must not grow the server without limit.
            if known.count >= 100_000 { known.removeAll(keepingCapacity: true) }
            known[path] = (stamp, hex)
        }
        return hex
    }

    /// Checks that `input` is an image BlurKit reads, within the pixel limit, from its header.
    private func probe(_ input: String, name: String) throws(ServeError) {
        do {
            let file = try InputFile(path: input)
            // WebP and GIF decode whole when opened: the command reads them once, later.
            if file.format == .webp || file.format == .gif { return }
            _ = try ImagePipeline.open(file)
        } catch let error as DecodingError {
            throw BlurService.status(of: error, name: name)
        } catch let PipelineError.input(_, error) {
            throw BlurService.status(of: error, name: name)
        } catch {
            throw .unsupportedMediaType("\(name): \(error)")
        }
    }

    private static func status(of error: DecodingError, name: String) -> ServeError {
        switch error {
        case .empty, .unknownFormat: return .unsupportedMediaType("\(name): \(error)")
        case .tooLarge, .animationTooLarge: return .tooLarge("\(name): \(error)")
        default: return .unprocessable("\(name): \(error)")
        }
    }

    /// Runs the route's command from `input` to `output` within the time limit and returns what it
    /// wrote (the placeholder route makes its JSON or preview here).
    private func run(
        _ route: ServiceRoute, input: String, output: String, words: [String], relative: String?, deadline: Date
    ) throws(ServeError) -> [UInt8] {
        let root = settings.root
        let sceneFolder = relative.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        do {
            try Interruption.deadline.withValue(deadline) {
                if let command = route.command {
                    let arguments = try ParsedArguments(
                        ArraySlice([input, output] + words + (command.options.contains { $0.name == "quiet" } ? ["--quiet"] : [])),
                        options: command.options)
                    // A scene's images: under the root only, relative to the scene's folder.
                    let loader: @Sendable (String) throws -> Bitmap = { name in
                        let path = try root.resolve(sceneFolder.isEmpty ? name : sceneFolder + "/" + name)
                        return try ImageFile.read(path)
                    }
                    try RenderCommand.imageLoader.withValue(loader) { _ = try command.run(arguments) }
                } else {
                    try makePlaceholder(input: input, output: output, words: words, name: relative ?? "body")
                }
            }
            return try AtomicFile.read(output)
        } catch let error as ServeError {
            throw error
        } catch let error as ParameterError {
            throw .badRequest(error.description, parameter: error.parameter)
        } catch let error as BudgetError {
            throw .tooLarge(error.description)
        } catch let error as BitmapError {
            throw .tooLarge(error.description)
        } catch let error as DecodingError {
            throw BlurService.status(of: error, name: relative ?? "the body")
        } catch let error as SceneFileError {
            throw .unprocessable(shown(error.description))
        } catch let error as CLIError {
            switch error {
            case let .usage(text):
                // The command line's words for options, as a query names them.
                let message = text.replacingOccurrences(of: "--", with: "")
                let parameter = route.parameters.first { text.contains("--" + $0.flag) }?.flag
                throw .badRequest(message, parameter: parameter)
            case .interrupted:
                throw .busy("the request took longer than the server's time limit of \(shortNumber(settings.timeout)) s", retryAfter: 5)
            case let .failure(text):
                throw .unprocessable(shown(text))
            }
        } catch {
            throw .internalError("\(error)")
        }
    }

    /// A message as a client may see it: paths relative to the root, the work folder not named.
    private func shown(_ message: String) -> String {
        message.replacingOccurrences(of: settings.root.path + "/", with: "").replacingOccurrences(of: settings.workFolder + "/", with: "")
    }

    /// The placeholder of `input`: its JSON entry, or with `--format` its preview as that format.
    private func makePlaceholder(input: String, output: String, words: [String], name: String) throws {
        let arguments = try ParsedArguments(ArraySlice(words), options: ServiceRoute.all.last!.parameters.map(OptionSpec.init))
        let size = try arguments.integer(Placeholder.sizeSpec)!
        let placeholder = try Placeholder.make(fromFile: input, longestSide: size, thumbHash: !arguments.has("no-thumbhash"))
        if let format = try arguments.choice(ImageFormat.spec), arguments.has("format") {
            return try AtomicFile.write(try ImageFile.encode(placeholder.preview, as: format), to: output)
        }
        let png = try ImageFile.encode(placeholder.preview, as: .png)
        let entry = PlaceholderManifest.Entry(file: name, previewFile: "", placeholder: placeholder, png: png)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(try encoder.encode(entry)) + [10], to: output)
    }
}
