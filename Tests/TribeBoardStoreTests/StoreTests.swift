import Foundation
import GRDB
import Testing
import TribeBoardTestSupport
@testable import TribeBoardStore

@Suite("TribeBoardStore")
struct StoreTests {
    let folder: TemporaryDirectory
    var path: String { folder.file("store.sqlite") }

    init() throws {
        folder = try TemporaryDirectory("store")
    }

    static func insertFamily(_ db: Database, id: String, code: String) throws {
        try db.execute(sql: """
            INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync)
            VALUES (?, 'Smith', ?, 'USER', '2025-01-01T00:00:00.000Z', 1)
            """, arguments: [id, code])
    }

    @Test func openCreatesTheSchema() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        #expect(FileManager.default.fileExists(atPath: path))
        let tables = try Set(StoreInspector(path: path).strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
        #expect(tables.isSuperset(of: ["families", "user_profiles", "memberships", "creation_log", "toolkit_meta"]))
        #expect(try store.pendingSyncCounts() == .init(families: 0, userProfiles: 0, memberships: 0))
    }

    @Test func storeUsesWAL() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        let mode = try store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        // The mode is persistent: a separate connection sees it too.
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func reopeningKeepsData() throws {
        do {
            let store = try TribeBoardStore.openOrCreate(at: path).store
            try store.writer.write { db in try Self.insertFamily(db, id: "F1", code: "ABC234") }
        }
        _ = try TribeBoardStore.openOrCreate(at: path).store
        #expect(try StoreInspector(path: path).count("SELECT COUNT(*) FROM families") == 1)
        #expect(try TribeBoardStore.openReadOnly(at: path).pendingSyncCounts().families == 1)
    }

    @Test func familyCodesAreUniqueInTheStore() throws {
        _ = try TribeBoardStore.openOrCreate(at: path).store
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try Self.insertFamily(db, id: "F1", code: "ABC234") }
        let error = #expect(throws: DatabaseError.self) {
            try queue.write { db in try Self.insertFamily(db, id: "F2", code: "ABC234") }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(try StoreInspector(path: path).count("SELECT COUNT(*) FROM families") == 1)
    }

    @Test func storeWrittenByANewerToolkitIsRefused() throws {
        _ = try TribeBoardStore.openOrCreate(at: path).store
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        }
        let expected = StoreError.newerSchema(path: path, unknownMigrations: ["v9-from-the-future"])
        #expect(throws: expected) { try TribeBoardStore.openOrCreate(at: path).store }
        #expect(throws: expected) { try TribeBoardStore.openReadOnly(at: path) }
    }

    @Test func fileOfRandomBytesIsNotAStore() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))
        for readOnly in [false, true] {
            let error = #expect(throws: StoreError.self) {
                if readOnly { _ = try TribeBoardStore.openReadOnly(at: path) } else { _ = try TribeBoardStore.openOrCreate(at: path).store }
            }
            guard case .notAStore(let reported, _) = error else {
                Issue.record("expected notAStore, got \(String(describing: error))")
                continue
            }
            #expect(reported == path)
        }
        // A file we refuse is left as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftUntouched() throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        }
        let error = #expect(throws: StoreError.self) { try TribeBoardStore.openOrCreate(at: path).store }
        guard case .notAStore(_, let reason) = error else {
            Issue.record("expected notAStore, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("invoices"))
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables == ["invoices"])
    }

    @Test func missingFolderCannotBeOpened() throws {
        let inMissingFolder = folder.file("no-such-folder/store.sqlite")
        let error = #expect(throws: StoreError.self) { try TribeBoardStore.openOrCreate(at: inMissingFolder).store }
        guard case .cannotOpen(let reported, _) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(reported == inMissingFolder)
        #expect(!FileManager.default.fileExists(atPath: folder.file("no-such-folder")))
    }

    @Test func openReadOnlyDoesNotCreateAMissingStore() throws {
        #expect(throws: StoreError.cannotOpen(path: path, reason: TribeBoardStore.missingReason(path))) {
            try TribeBoardStore.openReadOnly(at: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Every command but provision opens through `open`: a mistyped path is no new empty store.
    @Test func openForWritingRefusesAMissingStore() throws {
        #expect(throws: StoreError.cannotOpen(path: path, reason: TribeBoardStore.missingReason(path))) {
            try TribeBoardStore.open(at: path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(try TribeBoardStore.openOrCreate(at: path).created)
        #expect(try !TribeBoardStore.openOrCreate(at: path).created)
        _ = try TribeBoardStore.open(at: path)
    }

    @Test func readOnlyStoreRefusesWrites() throws {
        _ = try TribeBoardStore.openOrCreate(at: path).store
        // The read-only type has no write operation (the compiler refuses one); SQLite refuses a
        // write sent through its connection all the same.
        let store = try TribeBoardStore.openReadOnly(at: path)
        #expect(throws: DatabaseError.self) {
            try store.reader.unsafeRead { db in try Self.insertFamily(db, id: "F1", code: "ABC234") }
        }
    }
}

/// Read-only opens (audit, doctor, sheets, resync's checks) look at the path as the writing open
/// does: SQLite would follow a link, and answer "disk I/O error" for a folder or "no such table"
/// for a device.
@Suite("TribeBoardStore: what stands at the path")
struct StorePathKindTests {
    @Test(arguments: [false, true])
    func refusedByWhatItIs(readOnly: Bool) throws {
        let folder = try TemporaryDirectory("store-kinds")
        let store = folder.file("real.sqlite")
        _ = try TribeBoardStore.openOrCreate(at: store).store
        let link = folder.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        let cases: [(String, StoreError.NotAFile)] = [(link, .symbolicLink), (folder.path, .folder), ("/dev/full", .special)]
        for (path, kind) in cases {
            #expect(throws: StoreError.notAFile(path: path, kind: kind)) {
                if readOnly { _ = try TribeBoardStore.openReadOnly(at: path) } else { _ = try TribeBoardStore.openOrCreate(at: path).store }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/full-journal"))
    }
}
