import Foundation
import GRDB
import TribeBoardStore
import TribeBoardSupport

/// One family's row, as the store has it.
package struct FamilyFacts: Sendable, Codable, Equatable {
    package let id: String
    package let name: String
    package let code: String
    package let createdAt: String
    package let createdByUserId: String
    package let needsSync: Bool
    package let lastSyncDate: String?
    package let importKey: String?
    package let sourceLine: Int?
    package let codeVerifiedRemotelyAt: String?
}

/// One thing that happened to the family, from the store or from CloudKit.
package struct TimelineEvent: Sendable, Codable, Equatable {
    package let at: String?
    /// `families`, `creation_log`, `memberships`, `sync_state` or `cloudkit`.
    package let source: String
    package let what: String
}

/// Everything the store holds about one family, read in one transaction.
struct FamilyRecords {
    struct LogEntry { let state: String; let error: String?; let at: String }
    struct Membership { let id: String; let role: String; let status: String; let joinedAt: String; let user: String; let needsSync: Bool }
    struct SyncEntry { let table: String; let id: String; let status: String; let attempts: Int; let lastError: String?; let lastAttemptAt: String?; let conflictWith: String? }

    let family: FamilyFacts
    let log: [LogEntry]
    let memberships: [Membership]
    let sync: [SyncEntry]

    /// By record id, code or external id (`ext:` import key), in that order of preference.
    static func find(_ query: String, in store: TribeBoardStore) throws -> FamilyRecords? {
        let trimmed = query.trimmed
        return try store.writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT * FROM families WHERE id = ? OR code = ? OR import_key = ?
                ORDER BY id = ? DESC, code = ? DESC LIMIT 1
                """, arguments: [trimmed.uppercased(), trimmed.uppercased(), "ext:" + trimmed, trimmed.uppercased(), trimmed.uppercased()])
            guard let row else { return nil }
            let family = FamilyFacts(id: row.text("id") ?? "?", name: row.text("name") ?? "?", code: row.text("code") ?? "?",
                                     createdAt: row.text("created_at") ?? "?", createdByUserId: row.text("created_by_user_id") ?? "?",
                                     needsSync: row.integer("needs_sync") != 0, lastSyncDate: row.text("last_sync_date"),
                                     importKey: row.text("import_key"), sourceLine: row.integer("source_line"),
                                     codeVerifiedRemotelyAt: row.hasColumn("code_verified_remotely_at") ? row.text("code_verified_remotely_at") : nil)
            return FamilyRecords(family: family, log: try log(db, family), memberships: try memberships(db, family.id),
                                 sync: try syncEntries(db, family.id))
        }
    }

    private static func log(_ db: Database, _ family: FamilyFacts) throws -> [LogEntry] {
        try Row.fetchAll(db, sql: "SELECT state, error, at FROM creation_log WHERE family_id = ? ORDER BY id", arguments: [family.id])
            .map { LogEntry(state: $0.text("state") ?? "?", error: $0.text("error"), at: $0.text("at") ?? "?") }
    }

    private static func memberships(_ db: Database, _ familyID: String) throws -> [Membership] {
        try Row.fetchAll(db, sql: """
            SELECT m.id, m.role, m.status, m.joined_at, m.needs_sync, COALESCE(u.display_name, m.user_id) AS user
            FROM memberships m LEFT JOIN user_profiles u ON u.id = m.user_id WHERE m.family_id = ? ORDER BY m.joined_at
            """, arguments: [familyID]).map {
            Membership(id: $0.text("id") ?? "?", role: $0.text("role") ?? "?", status: $0.text("status") ?? "?",
                       joinedAt: $0.text("joined_at") ?? "?", user: $0.text("user") ?? "?", needsSync: $0.integer("needs_sync") == 1)
        }
    }

    /// The family's own bookkeeping and its memberships' (they wait for it).
    private static func syncEntries(_ db: Database, _ familyID: String) throws -> [SyncEntry] {
        guard try db.tableExists("sync_state") else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT * FROM sync_state WHERE (record_table = 'families' AND record_id = ?)
               OR (record_table = 'memberships' AND record_id IN (SELECT id FROM memberships WHERE family_id = ?))
            ORDER BY last_attempt_at
            """, arguments: [familyID, familyID]).map {
            SyncEntry(table: $0.text("record_table") ?? "?", id: $0.text("record_id") ?? "?", status: $0.text("status") ?? "?",
                      attempts: $0.integer("attempts") ?? 0, lastError: $0.text("last_error"), lastAttemptAt: $0.text("last_attempt_at"),
                      conflictWith: $0.text("conflict_with"))
        }
    }

    var familySync: SyncEntry? { sync.first { $0.table == "families" } }

    /// The store's events in time order (ISO 8601 text sorts as time).
    var events: [TimelineEvent] {
        var events = [TimelineEvent(at: family.createdAt, source: "families", what: "family \"\(family.name)\" created with code \(family.code)")]
        events += log.map { TimelineEvent(at: $0.at, source: "creation_log", what: $0.state + ($0.error.map { ": \($0)" } ?? "")) }
        events += memberships.map {
            TimelineEvent(at: $0.joinedAt, source: "memberships", what: "\($0.user) joined as \($0.role) (\($0.status))\($0.needsSync ? ", waiting for sync" : "")")
        }
        events += sync.map {
            TimelineEvent(at: $0.lastAttemptAt, source: "sync_state",
                          what: "\($0.table) \($0.id): \($0.status) after \($0.attempts) attempts" + ($0.lastError.map { ": \($0)" } ?? ""))
        }
        if let synced = family.lastSyncDate { events.append(TimelineEvent(at: synced, source: "families", what: "family uploaded to CloudKit")) }
        return events.enumerated().sorted { ($0.element.at ?? "", $0.offset) < ($1.element.at ?? "", $1.offset) }.map(\.element)
    }
}
