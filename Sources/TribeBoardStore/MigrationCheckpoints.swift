import Foundation
import GRDB
import TribeBoardDomain

/// The store's record of migration runs (table `migration_checkpoint`): for each source record of
/// a run, `pending` before its batch goes to CloudKit (with the new code chosen for a re-coded
/// family, so a resumed run writes the same one), `copied` once the destination holds it and the
/// store knows it, `deleted` once the legacy source is gone. A run is named by its key (the two
/// sides), so a checkpoint is only resumed by the same migration.
extension TribeBoardStore {
    package struct MigrationCheckpointEntry: Sendable, Equatable {
        package enum Status: String, Sendable { case pending, copied, deleted }

        package var sourceName: String
        /// The record's kind as the migration names it (`family`, `user_profile`, `membership`).
        package var kind: String
        package var destinationName: String
        package var newCode: String?
        package var status: Status
        /// For a re-coded family: the family that kept its old code (from `code_repairs`).
        package var keptBy: String?
        /// Why `--delete-source` left this legacy source in CloudKit on purpose; nil otherwise.
        package var kept: String?

        package init(sourceName: String, kind: String, destinationName: String, newCode: String?, status: Status, keptBy: String? = nil,
                     kept: String? = nil) {
            self.sourceName = sourceName
            self.kind = kind
            self.destinationName = destinationName
            self.newCode = newCode
            self.status = status
            self.keptBy = keptBy
            self.kept = kept
        }
    }

    /// Records entries (replacing what the same source had in this run).
    package func recordMigrationCheckpoint(_ entries: [MigrationCheckpointEntry], runKey: String) throws(StoreError) {
        guard !entries.isEmpty else { return }
        do {
            try writer.write { db in try Self.recordCheckpoint(entries, runKey: runKey, at: .now, in: db) }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Inside the caller's transaction (the batch's records are learned in the same one).
    static func recordCheckpoint(_ entries: [MigrationCheckpointEntry], runKey: String, at now: Timestamp,
                                 in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO migration_checkpoint (run_key, source_name, kind, destination_name, new_code, status, at, kept)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (run_key, source_name) DO UPDATE SET
                kind = excluded.kind, destination_name = excluded.destination_name,
                new_code = excluded.new_code, status = excluded.status, at = excluded.at, kept = excluded.kept
            """)
        for entry in entries {
            try statement.execute(arguments: [runKey, entry.sourceName, entry.kind, entry.destinationName, entry.newCode,
                                              entry.status.rawValue, now, entry.kept])
        }
    }
}

extension StoreReading {
    /// What earlier runs with this key recorded, by source name. A plan reads an older store as it
    /// is (read-only, never migrated): no checkpoint table yet is no entry. A row whose status is
    /// not one of the three is left out; a value of the wrong type is an error naming the row.
    package func migrationCheckpoint(runKey: String) throws(StoreError) -> [String: TribeBoardStore.MigrationCheckpointEntry] {
        do {
            return try reader.read { db in
                var entries: [String: TribeBoardStore.MigrationCheckpointEntry] = [:]
                guard try db.tableExists("migration_checkpoint") else { return entries }
                let keptBy = try db.tableExists("code_repairs")
                    ? "(SELECT r.kept_by FROM code_repairs r WHERE r.family_id = c.destination_name "
                        + "AND r.new_code = c.new_code ORDER BY r.id DESC LIMIT 1)"
                    : "NULL"
                let kept = try Self.hasKeptColumn(db) ? "c.kept" : "NULL"
                for row in try Row.fetchAll(db, sql: """
                    SELECT c.source_name, c.kind, c.destination_name, c.new_code, c.status, \(keptBy) AS kept_by,
                        \(kept) AS kept
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
                    guard let kind = try text("kind"),
                          let status = try text("status").flatMap(TribeBoardStore.MigrationCheckpointEntry.Status.init(rawValue:)),
                          let name = try text("source_name"), let destination = try text("destination_name") else { continue }
                    entries[name] = TribeBoardStore.MigrationCheckpointEntry(sourceName: name, kind: kind, destinationName: destination,
                                                             newCode: try text("new_code"), status: status, keptBy: try text("kept_by"),
                                                             kept: try text("kept"))
                }
                return entries
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// The legacy sources `migrate legacy-types --delete-source` kept on purpose and has not
    /// deleted since, by record name (a store older than the column, or than the checkpoint,
    /// has none). Record names are unique, so the run's sides are not compared.
    package func legacySourcesKept() throws(StoreError) -> Set<String> {
        do {
            return try reader.read { db in
                guard try db.tableExists("migration_checkpoint"), try Self.hasKeptColumn(db) else { return [] }
                return Set(try String.fetchAll(db, sql: """
                    SELECT source_name FROM migration_checkpoint
                    WHERE kept IS NOT NULL AND status <> 'deleted' AND run_key LIKE 'legacy-types %'
                    """))
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// A plan or an audit reads an older store as it is: the column may not be there yet.
    private static func hasKeptColumn(_ db: Database) throws -> Bool {
        try db.columns(in: "migration_checkpoint").contains { $0.name == "kept" }
    }
}
