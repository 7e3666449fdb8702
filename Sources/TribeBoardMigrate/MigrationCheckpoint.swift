import Foundation
import GRDB
import TribeBoardStore

/// The store's record of a migration run: `pending` before a batch goes to CloudKit (with the new
/// code chosen for a re-coded family, so a resumed run writes the same one), `copied` once the
/// destination holds it and the store knows it, `deleted` once the legacy source is gone.
struct MigrationCheckpoint {
    enum Status: String { case pending, copied, deleted }

    struct Entry: Equatable {
        var sourceName: String
        var kind: MigratedKind
        var destinationName: String
        var newCode: String?
        var status: Status
        /// For a re-coded family: the family that kept its old code (from `code_repairs`).
        var keptBy: String?
    }

    let store: TribeBoardStore
    let runKey: String

    /// What earlier runs of the same migration recorded, by source name.
    func load() throws -> [String: Entry] {
        try store.writer.read { db in
            var entries: [String: Entry] = [:]
            // A plan reads an older store as it is (read-only, never migrated): no checkpoint yet.
            guard try db.tableExists("migration_checkpoint") else { return entries }
            let keptBy = try db.tableExists("code_repairs")
                ? "(SELECT r.kept_by FROM code_repairs r WHERE r.family_id = c.destination_name AND r.new_code = c.new_code ORDER BY r.id DESC LIMIT 1)"
                : "NULL"
            for row in try Row.fetchAll(db, sql: """
                SELECT c.source_name, c.kind, c.destination_name, c.new_code, c.status, \(keptBy) AS kept_by
                FROM migration_checkpoint c WHERE c.run_key = ?
                """, arguments: [runKey]) {
                // Never a trapping subscript: a hand-edited value is an error naming the row.
                func text(_ column: String) throws -> String? {
                    let value = row[column] as DatabaseValue
                    if value.isNull { return nil }
                    guard case .string(let text) = value.storage else {
                        throw StoreError.unreadableValue(table: "migration_checkpoint", rowID: row.text("source_name") ?? "?", column: column,
                                                         found: StoreError.describe(value, column: column))
                    }
                    return text
                }
                guard let kind = try text("kind").flatMap(MigratedKind.init(rawValue:)), let status = try text("status").flatMap(Status.init(rawValue:)),
                      let name = try text("source_name"), let destination = try text("destination_name") else { continue }
                entries[name] = Entry(sourceName: name, kind: kind, destinationName: destination,
                                      newCode: try text("new_code"), status: status, keptBy: try text("kept_by"))
            }
            return entries
        }
    }

    /// Records entries (replacing what the same source had), inside the caller's transaction.
    static func record(_ entries: [Entry], runKey: String, in db: Database) throws {
        let now = StoreTimestamp.format(Date())
        for entry in entries {
            try db.cachedStatement(sql: """
                INSERT INTO migration_checkpoint (run_key, source_name, kind, destination_name, new_code, status, at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (run_key, source_name) DO UPDATE SET
                    kind = excluded.kind, destination_name = excluded.destination_name,
                    new_code = excluded.new_code, status = excluded.status, at = excluded.at
                """).execute(arguments: [runKey, entry.sourceName, entry.kind.rawValue, entry.destinationName, entry.newCode,
                                         entry.status.rawValue, now])
        }
    }

    func record(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        try store.writer.write { db in try Self.record(entries, runKey: runKey, in: db) }
    }
}
