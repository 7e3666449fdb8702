import Foundation
import GRDB

/// What `doctor` asks about the store file itself. Reads only (never a checkpoint or a migration).
extension StoreReading {
    /// SQLite's integrity check (`quick`: `quick_check`), up to 20 problems; `["ok"]` when sound.
    package func integrityProblems(quick: Bool) throws -> [String] {
        let pragma = quick ? "quick_check" : "integrity_check"
        return try reader.read { db in try String.fetchAll(db, sql: "PRAGMA \(pragma)(20)") }
    }

    /// The migrations this toolkit knows, in order, and those the store has applied.
    package func migrationState() throws -> (known: [String], applied: Set<String>) {
        let applied = try reader.read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
        return (StoreSchema.migrator.migrations, Set(applied))
    }

    package func journalMode() throws -> String? {
        try reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    /// The tables the store has (an old store may lack the later ones).
    package func tableNames() throws -> Set<String> {
        Set(try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") })
    }
}
