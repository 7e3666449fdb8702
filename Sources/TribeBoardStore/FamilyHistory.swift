import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// One family's row, as the store has it. A date is nil when its column holds none (a hand edit).
package struct FamilyFacts: Sendable, Codable, Equatable {
    package let id: FamilyID
    package let name: String
    package let code: String
    package let createdAt: Timestamp?
    package let createdByUserId: UserID
    package let needsSync: Bool
    package let lastSyncDate: Timestamp?
    package let importKey: String?
    package let sourceLine: Int?
    package let codeVerifiedRemotelyAt: Timestamp?
    /// Its admin as the app judges it (`FamilyConditions.adminState`).
    package let adminState: AdminState
    /// A creation that did not complete, which resync keeps out of CloudKit (`FamilyConditions.halfMade`).
    package let halfMade: Bool
}

/// Everything the store holds about one family, read in one transaction: what `doctor family`
/// shows as a timeline (a date nil when its column holds none).
package struct FamilyHistory: Sendable {
    package struct LogEntry: Sendable { package let state: String; package let error: String?; package let at: Timestamp? }
    package struct Membership: Sendable {
        package let id: MembershipID
        package let role: String
        package let status: String
        package let joinedAt: Timestamp?
        package let user: String
        package let needsSync: Bool
    }
    package struct SyncEntry: Sendable {
        package let table: String
        package let id: String
        package let status: String
        package let attempts: Int
        package let lastError: String?
        package let lastAttemptAt: Timestamp?
        package let conflictWith: String?
    }

    package let family: FamilyFacts
    package let log: [LogEntry]
    package let memberships: [Membership]
    package let sync: [SyncEntry]
}

/// A family as a name search lists it: enough to tell two Smiths apart on a support ticket.
package struct FamilyNameMatch: Sendable, Codable, Equatable {
    package let id: FamilyID
    package let name: String
    package let externalId: String?
    /// The display name of the family's parent_admin (active, or invited), if it has one.
    package let admin: String?
    /// nil when the column holds no date (a hand edit).
    package let createdAt: Timestamp?
    /// `uploaded`, `pending`, or the sync_state status (`retrying`, `quarantined`, `conflict`).
    package let sync: String
}

extension StoreReading {
    /// By record id, code or external id (`ext:` import key), in that order of preference
    /// (`FamilyQuery.family`, the rule `namedFamily` follows too).
    package func familyHistory(matching query: String) throws -> FamilyHistory? {
        let named = FamilyQuery(query)
        return try reader.read { db in
            let row = try named.family(db, columns: """
                f.*, \(FamilyConditions.adminState("f")) AS admin_state, \(FamilyConditions.halfMade("f")) AS half_made
                """)
            guard let row else { return nil }
            let family = FamilyFacts(id: row.id("id") ?? "?", name: row.text("name") ?? "?", code: row.text("code") ?? "?",
                                     createdAt: row.timestamp("created_at"), createdByUserId: row.id("created_by_user_id") ?? "?",
                                     needsSync: row.integer("needs_sync") != 0, lastSyncDate: row.timestamp("last_sync_date"),
                                     importKey: row.text("import_key"), sourceLine: row.integer("source_line"),
                                     codeVerifiedRemotelyAt: row.timestamp("code_verified_remotely_at"),
                                     adminState: row.text("admin_state").flatMap(AdminState.init(rawValue:)) ?? .none,
                                     halfMade: row.integer("half_made") == 1)
            return FamilyHistory(family: family, log: try Self.log(db, family.id), memberships: try Self.memberships(db, family.id),
                                 sync: try Self.syncEntries(db, family.id))
        }
    }

    /// Families whose name, or whose parent admin's name, `matches` says yes to (a caller gives
    /// their own name), in name order: the first `limit` described, and how many match in all.
    /// One pass over the table (the caller's fold is Foundation's, which SQLite's LIKE cannot do).
    package func familiesNamed(limit: Int, _ matches: (String) -> Bool) throws -> (matches: [FamilyNameMatch], total: Int) {
        try reader.read { db in
            var ids: [FamilyID] = []
            var total = 0
            let rows = try Row.fetchCursor(db, sql: """
                SELECT f.id, f.name,
                       (SELECT group_concat(u.display_name, char(31)) FROM memberships m JOIN user_profiles u ON u.id = m.user_id
                        WHERE m.family_id = f.id AND m.role = 'parent_admin' AND m.status != 'removed') AS admins
                FROM families f ORDER BY f.name, f.id
                """)
            while let row = try rows.next() {
                guard let id: FamilyID = row.id("id"), let name = row.text("name") else { continue }
                let admins = (row.text("admins") ?? "").split(separator: "\u{1F}").map(String.init)
                guard matches(name) || admins.contains(where: matches) else { continue }
                total += 1
                if ids.count < limit { ids.append(id) }
            }
            return (try ids.map { try Self.nameMatch($0, db) }, total)
        }
    }

    private static func nameMatch(_ id: FamilyID, _ db: Database) throws -> FamilyNameMatch {
        let row = try Row.fetchOne(db, sql: """
            SELECT f.name, f.import_key, f.created_at, f.needs_sync, f.ck_record_id,
                   (SELECT u.display_name FROM memberships m JOIN user_profiles u ON u.id = m.user_id
                    WHERE m.family_id = f.id AND m.role = 'parent_admin' AND m.status != 'removed'
                    ORDER BY m.status = 'active' DESC LIMIT 1) AS admin,
                   (SELECT s.status FROM sync_state s WHERE s.record_table = 'families' AND s.record_id = f.id) AS sync_status
            FROM families f WHERE f.id = ?
            """, arguments: [id])
        let importKey = row?.text("import_key")
        let sync = row?.text("sync_status") ?? (row?.integer("needs_sync") == 0 ? "uploaded" : "pending")
        return FamilyNameMatch(id: id, name: row?.text("name") ?? "?",
                               externalId: ImportKey.externalId(in: importKey),
                               admin: row?.text("admin"), createdAt: row?.timestamp("created_at"), sync: sync)
    }

    private static func log(_ db: Database, _ familyID: FamilyID) throws -> [FamilyHistory.LogEntry] {
        try Row.fetchAll(db, sql: "SELECT state, error, at FROM creation_log WHERE family_id = ? ORDER BY id", arguments: [familyID])
            .map { FamilyHistory.LogEntry(state: $0.text("state") ?? "?", error: $0.text("error"), at: $0.timestamp("at")) }
    }

    private static func memberships(_ db: Database, _ familyID: FamilyID) throws -> [FamilyHistory.Membership] {
        try Row.fetchAll(db, sql: """
            SELECT m.id, m.role, m.status, m.joined_at, m.needs_sync, COALESCE(u.display_name, m.user_id) AS user
            FROM memberships m LEFT JOIN user_profiles u ON u.id = m.user_id WHERE m.family_id = ? ORDER BY m.joined_at
            """, arguments: [familyID]).map {
            FamilyHistory.Membership(id: $0.id("id") ?? "?", role: $0.text("role") ?? "?", status: $0.text("status") ?? "?",
                                     joinedAt: $0.timestamp("joined_at"), user: $0.text("user") ?? "?", needsSync: $0.integer("needs_sync") == 1)
        }
    }

    /// The family's own bookkeeping and its memberships' (they wait for it).
    private static func syncEntries(_ db: Database, _ familyID: FamilyID) throws -> [FamilyHistory.SyncEntry] {
        guard try db.tableExists("sync_state") else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT * FROM sync_state WHERE (record_table = 'families' AND record_id = ?)
               OR (record_table = 'memberships' AND record_id IN (SELECT id FROM memberships WHERE family_id = ?))
            ORDER BY last_attempt_at
            """, arguments: [familyID, familyID]).map {
            FamilyHistory.SyncEntry(table: $0.text("record_table") ?? "?", id: $0.text("record_id") ?? "?",
                                    status: $0.text("status") ?? "?", attempts: $0.integer("attempts") ?? 0,
                                    lastError: $0.text("last_error"), lastAttemptAt: $0.timestamp("last_attempt_at"),
                                    conflictWith: $0.text("conflict_with"))
        }
    }
}
