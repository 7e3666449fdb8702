import Foundation

/// A migration stopped by Ctrl-C: where it was, what that means for what was written, and how to
/// go on. Before the copying phase nothing is written anywhere; from it on, the store's checkpoint
/// keeps what was copied (the same guarantee as a kill at any point), so a rerun resumes.
package struct MigrationInterruption: Error, LocalizedError, Sendable {
    /// The last progress seen; nil when the run had not started reading.
    package let progress: MigrationProgress?
    package let applying: Bool

    package init(progress: MigrationProgress?, applying: Bool) {
        self.progress = progress
        self.applying = applying
    }

    /// Nothing was sent to CloudKit or written to the store (no checkpoint row, no copy).
    package var nothingWritten: Bool {
        guard let phase = progress?.phase else { return true }
        return !applying || phase == .reading || phase == .planning
    }

    package var errorDescription: String? {
        guard let progress else {
            return "interrupted (Ctrl-C) before reading the source: nothing was written; run the same command again"
        }
        let unit = progress.phase == .reading ? "record types read" : "records"
        let place = "while \(Self.doing(progress.phase)) (phase \(progress.label), \(progress.processed) of \(progress.total) \(unit))"
        if nothingWritten {
            return "interrupted (Ctrl-C) \(place): nothing was written to CloudKit or the store; run the same command again to start over"
        }
        return "interrupted (Ctrl-C) \(place): the store's checkpoint keeps what was copied; run the same command again to resume from it"
    }

    private static func doing(_ phase: MigrationProgress.Phase) -> String {
        switch phase {
        case .reading: return "reading the source"
        case .planning: return "planning"
        case .copying: return "copying"
        case .verifying: return "verifying the copies"
        case .deleting: return "deleting the legacy records"
        }
    }
}

/// Ctrl-C during `migrate claims`: each claim stands or does not (a create is one record), and a
/// rerun changes nothing in place, so the run can end at any moment.
package struct ClaimBackfillInterruption: Error, LocalizedError, Sendable {
    package let applying: Bool

    package init(applying: Bool) { self.applying = applying }

    package var errorDescription: String? {
        applying
            ? "interrupted (Ctrl-C) during the code-claims backfill: the claims created so far stay, each naming "
                + "the oldest family with its code; run the same command again to finish (it changes nothing "
                + "that is in place)"
            : "interrupted (Ctrl-C) during the code-claims plan: nothing was written; run the same command again"
    }
}
