import Foundation
import GRDB
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

extension TribeBoardStore {
    /// Calls `body` with each selected family in creation order, read through one cursor so that
    /// memory stays flat however many families there are. A family's admin is its active
    /// parent_admin, else its invited one.
    package func forEachInvitation(_ selection: InvitationSelection, order: InvitationOrder = .created,
                                 _ body: (Invitation) throws -> Void) throws(InvitationReadError) {
        let keys: Set<String>?
        switch selection {
        case .externalIds(let ids): keys = Set(ids.map { "ext:" + $0 })
        case .importFile(let path): keys = try Self.importKeys(of: path)
        case .all, .created, .familyIds, .codes: keys = nil
        }
        var bounds: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        switch selection {
        case .created(let from, let to):
            if let from { bounds.append("f.created_at >= ?"); arguments.append(from) }
            if let to { bounds.append("f.created_at <= ?"); arguments.append(to) }
        case .familyIds(let ids):
            bounds.append("f.id IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(ids))
        case .codes(let codes):
            bounds.append("f.code IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(codes))
        case .all, .externalIds, .importFile: break
        }
        let orderBy: String
        switch order {
        case .created: orderBy = "f.created_at, f.source_line, f.id"
        case .name: orderBy = "f.name COLLATE \(Self.nameCollation.name), f.created_at, f.id"
        case .externalId: orderBy = "f.import_key, f.created_at, f.id"
        }
        let sql = """
            SELECT f.id, f.name, f.code, f.import_key,
                   (SELECT p.display_name FROM memberships m JOIN user_profiles p ON p.id = m.user_id
                    WHERE m.family_id = f.id AND m.role = 'parent_admin' AND m.status IN ('active', 'invited')
                    ORDER BY m.status = 'active' DESC LIMIT 1) AS admin_name
            FROM families f \(bounds.isEmpty ? "" : "WHERE " + bounds.joined(separator: " AND "))
            ORDER BY \(orderBy)
            """
        var failure: (any Error)?
        do {
            try writer.read { db in
                if order == .name { db.add(collation: Self.nameCollation) }
                let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
                while let row = try rows.next() {
                    let importKey = try Self.text(row, "import_key", optional: true)
                    if let keys, !keys.contains(importKey ?? "") { continue }
                    let invitation = Invitation(familyId: try Self.text(row, "id") ?? "", familyName: try Self.text(row, "name") ?? "",
                                                code: try Self.text(row, "code") ?? "", adminName: try Self.text(row, "admin_name", optional: true),
                                                externalId: importKey.flatMap { $0.hasPrefix("ext:") ? String($0.dropFirst(4)) : nil })
                    do { try body(invitation) } catch { failure = error; return }
                }
            }
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(Self.classify(error, path: path))
        }
        if let failure { throw .rendering(failure) }
    }

    /// Names compared as people compare them, the same on every machine (no locale).
    static let nameCollation = DatabaseCollation("tribeboard_name") { lhs, rhs in
        lhs.compare(rhs, options: [.caseInsensitive, .diacriticInsensitive])
    }

    /// A set of ids or codes as one JSON array argument: any number of them, in one statement.
    private static func jsonArray(_ values: Set<String>) -> String {
        let data = (try? JSONEncoder().encode(values.sorted())) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A column of a family's row as text: a blob, a number or a NULL where text belongs (a hand
    /// edit) is an error naming the family, never a card printed with a name nobody wrote.
    private static func text(_ row: Row, _ column: String, optional: Bool = false) throws -> String? {
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

    /// What the store says of a family a manifest names (a manifest does not carry the admin, and
    /// its code may be older than the store's): the admin, the current code (nil when the family
    /// is not in the store), and whether a repair replaced the manifest's code.
    package func manifestFamily(familyId: RecordID, manifestCode: String) throws(InvitationReadError)
        -> (admin: String?, code: String?, repaired: Bool) {
        do {
            return try writer.read { db in
                let admin = try String.fetchOne(db, sql: """
                    SELECT p.display_name FROM memberships m JOIN user_profiles p ON p.id = m.user_id
                    WHERE m.family_id = ? AND m.role = 'parent_admin' AND m.status IN ('active', 'invited')
                    ORDER BY m.status = 'active' DESC LIMIT 1
                    """, arguments: [familyId])
                let code = try String.fetchOne(db, sql: "SELECT code FROM families WHERE id = ?", arguments: [familyId])
                guard code != manifestCode, try db.tableExists("code_repairs") else { return (admin, code, false) }
                let repaired = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM code_repairs WHERE family_id = ? AND old_code = ?)",
                                                 arguments: [familyId, manifestCode]) ?? false
                return (admin, code, repaired)
            }
        } catch {
            throw .store(Self.classify(error, path: path))
        }
    }

    /// The import keys of an import file's rows, computed as provision computes them.
    static func importKeys(of path: String) throws(InvitationReadError) -> Set<String> {
        do {
            let source = try CSVSource(path)
            let scan = try CSVPreScan.scan(path: source.path)
            let reader = try FamilyCSVReader(path: source.path, malformed: scan.malformedRecords, format: scan.format)
            var keys = Set<String>()
            let parser = RowParser()
            while let record = try reader.next() {
                switch parser.parse(record) {
                case .valid(let row): keys.insert(row.importKey)
                case .invalid(_, _, _, let key, _): if let key { keys.insert(key) }
                }
            }
            return keys
        } catch {
            throw .importFile(error)
        }
    }
}
