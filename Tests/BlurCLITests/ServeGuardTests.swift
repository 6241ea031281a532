import BlurServe
import BlurTestSupport
import Foundation
import Testing

/// The two checks every request of a public deployment goes through, held to every way they could
/// be fooled: the URL signature (each wrong form refused, not just a changed digit) and the root's
/// confinement (a sibling folder whose name starts with the root's is outside it).
@Suite struct ServeGuardTests {
    static let key = "00112233445566778899aabbccddeeff"

    /// `verify`'s answer: the target without its signature, or the status it refused with.
    static func verdict(_ signer: URLSigner, _ target: String) -> Result<String, ServeError> {
        Result { () throws(ServeError) -> String in try signer.verify(target) }
    }

    /// `resolve`'s answer: the file's real path, or the status it refused with.
    static func resolution(_ root: ServeRoot, _ relative: String) -> Result<String, ServeError> {
        Result { () throws(ServeError) -> String in try root.resolve(relative) }
    }

    /// The hex after `sig=` in a signed target.
    static func signature(of signed: String) throws -> String {
        String(signed[try #require(signed.range(of: "sig=")).upperBound...])
    }

    @Test func onlyTheExactSignatureIsAccepted() throws {
        let signer = try URLSigner(hexKey: Self.key)
        let target = "/blur/in.png?sigma=2"
        let signed = signer.sign(target)
        #expect(Self.verdict(signer, signed) == .success(target))
        let signature = try Self.signature(of: signed)
        #expect(signature.count == 64 && signature == signature.lowercased())

        let otherSignature = try Self.signature(of: try URLSigner(hexKey: "ffeeddccbbaa99887766554433221100").sign(target))
        let flipped = String(signature.dropLast()) + (signature.hasSuffix("0") ? "1" : "0")
        let forms: [(String, String)] = [
            ("one digit short", String(signature.dropLast())),
            ("half of it", String(signature.prefix(32))),
            ("its first digit", String(signature.prefix(1))),
            ("empty", ""),
            ("one digit more", signature + "0"),
            ("twice", signature + signature),
            ("upper case", signature.uppercased()),
            ("another key's", otherSignature),
            ("the last digit changed", flipped),
            ("with a trailing space", signature + " "),
        ]
        for (name, form) in forms {
            #expect(Self.verdict(signer, target + "&sig=" + form).failureStatus == 403, "\(name): \(form)")
        }
        // No signature, a signature of another target, and one that is not at the end.
        #expect(Self.verdict(signer, target).failureStatus == 403)
        #expect(Self.verdict(signer, "/blur/in.png?sigma=3&sig=" + signature).failureStatus == 403)
        #expect(Self.verdict(signer, "/blur/in.png?sig=\(signature)&sigma=2").failureStatus == 403)
        #expect(Self.verdict(signer, "/blur/in.png?xsig=" + signature).failureStatus == 403)
        // A path signed without a query takes its signature after `?` only: `&sig=` there would make
        // the target another one (`/blur/hd.png&sig=…` is not `/blur/hd.png`).
        let bare = signer.sign("/blur/hd.png")
        #expect(Self.verdict(signer, bare) == .success("/blur/hd.png"))
        #expect(Self.verdict(signer, "/blur/hd.png&sig=" + (try Self.signature(of: bare))).failureStatus == 403)
        // A key too short to be one.
        #expect(throws: ServeError.self) { try URLSigner(hexKey: "0011223344556677") }
    }

    /// `photos` and `photos-private` side by side: a link from the root into the sibling (to a file
    /// or to the folder) leads out of the root, though the sibling's path starts with the root's.
    @Test func aSiblingWhoseNameStartsWithTheRootsIsOutside() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-root-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/photos", sibling = base + "/photos-private"
        for folder in [root + "/sub", sibling] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for file in [root + "/in.png", root + "/sub/cat.png", sibling + "/secret.png"] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/peek.png", withDestinationPath: "../photos-private/secret.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/private", withDestinationPath: sibling)
        try FileManager.default.createSymbolicLink(atPath: root + "/inside.png", withDestinationPath: "sub/cat.png")

        let served = try ServeRoot(root)
        let real = try #require(served.path.hasSuffix("/photos") ? served.path : nil)
        #expect(Self.resolution(served, "in.png") == .success(real + "/in.png"))
        #expect(Self.resolution(served, "inside.png") == .success(real + "/sub/cat.png"))
        for relative in ["peek.png", "private/secret.png"] {
            #expect(Self.resolution(served, relative).failureStatus == 403, "\(relative)")
        }
        // The sibling's own path, given as the root's, is refused before it is looked up.
        #expect(Self.resolution(served, "../photos-private/secret.png").failureStatus == 403)
    }

    /// Paths compare as bytes: a root named `ré` composed (NFC) and a folder `ré` decomposed (NFD)
    /// beside it are different folders, and a link into the second leads out.
    @Test func aFolderSpelledWithTheOtherUnicodeFormIsOutside() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-nfd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let composed = "r\u{E9}", decomposed = "re\u{301}"
        #expect(composed == decomposed, "Swift compares the two spellings as equal: the bug this guards against")
        let root = base + "/" + composed, other = base + "/" + decomposed
        for folder in [root, other] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let names = try FileManager.default.contentsOfDirectory(atPath: base)
        #expect(names.count == 2, "the file system keeps both spellings apart: \(names)")
        #expect(FileManager.default.createFile(atPath: other + "/private.png", contents: Data("x".utf8)))
        try FileManager.default.createSymbolicLink(atPath: root + "/link-nfd", withDestinationPath: other)
        let served = try ServeRoot(root)
        #expect(Self.resolution(served, "link-nfd/private.png").failureStatus == 403)
    }

    /// Through a link that leads out, a file that exists and one that does not get the same answer:
    /// nothing outside the root can be probed.
    @Test func nothingOutsideTheRootCanBeProbed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-oracle-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root", outside = base + "/outside"
        for folder in [root, outside] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        #expect(FileManager.default.createFile(atPath: outside + "/exists.png", contents: Data("x".utf8)))
        try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: outside)
        let served = try ServeRoot(root)
        let existing = Self.resolution(served, "out/exists.png"), missing = Self.resolution(served, "out/missing.png")
        #expect(existing.failureStatus == 403 && missing.failureStatus == 403, "\(existing) \(missing)")
        #expect(Self.resolution(served, "nothing-here.png").failureStatus == 404)
    }
}

extension Result where Failure == ServeError {
    /// The status a failure stands for; nil for a success.
    var failureStatus: Int? {
        if case let .failure(error) = self { return error.status }
        return nil
    }
}

/// The render queue admits by waiting time: a request waits while the renders ahead, at the mean
/// time of one, leave it time before its deadline.
@Suite struct RenderGateTests {
    @Test func aRequestIsAdmittedWhileItsDeadlineAllows() throws {
        // Time stands still: the mean does not fade between the steps.
        let now = Date()
        let gate = RenderGate(running: 1, waiting: 100, clock: { now })
        let far = now.addingTimeInterval(3600)
        // One render of 2 s teaches the gate the mean.
        let first = try gate.reserve(deadline: far).get()
        #expect(gate.wait(first, until: far))
        gate.release(first, after: 2)
        // One running, then each queued one waits 2 s more: with 9 s left, the renders ahead of
        // the fourth in the queue (8 s) plus its own (2 s) do not fit.
        let running = try gate.reserve(deadline: far).get()
        #expect(gate.wait(running, until: far))
        let soon = now.addingTimeInterval(9)
        var admitted = 0
        while case .success = gate.reserve(deadline: soon) { admitted += 1 }
        #expect(admitted == 3)
        #expect(gate.wouldRefuse(deadline: soon) == .wouldWait(seconds: 8))
        // A request with a later deadline still gets in; the count bound is the last word.
        #expect(gate.wouldRefuse(deadline: far) == nil)
        gate.close()
        #expect(gate.wouldRefuse(deadline: far) == .closed)
        #expect(gate.queuedCount == 3)
    }

    @Test func theCountBoundsTheQueueWhateverTheDeadlines() throws {
        let gate = RenderGate(running: 1, waiting: 2)
        let far = Date().addingTimeInterval(3600)
        let running = try gate.reserve(deadline: far).get()
        #expect(gate.wait(running, until: far))
        _ = try gate.reserve(deadline: far).get()
        _ = try gate.reserve(deadline: far).get()
        #expect(gate.wouldRefuse(deadline: far) == .full)
    }
}

/// The gate's estimate can never lock it: random sequences of render times — over the limit, cut
/// at it, cancelled early, cached (no render at all) — then the load stops, and the next render is
/// admitted at once; with one render left running for ever, within a bounded time.
@Suite struct RenderGateModelTests {
    /// A clock the test moves by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: 1_000_000)
        func read() -> Date { lock.withLock { now } }
        func advance(_ seconds: Double) { lock.withLock { now = now.addingTimeInterval(seconds) } }
    }

    @Test(arguments: [1, 2, 4])
    func noSequenceOfRenderTimesLocksTheGate(running: Int) throws {
        let limit = 3.0
        for seed in UInt64(1)...40 {
            var random = TestRandom(seed: seed &+ UInt64(running) << 32)
            let clock = Clock()
            let gate = RenderGate(running: running, waiting: 8, clock: { clock.read() })
            var queued: [(ticket: RenderGate.Ticket, deadline: Date)] = []
            var runningNow: [RenderGate.Ticket] = []
            func uniform() -> Double { Double(random.next() % 10_000) / 10_000 }
            /// Tickets whose turn has come run; those whose deadline has passed give up.
            func serve() {
                while let head = queued.first, runningNow.count < running || clock.read() > head.deadline {
                    queued.removeFirst()
                    if gate.wait(head.ticket, until: head.deadline) { runningNow.append(head.ticket) }
                }
            }
            for _ in 0..<300 {
                switch random.next() % 4 {
                case 0, 1:
                    if case let .success(ticket) = gate.reserve(deadline: clock.read().addingTimeInterval(limit)) {
                        queued.append((ticket, clock.read().addingTimeInterval(limit)))
                    }
                case 2 where !runningNow.isEmpty:
                    // A render ends: over the limit, cut at it, cancelled early or cheap.
                    let ended = runningNow.removeFirst()
                    let kinds = [limit * (1 + 2 * uniform()), limit, 0.05 * uniform(), 0.2 * uniform()]
                    gate.release(ended, after: kinds[Int(random.next() % 4)])
                default:
                    clock.advance(limit * uniform())
                }
                serve()
            }
            // The load stops: what waits gives up or runs, what runs ends (at the limit, the worst case).
            clock.advance(limit + 1)
            serve()
            while !runningNow.isEmpty {
                gate.release(runningNow.removeFirst(), after: limit)
                serve()
            }
            #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == nil, "seed \(seed): an idle gate admits")
            guard running > 1 else { continue }
            // One render that never ends beside one that took three times the limit: the next is
            // admitted within ten half-lives.
            var tickets: [RenderGate.Ticket] = []
            for _ in 0..<2 {
                let ticket = try gate.reserve(deadline: clock.read().addingTimeInterval(limit)).get()
                #expect(gate.wait(ticket, until: clock.read().addingTimeInterval(limit)))
                tickets.append(ticket)
            }
            gate.release(tickets[0], after: 3 * limit)
            var waited = 0.0
            while gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) != nil && waited < 10 * gate.halfLife {
                clock.advance(1)
                waited += 1
            }
            #expect(waited < 10 * gate.halfLife, "seed \(seed): admitted \(waited) s after the load stopped")
        }
    }
}

/// The wait counts the renders running now: with every slot held by renders that have run long, a
/// new request is refused at once (and `/healthz` would say so) instead of waiting for a slot that
/// will not come free in time — even before any render has ended to teach the gate a mean.
@Suite struct RenderGateRunningTests {
    @Test func rendersThatRunLongKeepTheNextOut() throws {
        let clock = RenderGateModelTests.Clock()
        let gate = RenderGate(running: 2, waiting: 8, clock: { clock.read() })
        let limit = 30.0
        var tickets: [RenderGate.Ticket] = []
        for _ in 0..<2 {
            let ticket = try gate.reserve(deadline: clock.read().addingTimeInterval(limit)).get()
            #expect(gate.wait(ticket, until: clock.read().addingTimeInterval(limit)))
            tickets.append(ticket)
        }
        // At first nothing is known: a third may wait for a slot.
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == nil)
        // Twenty seconds in, both still running: each is expected to run as long again, up to its
        // deadline 10 s away — a request with 30 s may wait for it, one with 5 s may not.
        clock.advance(20)
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == nil)
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(5)) == .wouldWait(seconds: 10))
        // Past their deadlines (work that could not be interrupted) they are expected to run as
        // long again: nothing is admitted that would only wait for them.
        clock.advance(20)
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == .wouldWait(seconds: 40))
        // One ends: its slot is free, and a request is admitted at once.
        gate.release(tickets[0], after: 20)
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == nil)
        // A render's time counts up to its deadline only: one cut at 30 s of a 30-s limit teaches 30 s,
        // not the 90 s it would have taken.
        gate.release(tickets[1], after: 90)
        clock.advance(1)
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(limit)) == nil)
        // Idle, the gate admits whatever renders cost before: even a request with less time than
        // the mean (20–30 s here) gets its try.
        #expect(gate.wouldRefuse(deadline: clock.read().addingTimeInterval(5)) == nil)
    }

    // Issue 51, finding 8: /healthz said ok while a render ran past its limit (and the next cheap
    // render got 503). The gate counts the renders past their deadline; /healthz is not ready then.
    @Test func aRenderPastItsDeadlineIsCounted() throws {
        let clock = RenderGateModelTests.Clock()
        let gate = RenderGate(running: 2, waiting: 8, clock: { clock.read() })
        let ticket = try gate.reserve(deadline: clock.read().addingTimeInterval(3)).get()
        #expect(gate.wait(ticket, until: clock.read().addingTimeInterval(3)))
        clock.advance(2.9)
        #expect(gate.overrunning == 0)
        clock.advance(0.2)
        #expect(gate.overrunning == 1)
        gate.release(ticket, after: 3.1)
        #expect(gate.overrunning == 0)
    }
}
