import Foundation
import GRDB
import TribeBoardSupport
import TribeBoardDomain

/// What a failed upload attempt leaves in `sync_state`, decided by resync's policy from the
/// attempts made so far (read in the same transaction as the write).
package struct SyncVerdict: Sendable {
    package var status: SyncStatus
    package var error: String
    package var nextAttemptAt: Timestamp?
    package var conflictWith: String?

    package init(status: SyncStatus, error: String, nextAttemptAt: Timestamp? = nil, conflictWith: String? = nil) {
        self.status = status
        self.error = error
        self.nextAttemptAt = nextAttemptAt
        self.conflictWith = conflictWith
    }
}

/// A record set aside or waiting, with why: what `resync --list` shows.
package struct ResyncListEntry: Encodable, Sendable, Equatable {
    package let table: String
    package let id: String
    package let status: String
    package let attempts: Int
    package let lastError: String?
    package let lastAttemptAt: Timestamp?
    package let nextAttemptAt: Timestamp?
    package let conflictWith: String?
}

/// How many records wait in each state.
package struct SyncStateCounts: Sendable, Equatable {
    package var quarantined = 0
    package var conflicts = 0
    package var retrying = 0
}

extension SyncQueue {
    /// Records a failed attempt of `row`, unless the row changed since it was read: what failed
    /// was the old content, and the new one deserves a fresh attempt (a repaired code that was set
    /// aside as a conflict for its old code would wait for a person forever). `decide` gets the
    /// attempts count including this one.
    package func recordFailure(_ row: PendingRow, at now: Timestamp, _ decide: (Int) -> SyncVerdict) throws {
        let (table, id) = (row.table, row.id)
        try store.writer.write { db in
            guard try row.isUnchanged(db) else { return }
            // A hand-edited count (huge, negative, text) must not overflow: it saturates.
            let previous = try Row.fetchOne(db, sql: "SELECT attempts FROM sync_state WHERE record_table = ? AND record_id = ?",
                                            arguments: [table.rawValue, id])?.integer("attempts") ?? 0
            let attempts = max(previous, 0) == Int.max ? Int.max : max(previous, 0) + 1
            // What CloudKit sent (a reason, a claim's `family` field) is kept bounded: the store
            // is read by every `resync --list` and doctor run.
            var verdict = decide(attempts)
            verdict.error = OutsideText.bounded(verdict.error)
            verdict.conflictWith = verdict.conflictWith.map { OutsideText.bounded($0, limit: 300) }
            try db.execute(sql: """
                INSERT INTO sync_state (record_table, record_id, status, attempts, last_error, last_attempt_at, next_attempt_at, conflict_with)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (record_table, record_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts,
                    last_error = excluded.last_error, last_attempt_at = excluded.last_attempt_at,
                    next_attempt_at = excluded.next_attempt_at, conflict_with = excluded.conflict_with
                """, arguments: [table.rawValue, id, verdict.status, attempts, verdict.error, now.text,
                                 verdict.nextAttemptAt, verdict.conflictWith])
            if table == .families {
                try CreationLog.append(db, familyID: FamilyID(rawValue: id), importKey: nil, line: nil, states: [.syncingToCloudKit],
                                       failure: verdict.error, at: now)
            }
        }
    }

    /// Records set aside or waiting, with why.
    package func entries() throws -> [ResyncListEntry] {
        try store.syncEntries()
    }

    package func counts() throws -> SyncStateCounts {
        try store.writer.read { db in
            var counts = SyncStateCounts()
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

    /// When a resync last left nothing pending, if one ever did (and the value is a date).
    package func lastSuccess() throws -> Timestamp? {
        try store.writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM toolkit_meta WHERE key = 'resync_last_success'")
                .flatMap(Timestamp.init(text:))
        }
    }

    package func setLastSuccess(_ now: Timestamp) throws {
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO toolkit_meta (key, value) VALUES ('resync_last_success', ?) "
                            + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [now.text])
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
                    DELETE FROM sync_state WHERE record_id IN \(SQLPlaceholders.list(ids.count))
                      AND status IN ('quarantined', 'conflict') RETURNING record_id
                    """, arguments: StatementArguments(ids))
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension StoreReading {
    /// Records waiting to retry, quarantined or in conflict, with why.
    package func syncEntries() throws(StoreError) -> [ResyncListEntry] {
        do {
            return try reader.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM sync_state ORDER BY status, record_table, record_id")
                return try rows.map { row in
                    let entry = try SyncStateEntry.decoded(row, table: SyncStateEntry.databaseTableName, idColumn: "record_id")
                    return ResyncListEntry(table: entry.table.rawValue, id: entry.recordID, status: entry.status.rawValue,
                                           attempts: entry.attempts, lastError: entry.lastError,
                                           lastAttemptAt: entry.lastAttemptAt, nextAttemptAt: entry.nextAttemptAt,
                                           conflictWith: entry.conflictWith)
                }
            }
        } catch {
            throw .reading(error, store: path)
        }
    }
}
