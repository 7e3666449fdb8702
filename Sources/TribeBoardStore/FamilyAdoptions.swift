import Foundation
import GRDB
import TribeBoardDomain

/// CloudKit's version of a family, as `adopt` takes it into the store.
package struct AdoptedFamily: Sendable, Equatable {
    package let id: FamilyID
    package let name: String
    package let code: String
    /// CloudKit's memberships of the family (each already there: stored as uploaded).
    package let memberships: [MemberMove]
    /// Whether CloudKit's claim of the code names this family (then the store remembers it).
    package let claimed: Bool

    package init(id: FamilyID, name: String, code: String, memberships: [MemberMove], claimed: Bool) {
        (self.id, self.name, self.code, self.memberships, self.claimed) = (id, name, code, memberships, claimed)
    }
}

extension TribeBoardStore {
    /// Replaces the store's family by CloudKit's version, in one transaction: its name and code,
    /// its memberships as CloudKit has them (the store's others go; profiles CloudKit holds that
    /// the store lacks are added), marked uploaded; its quarantine or conflict ends, and a
    /// `code_repairs` row (reason `adopt`) records a code that changed. The unique index on `code`
    /// refuses a code another family of the store holds (thrown).
    package func adopt(_ family: AdoptedFamily, previousCode: String,
                       at stamp: Timestamp = .now) throws(StoreError) {
        do {
            try writer.write { db in
                try db.execute(sql: """
                    UPDATE families SET name = ?, code = ?, needs_sync = 0, last_sync_date = ?, ck_record_id = id,
                        code_verified_remotely_at = ? WHERE id = ?
                    """, arguments: [family.name, family.code, stamp, stamp, family.id])
                let kept = family.memberships.map(\.membershipID)
                try db.execute(sql: """
                    DELETE FROM sync_state WHERE (record_table = 'families' AND record_id = ?)
                       OR (record_table = 'memberships' AND record_id IN (SELECT id FROM memberships WHERE family_id = ?))
                    """, arguments: [family.id, family.id])
                try db.execute(sql: "DELETE FROM memberships WHERE family_id = ? AND id NOT IN \(SQLPlaceholders.list(kept.count))",
                               arguments: StatementArguments([family.id]) + StatementArguments(kept))
                for move in family.memberships {
                    try move.profile?.record(uploadedAt: stamp).insertRow(db, "ON CONFLICT (id) DO NOTHING")
                    var membership = move.record(uploadedAt: stamp)
                    membership.familyID = family.id
                    try membership.insertRow(db, """
                        ON CONFLICT (id) DO UPDATE SET role = excluded.role, status = excluded.status, needs_sync = 0,
                            last_sync_date = excluded.last_sync_date, ck_record_id = excluded.ck_record_id
                        """)
                }
                if family.claimed { try Self.remember(ClaimedCode(familyID: family.id, code: family.code), at: stamp, db) }
                if previousCode != family.code {
                    try db.execute(sql: "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) "
                                    + "VALUES (?, ?, ?, '', 'adopt', ?)",
                                   arguments: [family.id, previousCode, family.code, stamp])
                }
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}
