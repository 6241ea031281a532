import BlurCore
import BlurIO
import BlurServe
import Foundation
import Testing

/// `blurkit serve` run as a process on 127.0.0.1 (a free port), asked with curl: every route,
/// every error status, confinement to the root, ETags, the disk cache, signed URLs, bounded
/// renders, the time limits and the drain.
@Suite(.serialized) struct ServeTests {
    /// A running server over a root folder; stopped (SIGTERM) when the test is done with it.
    final class Server: @unchecked Sendable {
        let process = Process()
        let url: String
        let logPath: String

        init(root: String, _ options: [String] = []) throws {
            logPath = root + "/../serve-\(UUID().uuidString).log"
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            process.executableURL = CLI.executable
            process.arguments = ["serve", "--root", root, "--port", "0"] + options
            process.standardError = FileHandle(forWritingAtPath: logPath)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var found: String?
            for _ in 0..<200 where found == nil {
                usleep(25_000)
                let log = String(decoding: (try? AtomicFile.read(logPath)) ?? [], as: UTF8.self)
                if let range = log.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) { found = String(log[range]) }
                if !process.isRunning { break }
            }
            guard let found else {
                let log = String(decoding: (try? AtomicFile.read(logPath)) ?? [], as: UTF8.self)
                if process.isRunning { process.terminate() }
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server did not start: " + log])
            }
            url = found
        }

        /// What the server has written to standard error so far. (Read with our own reader:
        /// Foundation's `String(contentsOfFile:)` leaks its buffer when the file grows as it reads.)
        var log: String { String(decoding: (try? AtomicFile.read(logPath)) ?? [], as: UTF8.self) }

        /// Sends `signal` and waits for the exit status.
        @discardableResult func stop(_ signal: Int32 = SIGTERM) -> Int32 {
            if process.isRunning { kill(process.processIdentifier, signal) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { stop() }
    }

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The `parameter` of a JSON error body.
        var parameter: String? {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["parameter"] as? String
        }
    }

    /// `curl` for `target` (path and query, sent as is) with `options`, given up after `seconds`.
    static func fetch(_ server: Server, _ target: String, _ options: [String] = [], seconds: Int = 60) throws -> Reply {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["-sS", "--path-as-is", "--max-time", String(seconds), "-o", folder + "/body", "-D", folder + "/headers", "-w", "%{http_code}"] + options
            + [
                server.url + target
            ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var headers: [String: String] = [:]
        let raw = String(decoding: (try? AtomicFile.read(folder + "/headers")) ?? [], as: UTF8.self)
        // The last response's headers (after any 100 Continue).
        for line in raw.components(separatedBy: "\r\n") {
            if line.hasPrefix("HTTP/") {
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let body = (try? AtomicFile.read(folder + "/body")) ?? []
        return Reply(status: Int(code) ?? 0, headers: headers, body: body)
    }

    /// What a Python script (a client that misbehaves on purpose) prints, trimmed.
    static func python(_ script: String) throws -> String {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A root with `in.png` (the fixture), `sub/cat.jpg`, a scene over `in.png`, text posing as an
    /// image, a cut PNG and a link that leads out of the root.
    static func makeRoot() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-serve-\(UUID().uuidString)").path
        let root = base + "/root"
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        let photo = try ImageFile.read(Workspace.fixture)
        try ImageFile.write(photo, to: root + "/in.png")
        try ImageFile.write(photo, to: root + "/sub/cat.jpg")
        try AtomicFile.write(Array("not an image".utf8), to: root + "/text.png")
        try AtomicFile.write(Array(try AtomicFile.read(root + "/in.png").prefix(400)), to: root + "/cut.png")
        try AtomicFile.write(Array("secret".utf8), to: base + "/outside.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/link.png", withDestinationPath: base + "/outside.png")
        let scene = """
            {"width": 120, "height": 80, "layers": [{"name": "photo", "frame": [0, 0, 120, 80], "content": {"image": "in.png", "mode": "fill"}}]}
            """
        try AtomicFile.write(Array(scene.utf8), to: root + "/scene.json")
        return root
    }

    @Test func everyRouteAnswersWithWhatTheCommandWrites() throws {
        let root = try Self.makeRoot()
        let server = try Server(root: root)
        // The bytes are the command line's, for the same options.
        let blurred = try Self.fetch(server, "/blur/in.png?sigma=3")
        #expect(blurred.status == 200 && blurred.headers["content-type"] == "image/png")
        let folder = (root as NSString).deletingLastPathComponent
        #expect(try CLI.run(["blur", root + "/in.png", folder + "/cli.png", "--sigma", "3"]).status == 0)
        #expect(blurred.body == (try AtomicFile.read(folder + "/cli.png")))

        // The format from format=, from Accept, else the input's own.
        #expect(try Self.fetch(server, "/blur/in.png?sigma=3&format=jpeg").headers["content-type"] == "image/jpeg")
        #expect(try Self.fetch(server, "/blur/in.png?sigma=3", ["-H", "Accept: image/webp,*/*"]).headers["content-type"] == "image/webp")
        #expect(try Self.fetch(server, "/blur/sub/cat.jpg?radius=2&scale=2").headers["content-type"] == "image/jpeg")

        for target in [
            "/progressive/in.png?direction=left&max-radius=12", "/material/in.png?style=thin&appearance=dark",
            "/blurup/in.png?wait=0.2&hold=0.1&fps=10", "/render/scene.json?time=0", "/render/scene.json?duration=0.2&fps=5&format=gif",
            "/placeholder/in.png?format=png&size=16",
        ] {
            let reply = try Self.fetch(server, target)
            #expect(reply.status == 200, "\(target): \(reply.text.prefix(200))")
            #expect(
                reply.headers["content-type"].map { ["image/png", "image/webp", "image/gif"].contains($0) } == true,
                "\(target): \(reply.headers)")
        }
        let placeholder = try Self.fetch(server, "/placeholder/in.png?size=16")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(placeholder.body)) as? [String: Any])
        #expect(json["width"] as? Int == 451 && json["height"] as? Int == 300 && json["thumbHash"] is String)
        #expect((json["preview"] as? [String: Any])?["dataURI"].map { "\($0)".hasPrefix("data:image/png;base64,") } == true)

        // A POST body is the input, and gives what the same file gives.
        let posted = try Self.fetch(server, "/blur?sigma=3", ["--data-binary", "@" + root + "/in.png", "-H", "Content-Type: image/png"])
        #expect(posted.status == 200 && posted.body == blurred.body)

        #expect(try Self.fetch(server, "/healthz").text == "ok\n")
        let metrics = try Self.fetch(server, "/metrics").text
        #expect(
            metrics.contains("blurkit_requests_total{route=\"blur\",status=\"200\"}") && metrics.contains("blurkit_request_duration_seconds_bucket"))
        #expect(try Self.fetch(server, "/").text.contains("<html"))
        let images = try Self.fetch(server, "/images").text
        #expect(images.contains("\"in.png\"") && images.contains("\"sub/cat.jpg\"") && !images.contains("link.png"))
        #expect(server.stop() == 0)
    }

    @Test func errorsHaveTheirStatusAndNameTheParameter() throws {
        let root = try Self.makeRoot()
        let server = try Server(root: root, ["--max-body", "1", "--max-pixels", "200000"])
        let cases: [(String, [String], Int, String?)] = [
            ("/blur/in.png?sigma=abc", [], 400, "sigma"),
            ("/blur/in.png?sigma=-1", [], 400, "sigma"),
            ("/blur/in.png?bogus=1", [], 400, "bogus"),
            ("/blur/in.png?threads=2", [], 400, "threads"),
            ("/blur/in.png?sigma=2&sigma=3", [], 400, "sigma"),
            ("/blur/in.png?sigma=2&radius=2", [], 400, nil),
            ("/progressive/in.png?direction=sideways", [], 400, "direction"),
            ("/blur/in.png?sigma=2&format=tiff", [], 400, "format"),
            ("/blur/none.png?sigma=2", [], 404, nil),
            ("/nowhere", [], 404, nil),
            ("/blur/in.png?sigma=2", ["-X", "DELETE"], 405, nil),
            ("/render/scene.json", ["-X", "POST", "--data-binary", "x"], 405, nil),
            ("/blur/text.png?sigma=2", [], 415, nil),
            ("/blur/cut.png?sigma=2", [], 422, nil),
            // The photo has 135,300 pixels; a 600 × 400 one is over the limit.
            ("/blur?sigma=2", ["--data-binary", "@" + root + "/big.png"], 413, nil),
            ("/blur?sigma=2", ["--data-binary", "@" + root + "/huge.bin"], 413, nil),
        ]
        try ImageFile.write(try Bitmap(width: 600, height: 400), to: root + "/big.png")
        try AtomicFile.write([UInt8](repeating: 0x89, count: 3 << 20), to: root + "/huge.bin")
        for (target, options, status, parameter) in cases {
            let reply = try Self.fetch(server, target, options)
            #expect(reply.status == status, "\(target): \(reply.status) \(reply.text)")
            #expect(reply.headers["content-type"] == "application/json" && reply.text.contains("\"error\""), "\(target)")
            if let parameter { #expect(reply.parameter == parameter, "\(target): \(reply.text)") }
        }
        #expect(try Self.fetch(server, "/blur/in.png?sigma=2", ["-X", "DELETE"]).headers["allow"] == "GET, HEAD, POST")
        #expect(server.stop() == 0)
    }

    @Test func pathsStayUnderTheRoot() throws {
        let root = try Self.makeRoot()
        let server = try Server(root: root)
        for (target, status) in [
            ("/blur/../outside.png?sigma=2", 403), ("/blur/%2e%2e/outside.png?sigma=2", 403), ("/blur/sub/%2E%2E/%2e%2e/outside.png?sigma=2", 403),
            ("/blur//etc/passwd?sigma=2", 403), ("/blur/%2Fetc%2Fpasswd?sigma=2", 403), ("/blur/link.png?sigma=2", 403),
            ("//etc/passwd?sigma=2", 403),
            ("/blur/in.png%00.txt?sigma=2", 400), ("/blur/.hidden?sigma=2", 403), ("/blur/in.png?sigma=2%00", 400),
        ] {
            let reply = try Self.fetch(server, target)
            #expect(reply.status == status, "\(target): \(reply.status) \(reply.text)")
            #expect(!reply.text.contains("secret"))
        }
        // A scene's images are read under the root only.
        try AtomicFile.write(
            Array(#"{"width": 10, "height": 10, "layers": [{"name": "x", "frame": [0, 0, 10, 10], "content": {"image": "../outside.png"}}]}"#.utf8),
            to: root + "/escape.json")
        let escape = try Self.fetch(server, "/render/escape.json?time=0")
        #expect(escape.status == 422 && escape.text.contains("leads out of the root"), "\(escape.text)")
        #expect(server.stop() == 0)
    }

    @Test func etagsRevalidateAndTheCacheKeepsWhatItCan() throws {
        let root = try Self.makeRoot()
        let cache = (root as NSString).deletingLastPathComponent + "/cache"
        var server = try Server(root: root, ["--cache", cache, "--cache-size", "1"])
        let first = try Self.fetch(server, "/blur/in.png?sigma=4")
        let etag = try #require(first.headers["etag"])
        #expect(first.status == 200 && first.headers["x-cache"] == nil)
        #expect(try Self.fetch(server, "/blur/in.png?sigma=4", ["-H", "If-None-Match: \(etag)"]).status == 304)
        #expect(try Self.fetch(server, "/blur/in.png?sigma=5", ["-H", "If-None-Match: \(etag)"]).status == 200)
        // The parameters' order does not change the ETag; their values do.
        let one = try Self.fetch(server, "/blur/in.png?sigma=4&edges=clamp").headers["etag"]
        let reordered = try Self.fetch(server, "/blur/in.png?edges=clamp&sigma=4").headers["etag"]
        let other = try Self.fetch(server, "/blur/in.png?edges=transparent&sigma=4").headers["etag"]
        #expect(one != nil && one == reordered && one != other)
        let hit = try Self.fetch(server, "/blur/in.png?sigma=4")
        #expect(hit.headers["x-cache"] == "hit" && hit.body == first.body && hit.headers["etag"] == etag)

        // The output format is part of the key: the same path and parameters as PNG, WebP and JPEG
        // (asked by format= or by Accept) have ETags of their own and never answer from each other's
        // cache entry or revalidate against each other's ETag.
        var etags: Set<String> = [etag]
        for (options, query, type) in [
            ([String](), "&format=webp", "image/webp"), ([], "&format=jpeg", "image/jpeg"), (["-H", "Accept: image/webp"], "", "image/webp"),
        ] {
            let other = try Self.fetch(server, "/blur/in.png?sigma=4" + query, options)
            let otherTag = try #require(other.headers["etag"])
            #expect(other.status == 200 && other.headers["content-type"] == type, "\(query) \(options)")
            if query.isEmpty {
                // Accept: image/webp asks for what format=webp asked for: the same ETag, and its entry.
                #expect(etags.contains(otherTag) && other.headers["x-cache"] == "hit")
            } else {
                #expect(!etags.contains(otherTag) && other.headers["x-cache"] == nil, "\(query)")
            }
            etags.insert(otherTag)
            #expect(try Self.fetch(server, "/blur/in.png?sigma=4" + query, options + ["-H", "If-None-Match: \(etag)"]).status == 200)
        }
        #expect(etags.count == 3, "\(etags)")
        let pngAgain = try Self.fetch(server, "/blur/in.png?sigma=4&format=png")
        #expect(pngAgain.headers["content-type"] == "image/png" && pngAgain.body == first.body)

        // A damaged entry is thrown away and rendered again.
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".bkc") }
        for entry in entries {
            var bytes = try AtomicFile.read(cache + "/" + entry)
            bytes[bytes.count - 10] ^= 0xFF
            try AtomicFile.write(bytes, to: cache + "/" + entry)
        }
        let again = try Self.fetch(server, "/blur/in.png?sigma=4")
        #expect(again.status == 200 && again.headers["x-cache"] == nil && again.body == first.body)

        // The cache survives a restart, and stays under its size (1 MB; a PNG here is about 90 KB).
        server.stop()
        server = try Server(root: root, ["--cache", cache, "--cache-size", "1"])
        #expect(try Self.fetch(server, "/blur/in.png?sigma=4").headers["x-cache"] == "hit")
        for sigma in 1...16 { _ = try Self.fetch(server, "/blur/in.png?sigma=\(Double(sigma) + 0.5)&compression=0") }
        let total = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".bkc") }.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: cache + "/" + $1)[.size] as? Int) ?? 0)
        }
        #expect(total > 0 && total <= 1 << 20, "\(total) bytes")
        #expect(try Self.fetch(server, "/metrics").text.contains("blurkit_cache_hits_total 1"))
        #expect(server.stop() == 0)
    }

    @Test func withAKeyOnlySignedURLsAreServed() throws {
        let root = try Self.makeRoot()
        let key = "00112233445566778899aabbccddeeff"
        let server = try Server(root: root, ["--key", key])
        let signer = try URLSigner(hexKey: key)
        #expect(try Self.fetch(server, "/blur/in.png?sigma=2").status == 403)
        let signed = signer.sign("/blur/in.png?sigma=2")
        let reply = try Self.fetch(server, signed)
        #expect(reply.status == 200 && reply.headers["cache-control"]?.contains("immutable") == true)
        #expect(try Self.fetch(server, signed.replacingOccurrences(of: "sigma=2", with: "sigma=3")).status == 403)
        #expect(try Self.fetch(server, String(signed.dropLast()) + "0").status == 403)
        #expect(try Self.fetch(server, "/healthz").status == 200)
        #expect(server.stop() == 0)
    }

    /// One render slot and one place in the queue: a second render waits its turn, a third gets
    /// 503 with Retry-After at once. SIGTERM while they run lets both finish, refuses new
    /// connections, and exits 0.
    @Test func rendersAreBoundedAndTheDrainFinishesWhatIsInFlight() throws {
        let root = try Self.makeRoot()
        // A long time limit: under a sanitizer the slow render takes many times longer.
        let server = try Server(root: root, ["--max-concurrent", "1", "--max-queue", "1", "--timeout", "300"])
        /// A reply written by one thread and read by another, under a lock.
        final class Box: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: Reply?
            var reply: Reply? {
                get { lock.withLock { stored } }
                set { lock.withLock { stored = newValue } }
            }
        }
        /// Polls /metrics until `line` is in it.
        func waitFor(_ line: String) throws {
            for _ in 0..<250 {
                if try Self.fetch(server, "/metrics").text.contains(line) { return }
                usleep(20_000)
            }
            Issue.record("no \(line) in the metrics")
        }
        let slow = Box(), queued = Box()
        Thread { slow.reply = try? Self.fetch(server, "/blurup/in.png?wait=20&fps=60", seconds: 600) }.start()
        try waitFor("blurkit_in_flight 1")
        Thread { queued.reply = try? Self.fetch(server, "/blur/in.png?sigma=2", seconds: 600) }.start()
        try waitFor("blurkit_queued 1")
        let refused = try Self.fetch(server, "/blur/in.png?sigma=3")
        #expect(refused.status == 503 && refused.headers["retry-after"] == "1" && refused.text.contains("queue is full"), "\(refused.text)")
        // Not ready while a render would be refused: a balancer sends the next one elsewhere.
        let health = try Self.fetch(server, "/healthz")
        #expect(health.status == 503 && health.text.contains("not ready"), "\(health.text)")
        kill(server.process.processIdentifier, SIGTERM)
        // Once the server has taken the signal, new connections are refused (curl reports status 0).
        var closed = false
        let deadline = Date().addingTimeInterval(30)
        while !closed, Date() < deadline {
            closed = try Self.fetch(server, "/healthz", seconds: 5).status == 0
            if !closed { usleep(20_000) }
        }
        #expect(closed, "a new connection is refused while draining")
        #expect(server.stop() == 0)
        while slow.reply == nil || queued.reply == nil { usleep(20_000) }
        #expect(slow.reply?.status == 200 && slow.reply?.headers["content-type"] == "image/webp")
        #expect(queued.reply?.status == 200 && queued.reply?.headers["content-type"] == "image/png")
        #expect(server.log.contains("draining"))
    }

    @Test func slowClientsAndSlowRendersAreCutOff() throws {
        let root = try Self.makeRoot()
        let server = try Server(root: root, ["--timeout", "1"])
        // Half a request line, then nothing: the connection is closed within the time limit.
        let port = server.url.split(separator: ":").last!
        let script = """
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(b"GET /blur/in.png?sig")
            start = time.time()
            s.settimeout(10)
            data = s.recv(100)
            print(round(time.time() - start, 2), len(data))
            """
        let printed = try Self.python(script).split(separator: " ")
        let waited = Double(printed.first ?? "") ?? 99
        #expect(waited < 5 && printed.last?.hasPrefix("0") == true, "closed after \(waited) s: \(printed)")
        // Headers trickled a byte every 0.3 s — never silent long enough for an idle time-out — are
        // cut off at the time limit too.
        let trickle = """
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n")
            start = time.time()
            try:
                while time.time() - start < 10:
                    s.sendall(b"X")
                    time.sleep(0.3)
                print(99)
            except OSError:
                print(round(time.time() - start, 2))
            """
        let cut = Double(try Self.python(trickle)) ?? 99
        #expect(cut < 4, "a trickling client was cut off after \(cut) s")
        // A render longer than the limit stops between frames with 503.
        let long = try Self.fetch(server, "/blurup/in.png?wait=30&fps=60")
        #expect(long.status == 503 && long.text.contains("time limit"), "\(long.text)")
        #expect(server.stop() == 0)
    }

    @Test func theOpenAPIDocumentListsEveryRouteAndParameter() throws {
        let root = try Self.makeRoot()
        let server = try Server(root: root)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(try Self.fetch(server, "/openapi.json").body)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        for route in ["blur", "progressive", "material", "blurup", "render", "placeholder"] {
            let get = try #require((paths["/\(route)/{path}"] as? [String: Any])?["get"] as? [String: Any], "\(route)")
            let names = ((get["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("path"))
            if route == "blur" { #expect(Set(names).isSuperset(of: ["sigma", "radius", "scale", "edges", "format", "quality", "compression"])) }
            if route == "progressive" { #expect(Set(names).isSuperset(of: ["direction", "max-radius", "region", "tint"])) }
            #expect(!names.contains("threads") && !names.contains("max-pixels"))
        }
        #expect(paths["/render"] == nil && paths["/blur"] != nil)
        #expect(server.stop() == 0)
    }
}
