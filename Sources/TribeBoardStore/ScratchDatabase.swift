import Foundation
import GRDB

/// A run's scratch tables in SQLite's anonymous temporary database (path ""): on disk rather than
/// in memory, so that memory does not grow with the input, yet unlinked from the start, so that
/// neither other users nor a kill -9 ever see what it holds (codes, names).
enum ScratchDatabase {
    static func open(for purpose: String, schema: String) throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Losing it in a crash loses nothing, so skip durability work; one process only, so
            // skip the file locks every transaction takes.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
        }
        do {
            let queue = try DatabaseQueue(path: "", configuration: configuration)
            try queue.write { db in try db.execute(sql: schema) }
            return queue
        } catch {
            throw .cannotOpen(path: "a temporary file", reason: "scratch database for \(purpose): \(error)")
        }
    }
}
