import Dispatch
import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardSupport

/// The thread a pipeline blocks and awaits on: what `provision`, `resync`, `audit`, `migrate` and
/// `sheets` rely on to keep SQLite and files off the cooperative pool.
@Suite("PipelineThread")
struct PipelineThreadTests {
    @Test("the body and everything it awaits resume on one thread, not on the shared pool")
    func oneThread() async throws {
        let onPool = await Task.detached { Self.threadID() }.value
        let seen = await PipelineThread.run { () async -> [UInt] in
            var seen = [Self.threadID()]
            try? await Task.sleep(for: .milliseconds(5))
            seen.append(Self.threadID())
            // Child tasks inherit the pipeline's thread as their executor.
            async let child = Self.threadID()
            seen.append(await child)
            _ = await Task.detached { Self.threadID() }.value
            seen.append(Self.threadID())
            return seen
        }
        #expect(Set(seen).count == 1, "\(seen)")
        #expect(seen.first != onPool)
    }

    @Test("pipelines blocked on their threads leave the pool free for the work they wait for")
    func blockingLeavesPoolFree() async {
        // One more blocked pipeline than the pool has threads: run on the pool, they would leave
        // no thread for the tasks that release them, and every wait would time out.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let released = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await PipelineThread.run { () -> Bool in
                        let semaphore = DispatchSemaphore(value: 0)
                        Task.detached { semaphore.signal() }
                        return semaphore.wait(timeout: .now() + 20) == .success
                    }
                }
            }
            var released = 0
            for await ok in group where ok { released += 1 }
            return released
        }
        #expect(released == count)
    }

    @Test("a typed error thrown on the pipeline's thread reaches the caller as it was")
    func typedError() async {
        struct Refused: Error, Equatable { let reason: String }
        await #expect(throws: Refused(reason: "locked")) {
            try await PipelineThread.run { () async throws(Refused) -> Int in throw Refused(reason: "locked") }
        }
    }

    @Test("each run has its own thread: one pipeline blocked waiting for another does not stop it")
    func ownThreads() async {
        let secondRan = DispatchSemaphore(value: 0)
        async let first = PipelineThread.run { secondRan.wait(timeout: .now() + 20) == .success }
        async let second: Void = PipelineThread.run { secondRan.signal() }
        await second
        #expect(await first)
    }

    /// The audit reads its snapshot on its thread while the local scan runs beside it: a child
    /// task would wait for the audit's thread to be free, and the two would run one after the other.
    @Test("start runs its work at once, while the caller blocks its own thread")
    func startRunsBesideABlockedCaller() async throws {
        let started = try await PipelineThread.run { () async throws -> Bool in
            let began = DispatchSemaphore(value: 0)
            let beside = PipelineThread.start(name: "test.beside") { began.signal() }
            let ranMeanwhile = began.wait(timeout: .now() + 20) == .success
            try await beside.value
            return ranMeanwhile
        }
        #expect(started)
    }

    static func threadID() -> UInt { UInt(pthread_self()) }
}
