import Foundation
import GRDB
import TribeBoardDomain

/// The families `sheets` prints, read from the store: each with its admin (its active
/// parent_admin, else its invited one) and import key, in the order asked for.
extension TribeBoardStore {
    package struct InvitationRow: Sendable, Equatable {
        package let familyID: FamilyID
        package let familyName: String
        package let code: String
        package let adminName: String?
        /// `ext:` + the external id, or `row:` + the row's content, as provision wrote it.
        package let importKey: String?
    }

    /// Which families: all of them, those created in a range (inclusive, either end open), those
    /// with one of these ids or codes, or those provision made from rows with these import keys
    /// (an import file's, or `ext:` + external ids).
    package enum InvitationFilter: Sendable, Equatable {
        case all
        case importKeys(Set<String>)
        case created(from: Timestamp?, to: Timestamp?)
        case familyIDs(Set<FamilyID>)
        case codes(Set<String>)
    }

    package enum InvitationRowOrder: Sendable {
        /// Creation order, then the input line, then the id: the order provision made them.
        case created
        /// By name as people compare names (case and accents aside), the same on every machine.
        case name
        case importKey
    }

    /// Names compared as people compare them, the same on every machine (no locale).
    static let nameCollation = DatabaseCollation("tribeboard_name") { lhs, rhs in
        lhs.compare(rhs, options: [.caseInsensitive, .diacriticInsensitive])
    }
}

extension StoreReading {
    /// Calls `body` with each family through one cursor, so memory stays flat however many there
    /// are; `body` returns false to stop. A value of the wrong type (a hand edit) is an error naming
    /// the family, never a card printed with a name nobody wrote.
    package func forEachInvitationRow(_ filter: TribeBoardStore.InvitationFilter, order: TribeBoardStore.InvitationRowOrder,
                                      _ body: (TribeBoardStore.InvitationRow) -> Bool) throws(StoreError) {
        var bounds: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        switch filter {
        case .created(let from, let to):
            if let from { bounds.append("f.created_at >= ?"); arguments.append(from) }
            if let to { bounds.append("f.created_at <= ?"); arguments.append(to) }
        case .familyIDs(let ids):
            bounds.append("f.id IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(Set(ids.map(\.rawValue))))
        case .codes(let codes):
            bounds.append("f.code IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(codes))
        case .all, .importKeys: break
        }
        // Import keys are looked up row by row, not in SQL: a family outside them is passed over
        // before its other columns are read.
        let keys: Set<String>?
        if case .importKeys(let wanted) = filter { keys = wanted } else { keys = nil }
        let orderBy: String
        switch order {
        case .created: orderBy = "f.created_at, f.source_line, f.id"
        case .name: orderBy = "f.name COLLATE \(TribeBoardStore.nameCollation.name), f.created_at, f.id"
        case .importKey: orderBy = "f.import_key, f.created_at, f.id"
        }
        let sql = """
            SELECT f.id, f.name, f.code, f.import_key,
                   (SELECT p.display_name FROM memberships m JOIN user_profiles p ON p.id = m.user_id
                    WHERE m.family_id = f.id AND m.role = 'parent_admin' AND m.status IN ('active', 'invited')
                    ORDER BY m.status = 'active' DESC LIMIT 1) AS admin_name
            FROM families f \(bounds.isEmpty ? "" : "WHERE " + bounds.joined(separator: " AND "))
            ORDER BY \(orderBy)
            """
        do {
            try reader.read { db in
                if order == .name { db.add(collation: TribeBoardStore.nameCollation) }
                let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
                while let row = try rows.next() {
                    let importKey = try Self.invitationText(row, "import_key", optional: true)
                    if let keys, !keys.contains(importKey ?? "") { continue }
                    let invitation = TribeBoardStore.InvitationRow(familyID: FamilyID(rawValue: try Self.invitationText(row, "id") ?? ""),
                                                   familyName: try Self.invitationText(row, "name") ?? "",
                                                   code: try Self.invitationText(row, "code") ?? "",
                                                   adminName: try Self.invitationText(row, "admin_name", optional: true),
                                                   importKey: importKey)
                    guard body(invitation) else { return }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw TribeBoardStore.classify(error, path: path)
        }
    }

    /// What the store says of a family a manifest names (a manifest does not carry the admin, and
    /// its code may be older than the store's): the admin, the current code (nil when the family
    /// is not in the store), and whether a repair replaced the manifest's code.
    package func manifestFamily(familyID: FamilyID, manifestCode: String) throws(StoreError) -> (admin: String?, code: String?, repaired: Bool) {
        do {
            return try reader.read { db in
                let admin = try String.fetchOne(db, sql: """
                    SELECT p.display_name FROM memberships m JOIN user_profiles p ON p.id = m.user_id
                    WHERE m.family_id = ? AND m.role = 'parent_admin' AND m.status IN ('active', 'invited')
                    ORDER BY m.status = 'active' DESC LIMIT 1
                    """, arguments: [familyID.rawValue])
                let code = try String.fetchOne(db, sql: "SELECT code FROM families WHERE id = ?", arguments: [familyID.rawValue])
                guard code != manifestCode, try db.tableExists("code_repairs") else { return (admin, code, false) }
                let repaired = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM code_repairs WHERE family_id = ? AND old_code = ?)",
                                                 arguments: [familyID.rawValue, manifestCode]) ?? false
                return (admin, code, repaired)
            }
        } catch {
            throw TribeBoardStore.classify(error, path: path)
        }
    }

    /// A set of ids or codes as one JSON array argument: any number of them, in one statement.
    private static func jsonArray(_ values: Set<String>) -> String {
        let data = (try? JSONEncoder().encode(values.sorted())) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A column of a family's row as text: a blob, a number or a NULL where text belongs is an
    /// error naming the family.
    private static func invitationText(_ row: Row, _ column: String, optional: Bool = false) throws -> String? {
        let value = row[column] as DatabaseValue
        switch value.storage {
        case .string(let text): return text
        case .null where optional: return nil
        default:
            throw StoreError.unreadableValue(table: "families", rowID: row.text("id") ?? "?",
                                             column: column == "admin_name" ? "its admin's user_profiles.display_name" : column,
                                             found: StoreError.describe(value, column: column))
        }
    }
}
