import Foundation
import Logging
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// Section 5: creations that stopped half-way, families that do not reach CloudKit, families
/// without a parent admin. Big lists are a count and a small sample, oldest first.
struct CreationChecks {
    /// A family that failed this many upload attempts in a row has a problem, not bad luck.
    static let repeatedFailures = 3

    let store: any StoreReading
    let staleAfter: TimeInterval
    let sampleSize: Int
    let now: Date
    /// For advice that reaches CloudKit: this run's remote, as flags.
    let remoteFlags: [String]
    let logger: Logger

    func run() -> [DoctorCheck] {
        let tables: Set<String>
        do {
            tables = try store.tableNames()
        } catch {
            return [
                DoctorCheck(
                    .creationsRead, .creations, .failure, checked: "Reading the families",
                    found: error.readableDescription,
                    action: "see the store checks")
            ]
        }
        guard tables.isSuperset(of: ["families", "memberships", "creation_log"]) else {
            return [
                DoctorCheck(
                    .creationsRead, .creations, .warning, checked: "Family creations",
                    found: "not checked: the store has no families table yet (migrations pending)")
            ]
        }
        let hasSyncState = tables.contains("sync_state")
        return [
            guarded(.creationsIncomplete) { try incompleteCheck() },
            guarded(.creationsSyncFailures) { try syncFailuresCheck(hasSyncState: hasSyncState) },
            guarded(.creationsPendingSync) { try pendingCheck() },
            guarded(.creationsParentAdmin) { try parentAdminCheck() },
            guarded(.creationsAwaitingAdmin) { try awaitingAdminCheck() },
        ]
    }

    /// A query that fails is a finding, never a crash.
    private func guarded(_ id: DoctorCheckID, _ body: () throws -> DoctorCheck) -> DoctorCheck {
        do {
            return try body()
        } catch {
            return DoctorCheck(
                id, .creations, .failure, checked: id.rawValue,
                found: "cannot be read: \(error.readableDescription)",
                action: "see the store checks")
        }
    }

    private func incompleteCheck() throws -> DoctorCheck {
        let stalled = try store.stalledCreations(limit: sampleSize)
        let count = stalled.count
        var check = DoctorCheck(
            .creationsIncomplete, .creations, count == 0 ? .ok : .failure,
            checked: "Creations that reached completed (creation_log)",
            found: count == 0
                ? "every logged creation completed"
                : "\(Self.families(count)) stopped before completed",
            action: count == 0
                ? nil
                : "look at each with `\(Advice.doctorFamily(store: store.path, family: "ID", remote: remoteFlags).command)`; "
                    + "one without its admin membership is never uploaded: remove it with "
                    + "`\(Advice.remove(store: store.path, familyID: "ID", remote: remoteFlags).command)` "
                    + "and provision its row again with its admin")
        check.count = count
        check.sample = stalled.sample.map { row in
            let stop = "stopped at \(row.lastState ?? "?") (\(row.lastAt?.text ?? "?"))"
            let reason = row.lastError.map { ": \($0)" } ?? ""
            let missing = row.name == nil ? "; no family row was saved" : ""
            return item(row.familyID, row.name, row.code, detail: stop + reason + missing)
        }
        return check
    }

    private func syncFailuresCheck(hasSyncState: Bool) throws -> DoctorCheck {
        let checked = "Families failing to upload (sync_state, \(Self.repeatedFailures)+ attempts, quarantined or in conflict)"
        guard hasSyncState else {
            return DoctorCheck(
                .creationsSyncFailures, .creations, .ok, checked: checked,
                found: "no upload has failed yet (no sync_state table)")
        }
        let (failing, others) = try store.failingUploads(
            minimumAttempts: Self.repeatedFailures, limit: sampleSize)
        let count = failing.count
        let othersNote = others == 0 ? "" : "; \(others) profiles or memberships are set aside too"
        var check = DoctorCheck(
            .creationsSyncFailures, .creations, count == 0 ? .ok : .failure, checked: checked,
            found: (count == 0 ? "none" : "\(Self.families(count)) failing to upload") + othersNote,
            action: count == 0 && others == 0
                ? nil
                : "`\(Advice.resyncList(store: store.path).command)` shows each error; a code conflict needs a new code "
                    + "(`\(Advice.repairAll(store: store.path, remote: remoteFlags).command)`); one whose own record name "
                    + "CloudKit holds (another version) is closed by adopt "
                    + "(`\(Advice.doctorFamily(store: store.path, family: "ID", remote: remoteFlags).command)` "
                    + "says which); for the others fix the cause, "
                    + "then `\(Advice.resyncRelease(store: store.path, recordID: "ID").command)`")
        if count == 0 && others > 0 { check.status = .warning }
        check.count = count
        check.sample = failing.sample.map { row in
            var detail = "\(row.status ?? "?") after \(row.attempts) attempts, last \(row.lastAt?.text ?? "?")"
            if let other = row.conflictWith {
                detail +=
                    other == row.familyID.rawValue
                    ? ", another version holds its record name"
                    : ", code held by \(OutsideText.inline(other))"
            }
            if let error = row.lastError { detail += ": \(error)" }
            return item(row.familyID, row.name, row.code, detail: detail)
        }
        return check
    }

    private func pendingCheck() throws -> DoctorCheck {
        // Families already reported as failing are not counted again here.
        let cutoff = Timestamp(now.addingTimeInterval(-staleAfter))
        let (pending, total) = try store.pendingFamilies(
            staleBefore: cutoff, failingAfter: Self.repeatedFailures,
            limit: sampleSize)
        let stale = pending.count
        let threshold = Self.describe(staleAfter)
        let checked = "Families waiting for sync (longer than \(threshold) is stale)"
        var check: DoctorCheck
        if stale > 0 {
            check = DoctorCheck(
                .creationsPendingSync, .creations, .failure, checked: checked,
                found:
                    "\(stale) of \(Self.families(total)) waiting for sync waited longer than \(threshold)",
                action:
                    "run `\(Advice.resync(store: store.path, remote: remoteFlags).command)` (schedule it: "
                    + "Templates/tribeboard-resync.crontab); if it runs, see its exit status and "
                    + "`\(Advice.resyncList(store: store.path).command)`")
        } else if total > 0 {
            check = DoctorCheck(
                .creationsPendingSync, .creations, .warning, checked: checked,
                found: "\(Self.families(total)) waiting for sync, none longer than \(threshold)",
                action:
                    "nothing yet: the next `\(Advice.resync(store: store.path, remote: remoteFlags).command)` uploads them"
            )
        } else {
            check = DoctorCheck(
                .creationsPendingSync, .creations, .ok, checked: checked, found: "none waiting")
        }
        check.count = stale
        check.sample = pending.sample.map {
            item($0.familyID, $0.name, $0.code, detail: "waiting since \($0.since?.text ?? "?")")
        }
        return check
    }

    /// The app's admin is an active parent_admin; a family whose admin was invited without a hash
    /// has none in CloudKit until that person joins, which is expected (`awaitingAdminCheck`).
    private func parentAdminCheck() throws -> DoctorCheck {
        let orphans = try store.familiesWithoutParentAdmin(limit: sampleSize)
        let count = orphans.count
        var check = DoctorCheck(
            .creationsParentAdmin, .creations, count == 0 ? .ok : .warning,
            checked: "Families with a parent admin (active, or invited and awaiting)",
            found: count == 0
                ? "every family has one"
                : "\(Self.families(count)) without a parent admin, active or awaiting",
            action: count == 0
                ? nil
                : "invite an admin in the app, or remove the family "
                    + "(`\(Advice.remove(store: store.path, familyID: "ID", remote: remoteFlags).command)`) and provision its row "
                    + "again with admin_display_name (provision never changes a family it already holds)"
        )
        check.count = count
        check.sample = orphans.sample.map {
            item($0.id, $0.name, $0.code, detail: "created \($0.createdAt?.text ?? "?"), \(AdminState.none.summary)")
        }
        return check
    }

    /// Not a fault: the count operators see for families the app shows without an admin yet.
    private func awaitingAdminCheck() throws -> DoctorCheck {
        let awaiting = try store.familiesAwaitingInvitedAdmin(limit: sampleSize)
        let count = awaiting.count
        var check = DoctorCheck(
            .creationsAwaitingAdmin, .creations, .ok,
            checked:
                "Families awaiting their invited admin (invited without an Apple account hash)",
            found: count == 0
                ? "none"
                : "\(Self.families(count)) \(count == 1 ? "awaits its" : "await their") invited admin: "
                    + "no admin in the app until that person joins with the code (the join kit's "
                    + "activateInvitedAdmin); their profile and membership stay in this store until then"
        )
        check.count = count
        check.sample = awaiting.sample.map {
            item($0.id, $0.name, $0.code, detail: "created \($0.createdAt?.text ?? "?"), \(AdminState.awaitingInvitedAdmin.summary)")
        }
        return check
    }

    /// Codes belong on stdout only: the log line masks them.
    private func item(_ familyID: FamilyID, _ name: String?, _ code: String?, detail: String)
        -> DoctorFamilyItem
    {
        let item = DoctorFamilyItem(
            familyID: familyID.rawValue, name: name, code: code, detail: detail)
        // Not the detail: an upload error may quote a code.
        logger.debug(
            "family needs attention",
            metadata: ["family": "\(item.familyID)", "code": "\(FamilyCode.mask(item.code ?? ""))"])
        return item
    }

    /// In the flag's own units: `24h`, `2d`, `90m`, `45s`.
    static func describe(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        if seconds >= 2 * 86_400, seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds >= 3_600, seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds >= 60, seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// `1 family`, `3 families`.
    static func families(_ count: Int) -> String {
        count == 1 ? "1 family" : "\(count) families"
    }
}
