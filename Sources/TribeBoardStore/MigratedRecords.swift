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
        case family(id: FamilyID, name: String, code: String, createdByUserID: UserID, createdAt: Timestamp,
                    codeChange: MigratedCodeChange?)
        case userProfile(id: UserID, displayName: String, appleUserIdHash: String?, avatarURL: String?,
                         createdAt: Timestamp)
        /// `role` and `status` as the record has them: one the store does not know (its CHECK)
        /// leaves the row out.
        case membership(id: MembershipID, family: FamilyID, user: UserID, role: String, status: String,
                        joinedAt: Timestamp, lastRoleChangeAt: Timestamp?)
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
                                      runKey: String, at now: Timestamp = .now) throws(StoreError)
        -> LearnedCounts {
        do {
            return try writer.write { db in
                let learned = try MigratedInserts(db).learn(records, at: now)
                try Self.recordCheckpoint(checkpoint, runKey: runKey, at: now, in: db)
                return learned
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

/// A batch's records inserted as the typed records (`BoundInsertable`: every column, from the
/// record), through statements prepared once per batch: a migration learns up to hundreds of
/// thousands of rows.
private struct MigratedInserts {
    let db: Database
    let insertFamily: BoundStatement
    let insertProfile: BoundStatement
    /// Bound after the membership's own columns: its family's id, then its profile's.
    let insertMembership: BoundStatement
    let findCodeChange: BoundStatement

    init(_ db: Database) throws {
        self.db = db
        insertFamily = try BoundStatement(db, Family.insertOrIgnoreSQL())
        insertProfile = try BoundStatement(db, UserProfile.insertOrIgnoreSQL())
        // A family or profile the store does not have is not referenced.
        insertMembership = try BoundStatement(db, Membership.insertOrIgnoreSQL(onlyIf: """
            EXISTS (SELECT 1 FROM families WHERE id = ?) AND EXISTS (SELECT 1 FROM user_profiles WHERE id = ?)
            """))
        findCodeChange = try BoundStatement(db, """
            SELECT family_id FROM code_repairs WHERE family_id = ? AND old_code = ? AND new_code = ?
            """, table: "code_repairs")
    }

    func learn(_ records: [TribeBoardStore.MigratedRecord], at now: Timestamp) throws -> TribeBoardStore.LearnedCounts {
        var learned = TribeBoardStore.LearnedCounts()
        for record in records {
            switch record {
            case .family(let id, let name, let code, let createdBy, let createdAt, let change):
                let family = Family(id: id, name: name, code: code, createdByUserID: createdBy, createdAt: createdAt,
                                    needsSync: false, lastSyncDate: now, ckRecordID: id.rawValue, importKey: nil,
                                    sourceLine: nil, codeVerifiedRemotelyAt: now)
                try insertFamily.execute(family.boundValues)
                learned.families += db.changesCount
                if let change { try remember(change, of: id, at: now) }
            case .userProfile(let id, let displayName, let hash, let avatar, let createdAt):
                let profile = UserProfile(id: id, displayName: displayName, appleUserIdHash: hash, avatarURL: avatar,
                                          createdAt: createdAt, needsSync: false, lastSyncDate: now, ckRecordID: id.rawValue)
                try insertProfile.execute(profile.boundValues)
                learned.userProfiles += db.changesCount
            case .membership(let id, let family, let user, let role, let status, let joinedAt, let roleChanged):
                // A second active admin (the one-active-admin index) is ignored by the insert.
                guard let role = MembershipRole(rawValue: role), let status = MembershipStatus(rawValue: status) else { continue }
                let membership = Membership(id: id, familyID: family, userID: user, role: role, status: status,
                                            joinedAt: joinedAt, lastRoleChangeAt: roleChanged, needsSync: false,
                                            lastSyncDate: now, ckRecordID: id.rawValue)
                try insertMembership.execute(membership.boundValues + [.text(family), .text(user)])
                learned.memberships += db.changesCount
            }
        }
        return learned
    }

    private func remember(_ change: TribeBoardStore.MigratedCodeChange, of family: FamilyID, at now: Timestamp) throws {
        let values: [BindableValue] = [.text(family), .text(change.oldCode), .text(change.newCode)]
        guard try findCodeChange.firstRow(values, columns: 1) == nil else { return }
        try db.execute(sql: "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [family, change.oldCode, change.newCode, change.keptBy, change.reason, now])
    }
}
