import BlurCore
import BlurIO
import BlurKit
import Foundation
import Synchronization
import Testing

/// Issue 51: an estimate that falls short fails safe. Every render carries the process's heap
/// ceiling to its checkpoints; past it the render stops with the `BudgetError` that names the heap,
/// and the ceiling is measured again at every look, so it keeps nothing out once memory is back.
@Suite struct HeapCeilingTests {
    static let input = Result { try CancellationTests.input(side: 600, format: .png) }

    func blur(_ options: RenderOptions) throws -> [UInt8] {
        let given = try BlurOperation.named("blur")!.read([(name: "sigma", value: "24")], as: .query, in: .http)
        return try Renderer.still(given, from: .bytes(try Self.input.get(), name: "in.png"), to: .memory, format: .png, options: options)
    }

    @Test func theHeapIsReadHere() throws {
        // A 64 MB block in use shows in the figure (whatever other tests hold meanwhile).
        let block = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 64)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 << 20)
        let held = try #require(HeapCeiling.heapInUse())
        block.deallocate()
        #expect(held >= 64 << 20, "\(held)")
    }

    @Test func aRenderPastTheCeilingStopsWithTheReason() throws {
        var options = RenderOptions()
        options.heapCeiling = HeapCeiling(bytes: 1)
        do {
            _ = try blur(options)
            Issue.record("the render finished past a ceiling of 1 byte")
        } catch let error as BudgetError {
            #expect(error.description.contains("heap"), "\(error)")
            #expect(error.budget == 1)
        }
    }

    /// Figures a test gives the ceiling: over it until `lower()`, then under.
    final class Figures: Sendable {
        private let high = Atomic<Bool>(true)
        func read() -> Int? { high.load(ordering: .relaxed) ? 2 << 30 : 1 << 20 }
        func lower() { high.store(false, ordering: .relaxed) }
    }

    @Test func theCeilingIsMeasuredAgainAtEveryLook() throws {
        let figures = Figures()
        var options = RenderOptions()
        options.heapCeiling = HeapCeiling(bytes: 1 << 30, measure: { figures.read() }, interval: 0)
        #expect(throws: BudgetError.self) { try blur(options) }
        figures.lower()
        #expect(try blur(options).count > 0)
        // And a render with no ceiling never asks.
        options.heapCeiling = nil
        #expect(try blur(options).count > 0)
    }
}
