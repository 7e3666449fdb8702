import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// A request waiting out a Retry-After stops when its task is cancelled (a command interrupted,
/// a --max-duration reached), rather than sleeping on and sending again.
@Suite struct CloudKitCancellationTests {
    @Test func aCancelledWaitSendsNoFurtherRequest() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("429=1,retry-after=30")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client(policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, maxDelay: 0.01, maxTotalSeconds: 600))
        let call = Task { () -> CloudKitError? in
            do throws(CloudKitError) {
                _ = try await client.caller()
                return nil
            } catch {
                return error
            }
        }
        // The first answer is a 429 asking for 30 s: once it is in, the client is waiting.
        for _ in 0..<2_000 where await fixture.emulator.requestCounts()["users/caller"] ?? 0 < 1 {
            try await Task.sleep(for: .milliseconds(5))
        }
        call.cancel()
        let error = await call.value
        guard case .gaveUp(let attempts, _)? = error else {
            Issue.record("expected gaveUp, got \(String(describing: error))")
            return
        }
        #expect(attempts == 1)
        #expect(await fixture.emulator.requestCounts()["users/caller"] == 1, "no request after the cancellation")
    }

    /// Cancelled while the server takes 30 s to answer: the call ends at once, not when the
    /// answer or the request deadline comes. Without the client's cancellation handler it waited.
    @Test func aCancelledRequestEndsMidExchange() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("latency=30000ms")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        let call = Task { () -> CloudKitError? in
            do throws(CloudKitError) {
                _ = try await client.caller()
                return nil
            } catch {
                return error
            }
        }
        for _ in 0..<2_000 where await fixture.emulator.requestCounts()["users/caller"] ?? 0 < 1 {
            try await Task.sleep(for: .milliseconds(5))
        }
        let cancelled = ContinuousClock.now
        call.cancel()
        let error = await call.value
        let took = ContinuousClock.now - cancelled
        // Well under the server's 30 s: the exchange ended, it was not waited out (a loaded
        // machine took 8 s to deliver the cancellation, hence not a tighter bound).
        #expect(took < .seconds(20), "the call went on for \(took) after its cancellation")
        guard case .gaveUp(let attempts, let last)? = error else {
            Issue.record("expected gaveUp, got \(String(describing: error))")
            return
        }
        #expect(attempts == 1 && last == .cancelled)
        #expect(await fixture.emulator.requestCounts()["users/caller"] == 1, "no second attempt")
    }

    /// A task cancelled while it waits for a slot leaves the queue at once, and its place is not
    /// taken: the next request still gets the slot when the running one ends.
    @Test func aCancelledWaiterLeavesTheLimitersQueue() async throws {
        let limiter = ConcurrencyLimiter(limit: 1)
        let running = Task {
            try await limiter.run { () async throws(CloudKitError) -> Int in
                do { try await Task.sleep(for: .seconds(30)) } catch { throw .cancelled }
                return 1
            }
        }
        // The running request holds the slot once the waiter below has to queue.
        try await Task.sleep(for: .milliseconds(50))
        let waiter = Task { () -> CloudKitError? in
            do throws(CloudKitError) {
                _ = try await limiter.run { () async throws(CloudKitError) -> Int in 2 }
                return nil
            } catch {
                return error
            }
        }
        for _ in 0..<2_000 where await limiter.waitingCount < 1 {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await limiter.waitingCount == 1)
        let cancelled = ContinuousClock.now
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        #expect(ContinuousClock.now - cancelled < .seconds(20), "left before the running request's 30 s")
        #expect(await limiter.waitingCount == 0)
        running.cancel()
        _ = try? await running.value
        // The slot is free again: a new request runs at once.
        #expect(try await limiter.run { () async throws(CloudKitError) -> Int in 3 } == 3)
    }
}
