import Foundation
import GRDB
import TribeBoardStore

/// Remembers, for one input file, which import keys and preassigned codes were seen and on which
/// line. It lives in SQLite's anonymous temporary database (path ""): on disk rather than in
/// memory, so that memory does not grow with the size of the CSV, yet unlinked from the start, so
/// that neither other users nor a kill -9 ever see the codes it holds.
package final class RowTracker: Sendable {
    private let queue: DatabaseQueue

    init() throws(StoreError) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // A scratch file: losing it in a crash loses nothing, so skip durability work.
            // Exclusive locking: one process only, so skip the file locks every transaction takes.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
        }
        do {
            queue = try DatabaseQueue(path: "", configuration: configuration)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE seen_keys (key TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE reserved_codes (code TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;
                    """)
            }
        } catch {
            throw .cannotOpen(path: "a temporary file", reason: "scratch database for duplicate tracking: \(error)")
        }
    }

    /// Records each key for its line, in order, in one transaction; returns for each the earlier
    /// line when the key was already seen (in an earlier batch or earlier in this one).
    func firstLines(of keys: [(key: String, line: Int)]) throws -> [Int?] {
        try queue.write { db in
            try keys.map { try claim(db, table: "seen_keys", column: "key", value: $0.key, line: $0.line) }
        }
    }

    /// Records a preassigned code; returns the earlier line when another row already gave it.
    func reserve(code: String, line: Int) throws -> Int? {
        try queue.write { db in try claim(db, table: "reserved_codes", column: "code", value: code, line: line) }
    }

    func reservedLine(for code: String) throws -> Int? {
        try queue.read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT line FROM reserved_codes WHERE code = ?"), arguments: [code])
        }
    }

    private func claim(_ db: Database, table: String, column: String, value: String, line: Int) throws -> Int? {
        let lookup = try db.cachedStatement(sql: "SELECT line FROM \(table) WHERE \(column) = ?")
        if let earlier = try Int.fetchOne(lookup, arguments: [value]), earlier != line { return earlier }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table) (\(column), line) VALUES (?, ?)")
            .execute(arguments: [value, line])
        return nil
    }
}
