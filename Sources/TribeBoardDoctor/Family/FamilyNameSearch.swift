import Foundation
import GRDB
import TribeBoardStore

/// A family as a name search lists it: enough to tell two Smiths apart on a support ticket.
package struct FamilyNameMatch: Sendable, Codable, Equatable {
    package let id: String
    package let name: String
    package let externalId: String?
    /// The display name of the family's parent_admin (active, or invited), if it has one.
    package let admin: String?
    package let createdAt: String
    /// `uploaded`, `pending`, or the sync_state status (`retrying`, `quarantined`, `conflict`).
    package let sync: String
}

/// Families whose name contains what was typed, ignoring case and diacritics ("muller" finds
/// "Müller"), as support staff type names from a ticket. One pass over the table: the fold is
/// Foundation's, which SQLite's LIKE cannot do.
enum FamilyNameSearch {
    /// At most this many matches are listed; `total` counts them all.
    static let listed = 50

    static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func matches(_ query: String, in store: TribeBoardStore) throws -> (matches: [FamilyNameMatch], total: Int) {
        let wanted = fold(query)
        guard wanted.count >= 2 else { return ([], 0) }
        return try store.writer.read { db in
            var ids: [String] = []
            var total = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM families ORDER BY name, id")
            while let row = try rows.next() {
                guard let id = row.text("id"), let name = row.text("name"), fold(name).contains(wanted) else { continue }
                total += 1
                if ids.count < listed { ids.append(id) }
            }
            return (try ids.map { try describe($0, db) }, total)
        }
    }

    private static func describe(_ id: String, _ db: Database) throws -> FamilyNameMatch {
        let row = try Row.fetchOne(db, sql: """
            SELECT f.name, f.import_key, f.created_at, f.needs_sync, f.ck_record_id,
                   (SELECT u.display_name FROM memberships m JOIN user_profiles u ON u.id = m.user_id
                    WHERE m.family_id = f.id AND m.role = 'parent_admin' AND m.status != 'removed' ORDER BY m.status = 'active' DESC LIMIT 1) AS admin,
                   (SELECT s.status FROM sync_state s WHERE s.record_table = 'families' AND s.record_id = f.id) AS sync_status
            FROM families f WHERE f.id = ?
            """, arguments: [id])
        let importKey = row?.text("import_key")
        let sync = row?.text("sync_status") ?? (row?.integer("needs_sync") == 0 ? "uploaded" : "pending")
        return FamilyNameMatch(id: id, name: row?.text("name") ?? "?",
                               externalId: importKey.flatMap { $0.hasPrefix("ext:") ? String($0.dropFirst(4)) : nil },
                               admin: row?.text("admin"), createdAt: row?.text("created_at") ?? "?", sync: sync)
    }
}
