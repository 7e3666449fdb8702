import Foundation
import GRDB
import TribeBoardDomain

extension TribeBoardStore {
    /// Marks families (by id) to be uploaded again, with their memberships and the profiles of
    /// those, and forgets their claims so resync claims them again: for families the store says are
    /// uploaded but CloudKit no longer has (deleted in the Console). A record still there is found
    /// identical by the next upload, so a family named by mistake costs a lookup, nothing more.
    /// Returns the ids found.
    package func markForReupload(familyIDs: [FamilyID]) throws(StoreError) -> [FamilyID] {
        guard !familyIDs.isEmpty else { return [] }
        do {
            return try writer.write { db in
                let list = SQLPlaceholders.list(familyIDs.count)
                let arguments = StatementArguments(familyIDs)
                let found = try FamilyID.fetchAll(db, sql: """
                    UPDATE families SET needs_sync = 1, ck_record_id = NULL WHERE id IN \(list) RETURNING id
                    """, arguments: arguments)
                guard !found.isEmpty else { return [] }
                let families = SQLPlaceholders.list(found.count)
                let ids = StatementArguments(found)
                try db.execute(sql: "UPDATE user_profiles SET needs_sync = 1 "
                                + "WHERE id IN (SELECT user_id FROM memberships WHERE family_id IN \(families))",
                               arguments: ids)
                try db.execute(sql: """
                    DELETE FROM sync_state WHERE record_id IN (SELECT id FROM memberships WHERE family_id IN \(families))
                       OR record_id IN \(families)
                    """, arguments: ids + ids)
                try db.execute(sql: "UPDATE memberships SET needs_sync = 1, ck_record_id = NULL WHERE family_id IN \(families)", arguments: ids)
                try db.execute(sql: "DELETE FROM code_claims WHERE family_id IN \(families)", arguments: ids)
                return found
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}
