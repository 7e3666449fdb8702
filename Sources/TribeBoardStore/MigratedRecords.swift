import Foundation
import GRDB
import TribeBoardDomain

/// The records a migration placed in CloudKit, learned by the store as already there
/// (`needs_sync = 0`, the record name in `ck_record_id`, a family's code checked remotely now), so
/// doctor, audit and resync know them. A record the store already has (same id, code or signed-in
/// user) is left as it is.
extension TribeBoardStore {
    /// A family's new code, given because an older family holds its old one or it was not in
    /// the wire format: a `code_repairs` row (`reason` `migrate-code-conflict` or `migrate-invalid-code`).
    package struct MigratedCodeChange: Sendable, Equatable {
        package var oldCode: String
        package var newCode: String
        package var keptBy: String
        package var reason: String

        package init(oldCode: String, newCode: String, keptBy: String, reason: String) {
            self.oldCode = oldCode
            self.newCode = newCode
            self.keptBy = keptBy
            self.reason = reason
        }
    }

    package enum MigratedRecord: Sendable {
        case family(id: FamilyID, name: String, code: String, createdByUserID: String, createdAt: Date, codeChange: MigratedCodeChange?)
        case userProfile(id: UserID, displayName: String, appleUserIdHash: String?, avatarURL: String?, createdAt: Date)
        /// `role` as the record has it: one the store's CHECK refuses leaves the row out.
        case membership(id: MembershipID, family: FamilyID, user: UserID, role: String, status: String, joinedAt: Date, lastRoleChangeAt: Date?)
    }

    /// How many rows of each kind the store gained.
    package struct LearnedCounts: Sendable, Equatable {
        package var families = 0
        package var userProfiles = 0
        package var memberships = 0
    }

    /// Learns a batch of migrated records and records the run's checkpoint for it, in one
    /// transaction: a run killed after it finds both, or neither.
    package func learnMigratedRecords(_ records: [MigratedRecord], checkpoint: [MigrationCheckpointEntry],
                                      runKey: String, at now: Date = Date()) throws(StoreError) -> LearnedCounts {
        do {
            return try writer.write { db in
                let learned = try Self.learn(records, at: StoreTimestamp.format(now), in: db)
                try Self.recordCheckpoint(checkpoint, runKey: runKey, in: db)
                return learned
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    private static func learn(_ records: [MigratedRecord], at now: String, in db: Database) throws -> LearnedCounts {
        var learned = LearnedCounts()
        for record in records {
            switch record {
            case .family(let id, let name, let code, let createdBy, let createdAt, let change):
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO families (id, name, code, created_by_user_id, created_at, needs_sync, last_sync_date,
                                                    ck_record_id, code_verified_remotely_at)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
                    """).execute(arguments: [id.rawValue, name, code, createdBy, StoreTimestamp.format(createdAt), now, id.rawValue, now])
                learned.families += db.changesCount
                if let change, try !hasCodeChange(change, family: id, db) {
                    try db.execute(sql: "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                                   arguments: [id.rawValue, change.oldCode, change.newCode, change.keptBy, change.reason, now])
                }
            case .userProfile(let id, let displayName, let hash, let avatar, let createdAt):
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO user_profiles (id, display_name, apple_user_id_hash, avatar_url, created_at, needs_sync,
                                                         last_sync_date, ck_record_id)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    """).execute(arguments: [id.rawValue, displayName, hash, avatar, StoreTimestamp.format(createdAt), now, id.rawValue])
                learned.userProfiles += db.changesCount
            case .membership(let id, let family, let user, let role, let status, let joinedAt, let roleChanged):
                // CHECK constraints (an unknown role) and the one-active-admin index ignore the row;
                // a family or profile the store does not have is not referenced.
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO memberships (id, family_id, user_id, role, status, joined_at, last_role_change_at, needs_sync,
                                                       last_sync_date, ck_record_id)
                    SELECT ?, ?, ?, ?, ?, ?, ?, 0, ?, ?
                    WHERE EXISTS (SELECT 1 FROM families WHERE id = ?) AND EXISTS (SELECT 1 FROM user_profiles WHERE id = ?)
                    """).execute(arguments: [id.rawValue, family.rawValue, user.rawValue, role, status, StoreTimestamp.format(joinedAt),
                                             roleChanged.map(StoreTimestamp.format), now, id.rawValue, family.rawValue, user.rawValue])
                learned.memberships += db.changesCount
            }
        }
        return learned
    }

    private static func hasCodeChange(_ change: MigratedCodeChange, family: FamilyID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM code_repairs WHERE family_id = ? AND old_code = ? AND new_code = ?)",
                          arguments: [family.rawValue, change.oldCode, change.newCode]) ?? false
    }
}
