import Foundation
import GRDB
import TribeBoardDomain

/// A family with one of its parent admins: what a name-and-admin duplicate check compares.
package struct FamilyWithAdmin: Sendable, Equatable {
    package let familyID: FamilyID
    package let name: String
    /// `ext:` + external id, or `row:` + content; nil for a family not made by provision.
    package let importKey: String?
    package let adminName: String
    package let adminHash: String?
    /// The membership's row in the store: names this pairing for a second read in the same run.
    package let row: Int64
}

extension StoreReading {
    /// Every family with a parent admin, once per such admin, streamed in one read: an active
    /// one, or one invited without a hash who waits in the store to join (`AwaitingPerson`); an
    /// invited admin with a hash is no one's admin (the app and the join kit ignore it). Memory stays flat
    /// whatever the size of the store. Rows with a value that is not text (a hand edit) are
    /// passed over: the check they feed only warns.
    /// `oldestFirst`: by creation date, then id (who registered first keeps the family), then
    /// the membership's row. `rows`: only these memberships (their `row`), oldest first.
    package func forEachFamilyWithAdmin(oldestFirst: Bool = false, rows: [Int64]? = nil,
                                        _ body: (FamilyWithAdmin) throws -> Void) throws(StoreError) {
        do {
            try reader.read { db in
                // The bound fast path: this reads every family of the store, a million at most.
                let statement = try BoundStatement(db, """
                    SELECT f.id, f.name, f.import_key, u.display_name, u.apple_user_id_hash, m.rowid
                    FROM memberships m
                    JOIN families f ON f.id = m.family_id
                    JOIN user_profiles u ON u.id = m.user_id
                    WHERE m.role = 'parent_admin'
                      AND (m.status = 'active' OR (m.status = 'invited' AND u.apple_user_id_hash IS NULL))
                    \(rows == nil ? "" : "AND m.rowid IN (SELECT value FROM json_each(?))")
                    \(oldestFirst || rows != nil ? "ORDER BY f.created_at, f.id, m.rowid" : "")
                    """)
                // One JSON array for every row asked for: no limit on bound values.
                let list = rows.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }
                let only = list.map { [BindableValue.text($0)] }
                try statement.forEachRow(only ?? []) { row in
                    guard let id = row.text(0), let name = row.text(1), let admin = row.text(3) else { return }
                    try body(FamilyWithAdmin(familyID: FamilyID(rawValue: id), name: name, importKey: row.text(2),
                                             adminName: admin, adminHash: row.text(4), row: row.integer(5)))
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .readFailed(reason: StoreError.reason(error))
        }
    }
}
