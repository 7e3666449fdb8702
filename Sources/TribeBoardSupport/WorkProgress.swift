/// How far a long run is, for a progress bar or a log line every few seconds: items handled of
/// the total, how many failed, and for how long it has run. Every command's progress is said in
/// these terms (provision's rows, resync's records, migrate's phases, remove's families), so the
/// one display needs no feature module.
package struct WorkProgress: Sendable, Equatable {
    package let processed: Int
    package let total: Int
    package let failed: Int
    package let elapsed: Duration
    /// The phase of a run whose phases count different things (migrate's "copying 3/4").
    package let phase: String?

    package init(
        processed: Int, total: Int, failed: Int = 0, elapsed: Duration, phase: String? = nil
    ) {
        (self.processed, self.total, self.failed, self.elapsed, self.phase) = (
            processed, total, failed, elapsed, phase
        )
    }

    /// Progress of a run that started at `started`, as of now.
    package init(
        processed: Int, total: Int, failed: Int = 0, since started: ContinuousClock.Instant,
        phase: String? = nil
    ) {
        self.init(
            processed: processed, total: total, failed: failed,
            elapsed: ContinuousClock.now - started, phase: phase)
    }
}
