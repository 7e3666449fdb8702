import Foundation
import GRDB
import TribeBoardStore
import TribeBoardDomain

/// How a failed record waits before its next attempt, across runs.
package struct SyncBackoff: Sendable {
    package var base: Double = 60
    var maximum: Double = 6 * 3600
    /// Attempts of a record whose target may still come (a missing reference) before quarantine.
    package var maxAttempts = 8

    package init() {}

    package func delay(afterAttempts attempts: Int) -> Double {
        min(maximum, base * pow(2, Double(max(attempts - 1, 0))))
    }

    /// The server's `retryAfter` when it gave a usable one (Apple: wait that long, then retry),
    /// kept within (0, maximum]; otherwise the backoff.
    package func delay(afterAttempts attempts: Int, retryAfter: Double?) -> Double {
        guard let retryAfter, retryAfter.isFinite, retryAfter >= 0 else { return delay(afterAttempts: attempts) }
        return min(maximum, max(retryAfter, 0.001))
    }
}

/// Reads and writes `sync_state` and the records' sync flags.
struct SyncBookkeeping {
    let store: TribeBoardStore

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
    func duePage(_ table: SyncTable, after: String, now: String, limit: Int) throws -> [Row] {
        try store.writer.read { db in
            // SQLite keeps a NUL inside text, GRDB's text ends at it: such an id is flagged here.
            try Row.fetchAll(db, sql: """
                SELECT t.*, typeof(t.id) = 'text' AND instr(t.id, char(0)) > 0 AS \(ReadRow.idHoldsNUL) FROM \(table.rawValue) t
                LEFT JOIN sync_state s ON s.record_table = ? AND s.record_id = t.id
                WHERE t.needs_sync = 1 AND t.id > ?
                  AND (s.status IS NULL OR (s.status = 'retrying' AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= ?
                       -- a hand-edited time that is no date (a blob, 'never') must not hold a record back for ever
                       OR julianday(s.next_attempt_at) IS NULL)))
                  \(table == .memberships ? "AND NOT " + Self.waitsForFamily() + " AND NOT " + Self.waitsForUser() : "")
                ORDER BY t.id LIMIT ?
                """, arguments: [table.rawValue, after, now, limit])
        }
    }

    /// Pending memberships held back by a family that is set aside (and not set aside themselves).
    func blockedMemberships() throws -> Int {
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
    /// One set-based statement each per page (200 records), not four per record.
    func markSynced(_ rows: [ReadRow], at now: String) throws -> [String] {
        guard let table = rows.first?.table else { return [] }
        return try store.writer.write { db in
            let ids = try String.fetchAll(db, sql: """
                UPDATE \(table.rawValue) SET needs_sync = 0, last_sync_date = ?, ck_record_id = \(table.rawValue).id
                FROM \(ReadRow.values(rows)) AS v WHERE \(ReadRow.unchanged(table, alias: "v"))
                RETURNING \(table.rawValue).id
                """, arguments: StatementArguments([now]) + ReadRow.arguments(rows))
            guard !ids.isEmpty else { return ids }
            let list = Self.placeholders(ids.count)
            try db.execute(sql: "DELETE FROM sync_state WHERE record_table = ? AND record_id IN \(list)",
                           arguments: StatementArguments([table.rawValue] + ids))
            if table == .families {
                try CreationLog.append(db, ids.flatMap { id in
                    [CreationLog.Entry(familyID: id, state: .syncingToCloudKit), CreationLog.Entry(familyID: id, state: .completed)]
                }, at: now)
            }
            return ids
        }
    }

    /// Records the remote check of the codes these rows hold, for the rows that still hold them.
    func markVerified(_ rows: [ReadRow], at now: String) throws {
        guard !rows.isEmpty else { return }
        try store.writer.write { db in
            try db.execute(sql: """
                UPDATE families SET code_verified_remotely_at = ?
                FROM \(ReadRow.values(rows)) AS v WHERE \(ReadRow.unchanged(.families, alias: "v"))
                """, arguments: StatementArguments([now]) + ReadRow.arguments(rows))
        }
    }

    static func placeholders(_ count: Int) -> String {
        SQLPlaceholders.list(count)
    }

    enum Outcome {
        /// `retryAfter`: what CloudKit asked this record to wait (THROTTLED), honoured over the backoff.
        /// `limited`: the attempts count toward quarantine. CloudKit's own load (THROTTLED,
        /// TRY_AGAIN_LATER) is not the record's fault: such a record waits, however long it lasts.
        case retry(error: String, backoff: SyncBackoff, retryAfter: Double? = nil, limited: Bool = true)
        case quarantine(error: String)
        case conflict(with: String, error: String)
    }

    /// Records a failed attempt of `row`, unless the row changed since it was read: what failed
    /// was the old content, and the new one deserves a fresh attempt (a repaired code that was set
    /// aside as a conflict for its old code would wait for a person forever).
    func record(_ outcome: Outcome, row: ReadRow, at now: Date) throws {
        let (table, id) = (row.table, row.id)
        let timestamp = StoreTimestamp.format(now)
        try store.writer.write { db in
            guard try row.isUnchanged(db) else { return }
            // A hand-edited count (huge, negative, text) must not overflow: it saturates.
            let previous = try Row.fetchOne(db, sql: "SELECT attempts FROM sync_state WHERE record_table = ? AND record_id = ?",
                                            arguments: [table.rawValue, id])?.integer("attempts") ?? 0
            let attempts = max(previous, 0) == Int.max ? Int.max : max(previous, 0) + 1
            var status = SyncStatus.retrying
            var error = ""
            var next: String?
            var conflictWith: String?
            switch outcome {
            case .retry(let message, let backoff, let retryAfter, let limited):
                error = message
                if limited && attempts >= backoff.maxAttempts {
                    status = .quarantined
                    error = message + " (after \(attempts) attempts)"
                } else {
                    next = StoreTimestamp.format(now.addingTimeInterval(backoff.delay(afterAttempts: attempts, retryAfter: retryAfter)))
                }
            case .quarantine(let message):
                status = .quarantined
                error = message
            case .conflict(let other, let message):
                status = .conflict
                error = message
                conflictWith = other
            }
            try db.execute(sql: """
                INSERT INTO sync_state (record_table, record_id, status, attempts, last_error, last_attempt_at, next_attempt_at, conflict_with)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (record_table, record_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts,
                    last_error = excluded.last_error, last_attempt_at = excluded.last_attempt_at,
                    next_attempt_at = excluded.next_attempt_at, conflict_with = excluded.conflict_with
                """, arguments: [table.rawValue, id, status, attempts, error, timestamp, next, conflictWith])
            if table == .families {
                try CreationLog.append(db, familyID: id, importKey: nil, line: nil, states: [.syncingToCloudKit],
                                       failure: error, at: timestamp)
            }
        }
    }

    /// Records set aside or waiting, with why: what `resync --list` shows.
    func entries() throws -> [ResyncListEntry] {
        try store.writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM sync_state ORDER BY status, record_table, record_id")
            return try rows.map { row in
                let entry = try SyncStateEntry.decoded(row, table: SyncStateEntry.databaseTableName, idColumn: "record_id")
                return ResyncListEntry(table: entry.table.rawValue, id: entry.recordID, status: entry.status.rawValue, attempts: entry.attempts,
                                lastError: entry.lastError, lastAttemptAt: entry.lastAttemptAt?.text,
                                nextAttemptAt: entry.nextAttemptAt?.text, conflictWith: entry.conflictWith)
            }
        }
    }

    /// How many records wait in each state.
    struct Counts {
        var quarantined = 0
        var conflicts = 0
        var retrying = 0
    }

    func counts() throws -> Counts {
        try store.writer.read { db in
            var counts = Counts()
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM sync_state GROUP BY status") {
                switch row.text("status").flatMap(SyncStatus.init(rawValue:)) {
                case .quarantined?: counts.quarantined = row.integer("n") ?? 0
                case .conflict?: counts.conflicts = row.integer("n") ?? 0
                case .retrying?: counts.retrying = row.integer("n") ?? 0
                case nil: continue  // the table's CHECK admits no other status
                }
            }
            return counts
        }
    }

    func lastSuccess() throws -> String? {
        try store.writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM toolkit_meta WHERE key = 'resync_last_success'") }
    }

    func setLastSuccess(_ timestamp: String) throws {
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO toolkit_meta (key, value) VALUES ('resync_last_success', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [timestamp])
        }
    }
}

extension TribeBoardStore {
    /// Gives records set aside (quarantined or in conflict) back to resync, after a person
    /// looked at them; returns the ids released. Waiting records are left to their backoff.
    package func releaseSetAside(ids: [String]) throws(StoreError) -> [String] {
        guard !ids.isEmpty else { return [] }
        do {
            return try writer.write { db in
                try String.fetchAll(db, sql: """
                    DELETE FROM sync_state WHERE record_id IN \(SyncBookkeeping.placeholders(ids.count))
                      AND status IN ('quarantined', 'conflict') RETURNING record_id
                    """, arguments: StatementArguments(ids))
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Records waiting to retry, quarantined or in conflict, with why.
    package func syncEntries() throws(StoreError) -> [ResyncListEntry] {
        do { return try SyncBookkeeping(store: self).entries() } catch { throw .reading(error, store: path) }
    }
}

package struct ResyncListEntry: Encodable, Sendable, Equatable {
    package let table: String
    package let id: String
    package let status: String
    package let attempts: Int
    package let lastError: String?
    package let lastAttemptAt: String?
    package let nextAttemptAt: String?
    package let conflictWith: String?
}
