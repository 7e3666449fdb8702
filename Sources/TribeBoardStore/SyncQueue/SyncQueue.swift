import Foundation
import GRDB
import TribeBoardDomain

/// The store's side of an upload run: which rows are due, and marking what CloudKit took. Every
/// mark is a compare-and-set against the values read (`PendingRow`), one statement per page.
package struct SyncQueue: Sendable {
    let store: TribeBoardStore

    package init(store: TribeBoardStore) {
        self.store = store
    }

    /// A membership waits while its family has never gone up (pending, no CloudKit record id) and
    /// its last attempt failed (throttled, waiting, set aside): CloudKit would refuse its reference,
    /// and the refusal would count against the membership's own attempts. A family that went up
    /// once and waits with a change (a repaired code) has its record there: its memberships go.
    static func waitsForFamily(_ statuses: [SyncStatus] = SyncStatus.allCases) -> String {
        """
        EXISTS (SELECT 1 FROM families f JOIN sync_state s ON s.record_table = 'families' AND s.record_id = f.id
                WHERE f.id = t.family_id AND f.needs_sync = 1 AND f.ck_record_id IS NULL
                  AND s.status IN (\(statuses.map { "'\($0.rawValue)'" }.joined(separator: ", "))))
        """
    }

    /// The same for its user profile: a membership sent while its profile's upload was throttled
    /// would be refused (VALIDATING_REFERENCE_ERROR) and wait a minute of backoff for nothing.
    static func waitsForUser(_ statuses: [SyncStatus] = SyncStatus.allCases) -> String {
        """
        EXISTS (SELECT 1 FROM user_profiles u JOIN sync_state s ON s.record_table = 'user_profiles' AND s.record_id = u.id
                WHERE u.id = t.user_id AND u.needs_sync = 1 AND u.ck_record_id IS NULL
                  AND s.status IN (\(statuses.map { "'\($0.rawValue)'" }.joined(separator: ", "))))
        """
    }

    /// ... and is held back for good while that family is set aside (a person must act).
    static let blockedByFamily = waitsForFamily([.quarantined, .conflict])

    /// The next records of `table` that are due: pending, not set aside, past their next attempt.
    /// A row whose id is not text stops the run (`StoreError.unreadableValue`); a row whose other
    /// columns do not decode comes back with the reason, to be set aside.
    package func duePage(_ table: SyncTable, after: String, now: Timestamp, limit: Int) throws -> [DueRecord] {
        let rows = try store.writer.read { db in
            // SQLite keeps a NUL inside text, GRDB's text ends at it: such an id is flagged here.
            try Row.fetchAll(db, sql: """
                SELECT t.*, typeof(t.id) = 'text' AND instr(t.id, char(0)) > 0 AS \(PendingRow.idHoldsNUL) FROM \(table.rawValue) t
                LEFT JOIN sync_state s ON s.record_table = ? AND s.record_id = t.id
                WHERE t.needs_sync = 1 AND t.id > ?
                  AND (s.status IS NULL OR (s.status = 'retrying' AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= ?
                       -- a hand-edited time that is no date (a blob, 'never') must not hold a record back for ever
                       OR julianday(s.next_attempt_at) IS NULL)))
                  \(table == .memberships ? "AND NOT " + Self.waitsForFamily() + " AND NOT " + Self.waitsForUser() : "")
                  \(AwaitingPerson.excluded(table))
                  \(Self.heldBack(table))
                ORDER BY t.id LIMIT ?
                """, arguments: [table.rawValue, after, now.text, limit])
        }
        return try rows.map { row throws(StoreError) in
            DueRecord(row: try PendingRow(table, row), record: StoreRecord.decoded(table, row: row))
        }
    }

    /// Never uploaded: a creation that did not complete, a family support staff is removing, and
    /// the memberships of both (`FamilyConditions.halfMade`, `beingRemoved`).
    static func heldBack(_ table: SyncTable) -> String {
        switch table {
        case .families: return "AND NOT \(FamilyConditions.halfMade("t")) AND NOT \(FamilyConditions.beingRemoved("t.id"))"
        case .memberships:
            return """
                AND NOT EXISTS (SELECT 1 FROM families f WHERE f.id = t.family_id AND \(FamilyConditions.halfMade("f")))
                AND NOT \(FamilyConditions.beingRemoved("t.family_id"))
                """
        case .userProfiles: return ""
        }
    }

    /// Pending records `heldBack` keeps out of CloudKit, and the creations that did not complete
    /// (how many, the first `limit` ids).
    package func heldBackRecords(limit: Int) throws -> (records: Int, unfinished: Int, unfinishedIDs: [FamilyID]) {
        let records = try store.writer.read { db in
            try [SyncTable.families, .memberships].reduce(0) { total, table in
                let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.rawValue) t WHERE t.needs_sync = 1") ?? 0
                let due = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.rawValue) t WHERE t.needs_sync = 1 \(Self.heldBack(table))") ?? 0
                return total + pending - due
            }
        }
        let unfinished = try store.halfMadeCreations(limit: limit)
        return (records, unfinished.count, unfinished.ids)
    }

    /// Pending memberships held back by a family that is set aside (and not set aside themselves).
    package func blockedMemberships() throws -> Int {
        try store.writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM memberships t
                WHERE t.needs_sync = 1 AND \(Self.blockedByFamily)
                  AND NOT EXISTS (SELECT 1 FROM sync_state s WHERE s.record_table = 'memberships' AND s.record_id = t.id
                                  AND s.status IN ('quarantined', 'conflict'))
                """) ?? 0
        }
    }

    /// Marks uploaded the rows that still hold what was uploaded; returns their ids. A row changed
    /// meanwhile (an audit repair gave it a new code) stays pending: its new values go up next.
    /// Uploaded families reach `completed` in the creation log.
    package func markSynced(_ rows: [PendingRow], at now: Timestamp) throws -> [String] {
        guard let table = rows.first?.table else { return [] }
        return try store.writer.write { db in
            let ids = try String.fetchAll(db, sql: """
                UPDATE \(table.rawValue) SET needs_sync = 0, last_sync_date = ?, ck_record_id = \(table.rawValue).id
                FROM \(PendingRow.values(rows)) AS v WHERE \(PendingRow.unchanged(table, alias: "v"))
                RETURNING \(table.rawValue).id
                """, arguments: StatementArguments([now.text]) + PendingRow.arguments(rows))
            guard !ids.isEmpty else { return ids }
            try db.execute(sql: "DELETE FROM sync_state WHERE record_table = ? AND record_id IN \(SQLPlaceholders.list(ids.count))",
                           arguments: StatementArguments([table.rawValue] + ids))
            if table == .families {
                try CreationLog.append(db, ids.flatMap { id in
                    [CreationLog.Entry(familyID: FamilyID(rawValue: id), state: .syncingToCloudKit),
                     CreationLog.Entry(familyID: FamilyID(rawValue: id), state: .completed)]
                }, at: now)
            }
            return ids
        }
    }

    /// Records the remote check of the codes these rows hold, for the rows that still hold them.
    package func markVerified(_ rows: [PendingRow], at now: Timestamp) throws {
        guard !rows.isEmpty else { return }
        try store.writer.write { db in
            try db.execute(sql: """
                UPDATE families SET code_verified_remotely_at = ?
                FROM \(PendingRow.values(rows)) AS v WHERE \(PendingRow.unchanged(.families, alias: "v"))
                """, arguments: StatementArguments([now.text]) + PendingRow.arguments(rows))
        }
    }
}
