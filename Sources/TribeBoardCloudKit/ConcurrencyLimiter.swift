import Foundation

/// At most `limit` requests in flight, in arrival order.
actor ConcurrencyLimiter {
    private let limit: Int
    private var running = 0
    /// Requests waiting for a slot; resumed with true when given one, false when withdrawn.
    private var waiting: [(id: UInt64, admit: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiter: UInt64 = 0

    init(limit: Int) { self.limit = max(limit, 1) }

    /// Until when CloudKit's last `retryAfter` asked every request to wait.
    private var pausedUntil: ContinuousClock.Instant?

    func run<Result: Sendable>(_ body: @Sendable () async throws(CloudKitError) -> Result)
        async throws(CloudKitError) -> Result
    {
        if running >= limit {
            nextWaiter += 1
            let id = nextWaiter
            // A task cancelled while it waits for a slot leaves the queue at once: it must not sit
            // behind requests that may take a minute each, nor take a slot it no longer needs.
            let admitted = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if Task.isCancelled {
                        continuation.resume(returning: false)
                    } else {
                        waiting.append((id, continuation))
                    }
                }
            } onCancel: {
                Task { await self.withdraw(id) }
            }
            guard admitted else { throw .cancelled }
        } else {
            running += 1
        }
        defer { release() }
        // A cancelled wait goes on at once: the request itself then ends as cancelled.
        while let until = pausedUntil, until > ContinuousClock.now {
            do { try await Task.sleep(until: until) } catch { break }
        }
        return try await body()
    }

    /// Holds every request that starts before `until`.
    func pause(until: ContinuousClock.Instant) {
        if let paused = pausedUntil, paused >= until { return }
        pausedUntil = until
    }

    /// How many requests wait for a slot (tests).
    var waitingCount: Int { waiting.count }

    private func withdraw(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }  // admitted meanwhile
        waiting.remove(at: index).admit.resume(returning: false)
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().admit.resume(returning: true)
        }
    }
}
