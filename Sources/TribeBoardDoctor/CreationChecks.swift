import Foundation
import GRDB
import Logging
import TribeBoardDomain
import TribeBoardStore

/// Section 5: creations that stopped half-way, families that do not reach CloudKit, families
/// without a parent admin. Big lists are a count and a small sample, oldest first.
struct CreationChecks {
    /// A family that failed this many upload attempts in a row has a problem, not bad luck.
    static let repeatedFailures = 3

    let store: TribeBoardStore
    let staleAfter: TimeInterval
    let sampleSize: Int
    let now: Date
    let logger: Logger

    func run() -> [DoctorCheck] {
        let tables: Set<String>
        do {
            tables = Set(try store.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") })
        } catch {
            return [DoctorCheck(.creationsRead, .creations, .failure, checked: "Reading the families", found: "\(error)",
                                action: "see the store checks")]
        }
        guard tables.isSuperset(of: ["families", "memberships", "creation_log"]) else {
            return [DoctorCheck(.creationsRead, .creations, .warning, checked: "Family creations",
                                found: "not checked: the store has no families table yet (migrations pending)")]
        }
        let hasSyncState = tables.contains("sync_state")
        return [
            guarded(.creationsIncomplete) { try incompleteCheck($0) },
            guarded(.creationsSyncFailures) { try syncFailuresCheck($0, hasSyncState: hasSyncState) },
            guarded(.creationsPendingSync) { try pendingCheck($0, hasSyncState: hasSyncState, hasRepairs: tables.contains("code_repairs")) },
            guarded(.creationsParentAdmin) { try parentAdminCheck($0) },
        ]
    }

    /// A query that fails is a finding, never a crash.
    private func guarded(_ id: DoctorCheckID, _ body: (Database) throws -> DoctorCheck) -> DoctorCheck {
        do {
            return try store.writer.read { db in try body(db) }
        } catch {
            return DoctorCheck(id, .creations, .failure, checked: id.rawValue, found: "cannot be read: \(error)", action: "see the store checks")
        }
    }

    private func incompleteCheck(_ db: Database) throws -> DoctorCheck {
        let incomplete = """
            SELECT l.family_id AS id, f.name AS name, f.code AS code, MAX(l.at) AS last_at,
                   (SELECT state FROM creation_log x WHERE x.family_id = l.family_id ORDER BY x.id DESC LIMIT 1) AS last_state,
                   (SELECT error FROM creation_log x WHERE x.family_id = l.family_id AND x.error IS NOT NULL ORDER BY x.id DESC LIMIT 1) AS last_error
            FROM creation_log l LEFT JOIN families f ON f.id = l.family_id
            WHERE l.family_id IS NOT NULL
            GROUP BY l.family_id HAVING SUM(l.state = 'completed') = 0
            """
        let (count, rows) = try countAndSample(db, incomplete, order: "last_at")
        var check = DoctorCheck(.creationsIncomplete, .creations, count == 0 ? .ok : .failure,
                                checked: "Creations that reached completed (creation_log)",
                                found: count == 0 ? "every logged creation completed" : "\(Self.families(count)) stopped before completed",
                                action: count == 0 ? nil : "look at each with `tribeboard doctor family ID`; a family without its admin membership can be finished or removed in the app")
        check.count = count
        check.sample = rows.map { row in
            let stop = "stopped at \(row.text("last_state") ?? "?") (\(row.text("last_at") ?? "?"))"
            let reason = (row.text("last_error")).map { ": \($0)" } ?? ""
            let missing = row.text("name") == nil ? "; no family row was saved" : ""
            return item(row, detail: stop + reason + missing)
        }
        return check
    }

    private func syncFailuresCheck(_ db: Database, hasSyncState: Bool) throws -> DoctorCheck {
        let checked = "Families failing to upload (sync_state, \(Self.repeatedFailures)+ attempts, quarantined or in conflict)"
        guard hasSyncState else {
            return DoctorCheck(.creationsSyncFailures, .creations, .ok, checked: checked, found: "no upload has failed yet (no sync_state table)")
        }
        let failing = """
            SELECT s.record_id AS id, f.name AS name, f.code AS code, s.status AS status, s.attempts AS attempts,
                   s.last_error AS last_error, s.last_attempt_at AS last_at, s.conflict_with AS conflict_with
            FROM sync_state s LEFT JOIN families f ON f.id = s.record_id
            WHERE s.record_table = 'families' AND (s.status != 'retrying' OR s.attempts >= \(Self.repeatedFailures))
            """
        let (count, rows) = try countAndSample(db, failing, order: "last_at")
        let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_state WHERE record_table != 'families' AND status != 'retrying'") ?? 0
        let othersNote = others == 0 ? "" : "; \(others) profiles or memberships are set aside too"
        var check = DoctorCheck(.creationsSyncFailures, .creations, count == 0 ? .ok : .failure, checked: checked,
                                found: (count == 0 ? "none" : "\(Self.families(count)) failing to upload") + othersNote,
                                action: count == 0 && others == 0 ? nil : "`tribeboard resync --list` shows each error; a code conflict needs a new code (`tribeboard audit --repair`); for the others fix the cause, then `tribeboard resync --release ID`")
        if count == 0 && others > 0 { check.status = .warning }
        check.count = count
        check.sample = rows.map { row in
            var detail = "\(row.text("status") ?? "?") after \(row.integer("attempts") ?? 0) attempts, last \(row.text("last_at") ?? "?")"
            if let other = row.text("conflict_with") { detail += ", code held by \(other)" }
            if let error = row.text("last_error") { detail += ": \(error)" }
            return item(row, detail: detail)
        }
        return check
    }

    private func pendingCheck(_ db: Database, hasSyncState: Bool, hasRepairs: Bool) throws -> DoctorCheck {
        let cutoff = StoreTimestamp.format(now.addingTimeInterval(-staleAfter))
        // Families already reported as failing are not counted again here.
        let notFailing = hasSyncState ? """
            AND NOT EXISTS (SELECT 1 FROM sync_state s WHERE s.record_table = 'families' AND s.record_id = f.id
                            AND (s.status != 'retrying' OR s.attempts >= \(Self.repeatedFailures)))
            """ : ""
        let since = FamilyConditions.pendingSince("f", hasRepairTable: hasRepairs)
        let pending = "SELECT f.id AS id, f.name AS name, f.code AS code, \(since) AS since FROM families f WHERE f.needs_sync = 1 \(notFailing)"
        let (stale, rows) = try countAndSample(db, pending + " AND \(since) < '\(cutoff)'", order: "since")
        let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(pending))") ?? 0
        let threshold = Self.describe(staleAfter)
        let checked = "Families waiting for sync (longer than \(threshold) is stale)"
        var check: DoctorCheck
        if stale > 0 {
            check = DoctorCheck(.creationsPendingSync, .creations, .failure, checked: checked,
                                found: "\(stale) of \(Self.families(total)) waiting for sync waited longer than \(threshold)",
                                action: "run `tribeboard resync` (schedule it: Templates/tribeboard-resync.crontab); if it runs, see its exit status and `resync --list`")
        } else if total > 0 {
            check = DoctorCheck(.creationsPendingSync, .creations, .warning, checked: checked,
                                found: "\(Self.families(total)) waiting for sync, none longer than \(threshold)",
                                action: "nothing yet: the next `tribeboard resync` uploads them")
        } else {
            check = DoctorCheck(.creationsPendingSync, .creations, .ok, checked: checked, found: "none waiting")
        }
        check.count = stale
        check.sample = rows.map { item($0, detail: "waiting since \($0.text("since") ?? "?")") }
        return check
    }

    private func parentAdminCheck(_ db: Database) throws -> DoctorCheck {
        let orphans = """
            SELECT f.id AS id, f.name AS name, f.code AS code, f.created_at AS created_at FROM families f
            WHERE \(FamilyConditions.withoutParentAdmin("f"))
            """
        let (count, rows) = try countAndSample(db, orphans, order: "created_at")
        var check = DoctorCheck(.creationsParentAdmin, .creations, count == 0 ? .ok : .warning,
                                checked: "Families with a parent_admin membership (active or invited)",
                                found: count == 0 ? "every family has one" : "\(Self.families(count)) without a parent admin",
                                action: count == 0 ? nil : "invite an admin in the app, or provision the family again with admin_display_name")
        check.count = count
        check.sample = rows.map { item($0, detail: "created \($0.text("created_at") ?? "?"), no active or invited parent_admin") }
        return check
    }

    private func countAndSample(_ db: Database, _ sql: String, order: String) throws -> (Int, [Row]) {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))") ?? 0
        guard count > 0 else { return (0, []) }
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM (\(sql)) ORDER BY \(order) LIMIT \(max(sampleSize, 0))")
        return (count, rows)
    }

    /// Codes belong on stdout only: the log line masks them.
    private func item(_ row: Row, detail: String) -> DoctorFamilyItem {
        let item = DoctorFamilyItem(familyID: row.text("id") ?? "?", name: row.text("name"), code: row.text("code"), detail: detail)
        // Not the detail: an upload error may quote a code.
        logger.debug("family needs attention", metadata: ["family": "\(item.familyID)", "code": "\(FamilyCode.mask(item.code ?? ""))"])
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
