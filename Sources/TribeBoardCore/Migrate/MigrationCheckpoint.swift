import Foundation
import GRDB

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
    }

    let store: TribeBoardStore
    let runKey: String

    /// What earlier runs of the same migration recorded, by source name.
    func load() throws -> [String: Entry] {
        try store.writer.read { db in
            var entries: [String: Entry] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT source_name, kind, destination_name, new_code, status FROM migration_checkpoint WHERE run_key = ?
                """, arguments: [runKey]) {
                guard let kind = MigratedKind(rawValue: row["kind"]), let status = Status(rawValue: row["status"]) else { continue }
                let name: String = row["source_name"]
                entries[name] = Entry(sourceName: name, kind: kind, destinationName: row["destination_name"],
                                      newCode: row["new_code"], status: status)
            }
            return entries
        }
    }

    /// Records entries (replacing what the same source had), inside the caller's transaction.
    static func record(_ entries: [Entry], runKey: String, in db: Database) throws {
        let now = StoreTimestamp.format(Date())
        for entry in entries {
            try db.execute(sql: """
                INSERT INTO migration_checkpoint (run_key, source_name, kind, destination_name, new_code, status, at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (run_key, source_name) DO UPDATE SET
                    kind = excluded.kind, destination_name = excluded.destination_name,
                    new_code = excluded.new_code, status = excluded.status, at = excluded.at
                """, arguments: [runKey, entry.sourceName, entry.kind.rawValue, entry.destinationName, entry.newCode,
                                 entry.status.rawValue, now])
        }
    }

    func record(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        try store.writer.write { db in try Self.record(entries, runKey: runKey, in: db) }
    }
}
