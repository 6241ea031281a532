import BlurCore
import Foundation

/// Bands of rows handed from one thread to another through a queue of at most `depth` bands: the
/// joint between the decoder, the effect and the encoder. Buffers are recycled, so the queue holds
/// `depth + 1` bands' worth of pixels however long the image is.
///
/// `@unchecked Sendable`: every field is read and written under `condition` only.
final class BandQueue: @unchecked Sendable {
    struct Band {
        var pixels: UnsafeMutablePointer<UInt8>
        var rows: Range<Int>
    }

    private let condition = NSCondition()
    private var full: [Band] = []
    private var empty: [UnsafeMutablePointer<UInt8>] = []
    private var allocated: [UnsafeMutablePointer<UInt8>] = []
    private let depth: Int
    private let bandBytes: Int
    private var closed = false
    private var failure: (any Error)?

    init(depth: Int, bandBytes: Int) {
        self.depth = depth
        self.bandBytes = bandBytes
    }

    deinit { for buffer in allocated { buffer.deallocate() } }

    var heldBytes: Int { (depth + 1) * bandBytes }

    /// A buffer to fill, waiting while `depth` bands are queued; nil once the queue is closed.
    func buffer() -> UnsafeMutablePointer<UInt8>? {
        condition.lock()
        defer { condition.unlock() }
        while full.count >= depth && !closed { condition.wait() }
        if closed { return nil }
        if let buffer = empty.popLast() { return buffer }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bandBytes)
        allocated.append(buffer)
        return buffer
    }

    /// Queues a filled band.
    func put(_ band: Band) {
        condition.lock()
        full.append(band)
        condition.broadcast()
        condition.unlock()
    }

    /// The next band, waiting for one; nil when the producer has finished. Throws what the other
    /// side failed with.
    func take() throws -> Band? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty && !closed { condition.wait() }
        if let failure { throw failure }
        return full.isEmpty ? nil : full.removeFirst()
    }

    /// Gives a taken band's buffer back.
    func recycle(_ band: Band) {
        condition.lock()
        empty.append(band.pixels)
        condition.broadcast()
        condition.unlock()
    }

    /// No more bands: the consumer drains what is queued. With an error, both sides stop.
    func close(failure: (any Error)? = nil) {
        condition.lock()
        closed = true
        if let failure, self.failure == nil {
            self.failure = failure
            full.removeAll()
        }
        condition.broadcast()
        condition.unlock()
    }
}

/// A value handed to exactly one other thread, which alone uses it until it is joined.
struct Handed<Value>: @unchecked Sendable {
    let value: Value
}

/// A thread that runs `body` once; ``join()`` waits for it.
final class Worker: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let done = done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 22
        thread.start()
    }

    func join() { done.wait() }
}

/// A source read ahead on a thread of its own, band by band: the decoder keeps decoding while the
/// stages after it work.
package final class PrefetchedSource: RowSource {
    private let upstream: any RowSource
    private let queue: BandQueue
    private let band: Int
    private var worker: Worker?
    private var current: BandQueue.Band?
    private var used = 0

    package init(_ upstream: any RowSource, bandRows: Int? = nil, depth: Int = 2) {
        self.upstream = upstream
        band = bandRows ?? StreamingDefaults.bandRows(width: upstream.width)
        queue = BandQueue(depth: depth, bandBytes: band * upstream.width * 4)
    }

    deinit {
        queue.close(failure: CancellationError())
        worker?.join()
    }

    package var width: Int { upstream.width }
    package var height: Int { upstream.height }
    package var heldBytes: Int { upstream.heldBytes + queue.heldBytes }

    package func read(into rows: MutablePixelView) throws {
        if worker == nil { start() }
        var y = rows.firstRow
        while y < rows.rows.upperBound {
            if current == nil || used == current!.rows.count {
                if let done = current { queue.recycle(done) }
                current = try queue.take()
                used = 0
                guard current != nil else { preconditionFailure("a source ended before its last row") }
            }
            let band = current!, n = min(band.rows.count - used, rows.rows.upperBound - y)
            let w = width * 4
            for i in 0..<n { rows.row(y + i).update(from: band.pixels + (used + i) * w, count: w) }
            used += n
            y += n
        }
    }

    private func start() {
        let job = Handed(value: (upstream, queue, band))
        worker = Worker("blurkit.decode") {
            let (source, queue, band) = job.value
            var y = 0
            while y < source.height {
                guard let buffer = queue.buffer() else { return }
                let rows = y..<min(source.height, y + band)
                do {
                    try source.read(
                        into: MutablePixelView(base: buffer, width: source.width, height: rows.count, bytesPerRow: source.width * 4, firstRow: y))
                } catch {
                    queue.close(failure: error)
                    return
                }
                queue.put(.init(pixels: buffer, rows: rows))
                y = rows.upperBound
            }
            queue.close()
        }
    }
}
