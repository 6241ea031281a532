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

    @Test func anAllocationThatWouldPassTheCeilingIsRefusedBeforeItIsMade() throws {
        // 100 MB in use under a ceiling of 120 MB: 10 MB more is admitted, 30 MB more is not.
        let ceiling = HeapCeiling(bytes: 120 << 20, measure: { 100 << 20 }, interval: 0)
        #expect(ceiling.refusal(adding: 10 << 20) == nil)
        let refusal = try #require(ceiling.refusal(adding: 30 << 20))
        #expect(refusal.description.contains("refused 30 MB more"), "\(refusal)")
        #expect(refusal.needed == 130 << 20 && refusal.budget == 120 << 20)
        // Named as the ceiling it is, not as the budget (the outside round read "over the memory
        // budget of 69 MB" under --memory-budget 50).
        #expect(
            refusal.description.contains("over the heap's ceiling (what --memory-budget leaves the heap")
                && !refusal.description.contains("over the memory budget"), "\(refusal)")
        // An allocation too large to add is refused, not wrapped.
        #expect(ceiling.refusal(adding: .max) != nil)
        // A heap that cannot be read admits.
        #expect(HeapCeiling(bytes: 1, measure: { nil }).refusal(adding: 1 << 30) == nil)
    }

    @Test func theEngineAsksTheGateBeforeALargeAllocation() throws {
        // Only an allocation of this exact size is refused, so tests running beside this one are
        // not: the answer is the process's, installed for a moment.
        let size = HeapGate.threshold + 12345
        HeapGate.install { bytes in bytes == size ? BudgetError(job: "test", needed: bytes, budget: 0) : nil }
        defer { HeapGate.install(nil) }
        #expect(throws: BudgetError.self) { try HeapGate.admit(size) }
        try HeapGate.admit(size + 1)
        // Below the threshold the gate is not asked.
        let small = HeapGate.threshold - 1
        HeapGate.install { bytes in bytes == small ? BudgetError(job: "test", needed: bytes, budget: 0) : nil }
        try HeapGate.admit(small)
    }
}
