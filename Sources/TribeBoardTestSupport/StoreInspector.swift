import Foundation
import GRDB

/// Reads a store the way a support engineer would with sqlite3, independently of the core's API.
package struct StoreInspector {
    let queue: DatabaseQueue

    package init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        // A store a command has just closed may still be checkpointing its WAL: wait, as sqlite3
        // users do with .timeout, instead of failing with "database is locked".
        configuration.busyMode = .timeout(10)
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    package func count(_ sql: String) throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    package func strings(_ sql: String) throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: sql) }
    }

    package func rows(_ sql: String) throws -> [[String: String]] {
        try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                var values: [String: String] = [:]
                for column in row.columnNames { values[column] = row[column].map { "\($0)" } }
                return values
            }
        }
    }
}
