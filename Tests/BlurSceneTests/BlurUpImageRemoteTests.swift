import BlurCore
import BlurIO
import BlurScene
import Foundation
import Testing

/// Against a real HTTP server on 127.0.0.1 started by the test.
@Suite struct BlurUpImageRemoteTests {
    static let preview = try! Bitmap(width: 3, height: 4, premultipliedRGBA: [UInt8](repeating: 200, count: 48))
    static let photo: [UInt8] = {
        var bytes = [UInt8]()
        for y in 0..<30 { for x in 0..<40 { bytes += [UInt8(x * 6), UInt8(y * 8), 90, 255] } }
        return try! PNGCodec.encode(Bitmap(width: 40, height: 30, premultipliedRGBA: bytes))
    }()

    func load(_ path: String, from server: LocalHTTPServer, timeout: Double = 5) async -> BlurUpImageRemote.Phase {
        var remote = BlurUpImageRemote(url: server.url(path), preview: Self.preview, label: "x")
        remote.timeout = timeout
        return await remote.load()
    }

    @Test func anImageArrivesAndComesIntoFocus() async throws {
        let server = try LocalHTTPServer(routes: ["/photo.png": .init(body: Self.photo, contentType: "image/png")])
        defer { server.stop() }
        let phase = await load("/photo.png", from: server)
        guard case let .success(image) = phase else { Issue.record("expected an image, got \(phase)"); return }
        #expect(image == (try PNGCodec.decode(Self.photo)))
        let remote = BlurUpImageRemote(url: server.url("/photo.png"), preview: Self.preview, label: "x")
        let view = remote.view(frame: Rect(x: 0, y: 0, width: 40, height: 30))
        #expect(view.accessibility.value == "Loading")
        BlurUpImageRemote.apply(phase, to: view, at: 1)
        #expect(view.imagePresentation(at: 1.8) == (1, 0))
        #expect(view.accessibility.value == "")
    }

    @Test(arguments: ["/missing.png", "/corrupt.png", "/slow.png"])
    func failuresKeepThePreviewAndStopLoading(_ path: String) async throws {
        let server = try LocalHTTPServer(routes: [
            "/corrupt.png": .init(body: Array(Self.photo.prefix(60)), contentType: "image/png"),
            "/slow.png": .init(body: Self.photo, contentType: "image/png", delay: 3),
        ])
        defer { server.stop() }
        // Only the slow route may time out: the others get ample time even on a loaded machine.
        let phase = await load(path, from: server, timeout: path == "/slow.png" ? 0.5 : 20)
        guard case let .failure(error) = phase else { Issue.record("expected a failure, got \(phase)"); return }
        switch (path, error) {
        case ("/missing.png", .status(_, 404)), ("/corrupt.png", .notAnImage), ("/slow.png", .timedOut): break
        default: Issue.record("\(path): unexpected \(error)")
        }
        let view = BlurUpImageRemote(url: server.url(path), preview: Self.preview, label: "x").view(frame: Rect(x: 0, y: 0, width: 40, height: 30))
        BlurUpImageRemote.apply(phase, to: view, at: 0)
        #expect(view.image == nil && !view.isLoading && !view.showsActivityIndicator(at: 0))
        // The blurred preview stays, exactly as a view that never loaded anything.
        let idle = BlurUpImage(preview: Self.preview, label: "x", isLoading: false, frame: Rect(x: 0, y: 0, width: 40, height: 30))
        #expect(try view.render(at: 1) == idle.render(at: 1))
    }

    @Test func aRefusedConnectionIsAFailure() async {
        let port = LocalHTTPServer.unusedPort()
        let remote = BlurUpImageRemote(url: URL(string: "http://127.0.0.1:\(port)/x.png")!, preview: Self.preview, label: "x")
        guard case .failure(.transport) = await remote.load() else { Issue.record("expected a transport failure"); return }
    }

    @Test func noURLMeansNotLoading() async {
        let remote = BlurUpImageRemote(url: nil, preview: Self.preview, label: "x")
        guard case .empty = await remote.load() else { Issue.record("expected .empty"); return }
        #expect(!remote.view(frame: Rect(x: 0, y: 0, width: 10, height: 10)).isLoading)
    }
}
