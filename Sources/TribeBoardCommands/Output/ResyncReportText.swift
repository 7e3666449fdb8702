import TribeBoardSupport
import Foundation
import TribeBoardResync
import TribeBoardDomain

enum ResyncReportText {
    /// `stopShownApart`: the error block on stderr already says what stopped the run. `store` and
    /// `remote` (the run's `adviceFlags`): what the advice names, so that it runs as printed.
    static func render(
        _ report: ResyncReport, store: String, remote: [String], stopShownApart: Bool = false
    ) -> String {
        let list = "`\(Advice.resyncList(store: store).command)`"
        let seconds = String(format: "%.1f", report.durationSeconds)
        var lines = ["Resync: \(report.synced) records uploaded in \(report.requests) requests (\(seconds) s); "
            + "\(report.failed) failed"]
        if report.codesClaimed + report.claimsReleased > 0 {
            let released =
                report.claimsReleased > 0
                ? "; claims given up and released: \(report.claimsReleased)" : ""
            lines.append("Codes claimed in CloudKit: \(report.codesClaimed)" + released)
        }
        lines.append("Still pending: \(report.pending.total) (\(report.pending.families) families, "
            + "\(report.pending.userProfiles) profiles, \(report.pending.memberships) memberships)")
        if report.waiting > 0 { lines.append("Waiting to retry: \(report.waiting)") }
        if report.quarantined > 0 {
            lines.append("Quarantined after a permanent error: \(report.quarantined) (\(list))")
        }
        let codeConflicts = report.conflicts - report.nameConflicts
        if codeConflicts > 0 {
            lines.append(
                "In conflict (code taken in CloudKit, not uploaded): \(codeConflicts) (\(list); "
                    + "give each a new code with `\(Advice.recode(familyID: "ID", store: store, remote: remote).command)`, "
                    + "then `\(Advice.resync(store: store, remote: remote).command)`)")
        }
        // A new code changes nothing here: the record name is what CloudKit holds.
        if report.nameConflicts > 0 {
            lines.append("Another version under the family's own record name in CloudKit, not uploaded: \(report.nameConflicts) "
                         + "(\(list) names who wrote each; `\(Advice.adopt(store: store, familyID: "ID", remote: remote, apply: false).command)` "
                         + "shows both versions, and with --apply takes CloudKit's into the store)")
        }
        if report.blocked > 0 {
            lines.append("Memberships waiting for a family that is set aside: \(report.blocked)")
        }
        if report.unfinishedCreations > 0 {
            lines.append(
                "Creations that did not complete, not uploaded: \(report.unfinishedCreations) (finish each with its admin, or "
                    + "`\(Advice.remove(store: store, familyID: "ID", remote: remote).command)`; "
                    + "`\(Advice.doctorFamily(store: store, family: "ID", remote: remote).command)` shows where it stopped)"
            )
            for id in report.unfinishedCreationIds { lines.append("  unfinished  families  \(id)") }
        }
        if report.heldBack > 0 { lines.append("Records kept out of CloudKit (unfinished creations, families being removed): \(report.heldBack)") }
        if report.awaitingInvitedAdmin > 0 {
            lines.append("Families awaiting their invited admin: \(report.awaitingInvitedAdmin) (each family goes up without "
                         + "them: the app shows no admin until that person joins with the code; their profile and membership stay "
                         + "in the store until then; expected)")
        }
        for entry in report.setAside { lines.append("  \(entry.status)  \(entry.table)  \(entry.id): \(entry.lastError ?? "no error recorded")") }
        if let reason = report.stoppedBy, !stopShownApart { lines.append("Stopped: \(reason)") }
        if let problem = report.metricsFileError {
            lines.append("Metrics file not written: \(problem)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ listing: ResyncListing) -> String {
        var lines = ["Pending: \(listing.pending.total) (\(listing.pending.families) families, "
            + "\(listing.pending.userProfiles) profiles, \(listing.pending.memberships) memberships)"]
        for entry in listing.entries {
            var line = "\(entry.status)  \(entry.table)  \(OutsideText.inline(entry.id))  attempts \(entry.attempts)"
            if let next = entry.nextAttemptAt { line += "  next \(next)" }
            if let other = entry.conflictWith {
                line += "  conflicts with \(OutsideText.inline(other))"
            }
            if let error = entry.lastError {
                line += "\n    \(OutsideText.inline(error, limit: 4000))"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
