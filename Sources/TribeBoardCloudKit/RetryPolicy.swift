import Foundation

/// How transient failures are retried: exponential backoff with full jitter, `retryAfter`
/// honoured, bounded by a number of attempts and a total time.
package struct RetryPolicy: Sendable, Equatable {
    package var maxAttempts: Int
    package var baseDelay: Double
    package var maxDelay: Double
    /// No new attempt starts once this much time has passed since the first.
    package var maxTotalSeconds: Double

    package init(
        maxAttempts: Int = 5, baseDelay: Double = 0.5, maxDelay: Double = 30,
        maxTotalSeconds: Double = 120
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxTotalSeconds = maxTotalSeconds
    }

    /// The wait before attempt `attempt + 1` (attempt counts from 1). A server's `retryAfter` is
    /// honoured: a wait longer than the policy allows (even 1e300) makes the caller give up at
    /// once rather than ask again too early; one that is no number of seconds (negative, NaN,
    /// infinite) is ignored and the backoff applies. Only a caller's comparison sees the value:
    /// nothing converts it to an integer.
    package func delay(
        afterAttempt attempt: Int, retryAfter: Double?, random: Double = Double.random(in: 0...1)
    ) -> Double {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(min(max(attempt, 1), 60) - 1)))
        let jittered = ceiling * random
        guard let retryAfter, retryAfter.isFinite, retryAfter >= 0 else { return jittered }
        return max(retryAfter, jittered)
    }

    /// Whether a failed request is worth another attempt: the network's trouble and the
    /// service's "later" (THROTTLED, TRY_AGAIN_LATER, an undocumented 5xx), but INTERNAL_ERROR only
    /// when it says when (`retryAfter`): Apple calls it "a nonrecoverable error", and without
    /// `retryAfter` "the operation can't be retried". It still ends the run as the service's
    /// trouble (try the run later), not as a mistake in the setup.
    package static func retries(_ error: CloudKitError) -> Bool {
        guard error.isTransient else { return false }
        if case .service(let code, _, _, let retryAfter) = error, code == .internalError {
            return retryAfter != nil
        }
        return true
    }

    /// A wait in seconds from outside, if it is one a run can honour.
    package static func usable(_ seconds: Double?, upTo limit: Double) -> Double? {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= limit else { return nil }
        return seconds
    }
}
