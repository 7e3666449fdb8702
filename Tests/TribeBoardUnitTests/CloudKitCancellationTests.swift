import Foundation
import Testing
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
}
