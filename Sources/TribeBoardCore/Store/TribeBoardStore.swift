import Foundation
import GRDB

public enum StoreError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case notAStore(path: String, reason: String)
    case newerSchema(path: String, unknownMigrations: [String])
    case writeFailed(reason: String)
    case readFailed(reason: String)

    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the store \(path): \(reason)"
        case .notAStore(let path, let reason):
            return "\(path) is not a TribeBoard store or is damaged: \(reason)"
        case .newerSchema(let path, let unknown):
            return "\(path) was written by a newer TribeBoard Ops (migrations \(unknown.joined(separator: ", "))); upgrade the toolkit"
        case .writeFailed(let reason):
            return "cannot write to the store: \(reason)"
        case .readFailed(let reason):
            return "cannot read the store: \(reason)"
        }
    }
}

/// The local SQLite store: one file in WAL mode, migrated on open for writing.
public struct TribeBoardStore: Sendable {
    public let path: String
    let writer: any DatabaseWriter

    /// Opens (creating when missing) and migrates the store for writing.
    public static func open(at path: String) throws(StoreError) -> TribeBoardStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw .cannotOpen(path: path, reason: "the folder \(directory) does not exist")
        }
        var configuration = Configuration()
        // Concurrent provision runs serialize on SQLite's write lock; a batch holds it briefly.
        configuration.busyMode = .timeout(60)
        configuration.foreignKeysEnabled = true
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw classify(error, path: path)
        }
        let store = TribeBoardStore(path: path, writer: pool)
        try store.migrate()
        return store
    }

    /// Opens an existing store without writing to it (no migration, no WAL checkpoint).
    public static func openReadOnly(at path: String) throws(StoreError) -> TribeBoardStore {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let store = TribeBoardStore(path: path, writer: queue)
            try store.checkSchemaIsKnown()
            return store
        } catch let error as StoreError {
            throw error
        } catch {
            throw classify(error, path: path)
        }
    }

    private func migrate() throws(StoreError) {
        try checkSchemaIsKnown()
        do {
            try StoreSchema.migrator.migrate(writer)
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Refuses a store migrated by a newer toolkit: writing to it could break rules we do not know.
    private func checkSchemaIsKnown() throws(StoreError) {
        let applied: Set<String>
        do {
            applied = try writer.read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
        } catch {
            throw Self.classify(error, path: path)
        }
        let known = Set(StoreSchema.migrator.migrations)
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { throw .newerSchema(path: path, unknownMigrations: unknown) }
    }

    static func classify(_ error: any Error, path: String) -> StoreError {
        guard let databaseError = error as? DatabaseError else {
            return .cannotOpen(path: path, reason: "\(error)")
        }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .notAStore(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        default:
            return .cannotOpen(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        }
    }
}

extension TribeBoardStore {
    public struct PendingSyncCounts: Sendable, Encodable, Equatable {
        public let families: Int
        public let userProfiles: Int
        public let memberships: Int
        public var total: Int { families + userProfiles + memberships }
    }

    /// Records waiting for `resync`, across the whole store.
    public func pendingSyncCounts() throws(StoreError) -> PendingSyncCounts {
        do {
            return try writer.read { db in
                func count(_ table: String) throws -> Int {
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE needs_sync = 1") ?? 0
                }
                return PendingSyncCounts(families: try count("families"),
                                         userProfiles: try count("user_profiles"),
                                         memberships: try count("memberships"))
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }
}
