import Foundation
import GRDB

/// Remembers, for one input file, which import keys and preassigned codes were seen and on which
/// line, in a `ScratchDatabase`: memory does not grow with the size of the CSV, and neither other
/// users nor a kill -9 ever see the codes it holds.
package final class RowTracker: Sendable {
    private let queue: DatabaseQueue

    package init() throws(StoreError) {
        queue = try ScratchDatabase.open(for: "duplicate tracking", schema: """
            CREATE TABLE seen_keys (key TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE reserved_codes (code TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;
            """)
    }

    /// Records each key for its line, in order, in one transaction; returns for each the earlier
    /// line when the key was already seen (in an earlier batch or earlier in this one).
    package func firstLines(of keys: [(key: String, line: Int)]) throws -> [Int?] {
        try queue.write { db in
            try keys.map { try claim(db, table: "seen_keys", column: "key", value: $0.key, line: $0.line) }
        }
    }

    /// Records a preassigned code; returns the earlier line when another row already gave it.
    package func reserve(code: String, line: Int) throws -> Int? {
        try queue.write { db in try claim(db, table: "reserved_codes", column: "code", value: code, line: line) }
    }

    package func reservedLine(for code: String) throws -> Int? {
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
