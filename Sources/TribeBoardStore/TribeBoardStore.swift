import Foundation
import GRDB
import TribeBoardSupport

package enum StoreError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case notAStore(path: String, reason: String)
    case newerSchema(path: String, unknownMigrations: [String])
    case writeFailed(reason: String)
    case readFailed(reason: String)
    case busy(path: String, holders: [String])
    /// Something other than a plain file stands at the store's path.
    case notAFile(path: String, kind: NotAFile)
    /// A value edited by hand into one the store's format does not allow (a blob, NULL, a date
    /// that is not ISO 8601, an unknown status): the run stops rather than guess, naming the row.
    case unreadableValue(table: String, rowID: String, column: String, found: String)

    package enum NotAFile: String, Sendable, Equatable {
        case symbolicLink = "it is a symbolic link, which the toolkit does not follow; give the real file's path"
        case folder = "it is a folder; --store takes the store file's path"
        case special = "it is not a regular file (a device, a pipe or a socket)"
    }

    /// The column that names a row of `table` in an error.
    private static func keyColumn(of table: String) -> String {
        switch table {
        case "sync_state": return "record_id"
        case "toolkit_meta": return "key"
        case "migration_checkpoint": return "source_name"
        default: return "id"
        }
    }

    package var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the store \(path): \(reason)"
        case .notAFile(let path, let kind):
            return "cannot open the store \(path): \(kind.rawValue)"
        case .notAStore(let path, let reason):
            return "\(path) is not a TribeBoard store or is damaged: \(reason)"
        case .newerSchema(let path, let unknown):
            return "\(path) was written by a newer TribeBoard Ops (migrations \(unknown.joined(separator: ", "))); upgrade the toolkit"
        case .writeFailed(let reason):
            return "cannot write to the store: \(reason)"
        case .readFailed(let reason):
            return "cannot read the store: \(reason)"
        case .unreadableValue(let table, "?", let column, let found):
            // The row's own id is what is damaged: sqlite3 finds it by its type.
            let key = Self.keyColumn(of: table)
            let query = "SELECT rowid, typeof(\(key)) FROM \(table) WHERE typeof(\(key)) != 'text' "
                + "OR instr(\(key), char(0)) > 0"
            return "cannot read the store: a row of \(table) has \(found) in \(column), which the store's format "
                + "does not allow; find it with sqlite3 (`\(query)`) and correct it, or restore a backup"
        case .unreadableValue(let table, let rowID, let column, let found):
            let name = rowID.replacingOccurrences(of: "'", with: "''")
            let query = "SELECT * FROM \(table) WHERE \(Self.keyColumn(of: table)) = '\(name)'"
            return "cannot read the store: \(table) row \(rowID) has \(found) in \(column), which the store's format "
                + "does not allow; correct it with sqlite3 (`\(query)`) or restore a backup"
        case .busy(let path, let holders):
            let who = holders.isEmpty ? "no provision or resync run of this toolkit holds it (sqlite3 or another program may)"
                : holders.joined(separator: "; ")
            return "the store \(path) is busy: another process kept it locked for writing longer than this run "
                + "waits (\(Int(StoreHolders.busyTimeout)) s); \(who). Run again when it has finished"
        }
    }
}

/// The local SQLite store: one file in WAL mode, migrated on open for writing.
package struct TribeBoardStore: Sendable {
    package let path: String
    /// The raw GRDB writer: the store's own files only (tests reach it through `@testable`).
    /// Every other module reads and writes through the store's intent-named operations.
    let writer: any DatabaseWriter

    /// Why a command other than `provision` stops at a path where no store is: a mistyped
    /// `--store` or `TRIBEBOARD_STORE` must not become a new empty store that every run reads as
    /// "nothing to do".
    /// The command that makes an empty store (provision of a CSV of only its header line) runs
    /// as printed in a shell, for this path.
    package static func missingReason(_ path: String) -> String {
        "no such file (check --store or TRIBEBOARD_STORE; provision creates a store, an empty one with `\(createCommand(path))`)"
    }

    /// The shell command that makes an empty store at `path`: provision of a CSV of only its header.
    /// A folder that does not exist is made first (`provision` makes the store, not its folder).
    package static func createCommand(_ path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let mkdir = FileManager.default.fileExists(atPath: folder) ? "" : ShellWords.command(["mkdir", "-p", "--", folder]) + " && "
        return mkdir + "echo family_name | " + ShellWords.command(["tribeboard", "provision", "-"] + ShellWords.option("--store", path))
    }

    /// Opens and migrates an existing store for writing, serialized with other processes opening
    /// it (see `OpenLock`); a path where nothing is stops the run (`missingReason`). Only
    /// `provision` creates a store, through `openOrCreate`.
    package static func open(at path: String) throws(StoreError) -> TribeBoardStore {
        try identify(at: path, mustExist: true)
        return try openIdentified(at: path)
    }

    /// `provision`'s open: creates the store when nothing is at `path`, and says so.
    package static func openOrCreate(at path: String) throws(StoreError) -> (store: TribeBoardStore, created: Bool) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw .cannotOpen(path: path, reason: "the folder \(directory) does not exist")
        }
        try identify(at: path, mustExist: false)
        let created = createOwnerOnly(path)
        return (try openIdentified(at: path), created)
    }

    private static func openIdentified(at path: String) throws(StoreError) -> TribeBoardStore {
        do {
            return try OpenLock.holding(storePath: path) { try openAndMigrate(at: path) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw classify(error, path: path)
        }
    }

    private static func openAndMigrate(at path: String) throws -> TribeBoardStore {
        var configuration = Configuration()
        // Concurrent provision runs serialize on SQLite's write lock; a batch holds it briefly.
        configuration.busyMode = .timeout(StoreHolders.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // Savepoint journals in memory: on disk, each family's savepoint cost dozens of writes.
            // Random ids and codes spread inserts over every index page; the writer's 64 MB page
            // cache keeps them resident instead of re-reading and spilling them in every bulk
            // batch. A reader's pages are read once (a count, a page of pending rows) and the OS
            // caches the file: a reader cache as large only added its 64 MB to the writer's.
            // Checkpoints are rare during a bulk run (each one fsyncs twice on the critical path)
            // and `checkpoint()` folds the WAL back at the end.
            let cacheKiB = db.configuration.readonly ? 8192 : 65536
            try db.execute(sql: """
                PRAGMA temp_store = MEMORY; PRAGMA cache_size = -\(cacheKiB); PRAGMA wal_autocheckpoint = 16384
                """)
        }
        let store = TribeBoardStore(path: path, writer: try DatabasePool(path: path, configuration: configuration))
        try store.checkSchemaIsKnown()
        try StoreSchema.migrator.migrate(store.writer)
        return store
    }

    /// Looks at what is at `path` without changing anything, before anything opens it for writing:
    /// SQLite alone would switch another application's database to WAL, and create a journal
    /// beside a device (`/dev/full-journal`), before our schema check could refuse them. Nothing
    /// there is refused when `mustExist` (every command but `provision`); an empty file is a store
    /// another run is creating.
    package static func identify(at path: String, mustExist: Bool = true) throws(StoreError) {
        guard let size = try regularFileSize(at: path) else {
            if mustExist { throw .cannotOpen(path: path, reason: missingReason(path)) }
            return
        }
        guard size > 0 else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw .notAStore(path: path, reason: "it is not an SQLite database")
        }
        // Reading through a read-only connection is what the schema check needs, and all it does.
        _ = try openReadOnly(at: path)
    }

    /// The size of the plain file at `path`, nil when nothing is there; a link, folder, device,
    /// pipe or socket is refused by name (SQLite would follow the link, or fail on the others
    /// with "disk I/O error" or "no such table").
    private static func regularFileSize(at path: String) throws(StoreError) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return Int64(status.st_size)
        case S_IFLNK: throw .notAFile(path: path, kind: .symbolicLink)
        case S_IFDIR: throw .notAFile(path: path, kind: .folder)
        default: throw .notAFile(path: path, kind: .special)
        }
    }

    /// The store holds family codes: a new one is created readable by its owner only, before
    /// SQLite opens it (SQLite gives the -wal and -shm files the same mode).
    /// True when this call created the file.
    private static func createOwnerOnly(_ path: String) -> Bool {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Opens an existing store without writing to it (no migration, no WAL checkpoint): a store
    /// type without write operations.
    package static func openReadOnly(at path: String) throws(StoreError) -> ReadOnlyStore {
        guard try regularFileSize(at: path) != nil else {
            throw .cannotOpen(path: path, reason: missingReason(path))
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && StoreFiles.onReadOnlyFileSystem(path) {
                // A store on a read-only file system (a backup snapshot) cannot get the -shm file a
                // WAL store is read through; nothing can change it there, so SQLite may read it as
                // immutable (a URI filename: Debian's SQLite is built with SQLITE_USE_URI).
                queue = try DatabaseQueue(path: immutableURI(path), configuration: configuration)
            }
            let store = ReadOnlyStore(path: path, connection: StoreConnection(reader: queue))
            try store.checkSchemaIsKnown()
            return store
        } catch let error as StoreError {
            throw error
        } catch {
            throw classify(error, path: path)
        }
    }

    /// `file:` + the path with the characters a URI gives a meaning escaped, `?immutable=1`.
    private static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...0xFF:
                escaped += String(format: "%%%02X", byte)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:\(escaped)?immutable=1"
    }
}

extension StoreReading {
    /// Refuses another application's SQLite file (migrating it would add our tables to it) and a
    /// store migrated by a newer toolkit (writing to it could break rules we do not know).
    func checkSchemaIsKnown() throws(StoreError) {
        let applied: Set<String>
        let tables: [String]
        do {
            (applied, tables) = try reader.read { db in
                // No grdb_migrations yet (nor any table): a store another process is creating right
                // now, seen by `identify` before this run waits for the open lock.
                (try db.tableExists("grdb_migrations") ? try StoreSchema.migrator.appliedIdentifiers(db) : [],
                 // grdb_migrations alone is a store another process is creating right now.
                 try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master
                    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                    """))
            }
        } catch {
            throw TribeBoardStore.classify(error, path: path)
        }
        if !tables.isEmpty && applied.isEmpty {
            let names = tables.prefix(5).joined(separator: ", ")
            throw .notAStore(path: path, reason: "it is an SQLite database of another application (tables \(names))")
        }
        let known = Set(StoreSchema.migrator.migrations)
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { throw .newerSchema(path: path, unknownMigrations: unknown) }
    }
}

extension TribeBoardStore {
    package static func classify(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let databaseError = error as? DatabaseError else {
            return .cannotOpen(path: path, reason: StoreError.reason(error))
        }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .notAStore(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .writing(error, store: path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR:
            let reason = databaseError.message ?? "\(databaseError.resultCode)"
            return .cannotOpen(path: path, reason: StoreFiles.writeProblem(path: path).map { "\(reason): \($0)" } ?? reason)
        default:
            return .cannotOpen(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        }
    }
}

extension TribeBoardStore {
    /// Copies what it can of the WAL back into the store file, without waiting: a TRUNCATE
    /// checkpoint holds the write lock while it waits for readers, which starved a concurrent run.
    /// SQLite folds the rest in when the last connection closes.
    package func checkpoint() {
        _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    package struct PendingSyncCounts: Sendable, Encodable, Equatable {
        package let families: Int
        package let userProfiles: Int
        package let memberships: Int
        package var total: Int { families + userProfiles + memberships }

        package init(families: Int, userProfiles: Int, memberships: Int) {
            self.families = families
            self.userProfiles = userProfiles
            self.memberships = memberships
        }
    }
}

extension StoreReading {
    /// Records waiting for `resync`, across the whole store.
    package func pendingSyncCounts() throws(StoreError) -> TribeBoardStore.PendingSyncCounts {
        do {
            return try reader.read { db in
                // Rows awaiting their person (an admin invited without a hash) are not waiting for resync.
                func count(_ table: SyncTable) throws -> Int {
                    try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(table.rawValue) t WHERE t.needs_sync = 1 \(AwaitingPerson.excluded(table))
                        """) ?? 0
                }
                return TribeBoardStore.PendingSyncCounts(families: try count(.families),
                                         userProfiles: try count(.userProfiles),
                                         memberships: try count(.memberships))
            }
        } catch {
            throw .readFailed(reason: StoreError.reason(error))
        }
    }
}
