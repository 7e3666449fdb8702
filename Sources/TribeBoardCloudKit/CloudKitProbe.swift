import Foundation

/// One users/caller request, not retried, with what doctor needs around it: the answer, how
/// long it took, and the server's clock.
package struct CloudKitProbe: Sendable {
    package let result: Result<CloudKitCaller, CloudKitError>
    /// The response's Date header; nil without an answer (or a header).
    package let serverDate: Date?
    /// The local clock halfway through the request, to compare with `serverDate`.
    let localMidpoint: Date
    package let seconds: Double

    /// Server minus local, in seconds. The Date header drops the fraction of its second: half a
    /// second is added back, which leaves at most ±0.5 s (plus the request's own time) of noise.
    package var clockSkew: Double? {
        serverDate.map { $0.addingTimeInterval(0.5).timeIntervalSince(localMidpoint) }
    }
}

extension CloudKitClient {
    /// users/caller once: proof that the remote answers and accepts the key.
    package func probeCaller() async -> CloudKitProbe {
        let started = Date()
        var serverDate: Date?
        let result: Result<CloudKitCaller, CloudKitError>
        do {
            let caller: CloudKitCaller = try await attempt(
                "users/caller", method: "GET", body: [],
                dateHeader: { serverDate = HTTPDate.parse($0) })
            result = .success(caller)
        } catch {
            result = .failure(error)
        }
        let ended = Date()
        return CloudKitProbe(
            result: result, serverDate: serverDate,
            localMidpoint: started.addingTimeInterval(ended.timeIntervalSince(started) / 2),
            seconds: ended.timeIntervalSince(started))
    }
}
