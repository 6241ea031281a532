import BlurCore
import BlurTestSupport
import Dispatch
import Synchronization
import Testing

/// Engine values are Sendable; many threads rendering at once produce the bytes one thread does.
@Suite struct ConcurrencyTests {
    @Test func manyThreadsAtOnceGiveTheSameBytes() throws {
        let image = TestImages.noise(width: 97, height: 61, seed: 11)
        let jobs: [@Sendable () -> Bitmap] = [
            { try! GaussianBlur(sigma: 2.5).apply(to: image) },
            { try! GaussianBlur(sigma: 17, edges: .transparent).apply(to: image, threads: 3) },
            {
                var effect = VariableBlurEffect(direction: .left)
                effect.maximumBlurRadius = 9
                return effect.render(over: image, frame: Rect(x: 3, y: 2, width: 80, height: 50))
            },
            { Material(style: .systemThinMaterialDark, cornerRadius: 8).render(over: image, frame: Rect(x: 5, y: 5, width: 70, height: 40)) },
        ]
        let expected = jobs.map { $0() }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let job = i % jobs.count
            if jobs[job]() != expected[job] { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
