import Foundation
import GRDB
import TribeBoardStore
import TribeBoardProjectFixtures
import TribeBoardDomain
import TribeBoardTestSupport

/// The doctor's stores, built through the store API plus SQL (a killed creation, a corrupted file).
extension DoctorFixtures {
    /// What `killedCreationStore` put in the store, for assertions.
    package struct StuckStore: Sendable {
        package let path: String
        /// Logged up to creatingLocally, then the process died: no completed row, no admin.
        package let killedID: String
        package let killedCode: String
        /// Waiting for sync for three days.
        package let staleID: String
        /// Quarantined by resync after repeated failures.
        package let quarantinedID: String
        package let quarantineError: String
        /// Complete, with an invited admin: nothing to report.
        package let healthyID: String
        package let healthyCode: String
    }

    static let admin = "11111111-1111-4111-8111-111111111111"

    /// A migrated store holding one family of each kind doctor reports.
    package static func killedCreationStore(in folder: TemporaryDirectory, now: Date = Date())
        throws -> StuckStore
    {
        let path = folder.file("stuck.sqlite")
        _ = try TribeBoardStore.openOrCreate(at: path).store
        let fixture = StuckStore(
            path: path, killedID: "0192F0A0-0000-7000-8000-000000000001",
            killedCode: "KLD234", staleID: "0192F0A0-0000-7000-8000-000000000002",
            quarantinedID: "0192F0A0-0000-7000-8000-000000000003",
            quarantineError: "CloudKit answered QUOTA_EXCEEDED (HTTP 413): quota",
            healthyID: "0192F0A0-0000-7000-8000-000000000004", healthyCode: "HLT234")
        let recent = Timestamp(now.addingTimeInterval(-600))
        let old = Timestamp(now.addingTimeInterval(-3 * 86_400))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO user_profiles (id, display_name, created_at) VALUES (?, 'Ada', ?)",
                arguments: [admin, old])
            for (id, code, created) in [
                (fixture.killedID, fixture.killedCode, recent), (fixture.staleID, "STL234", old),
                (fixture.quarantinedID, "QRT234", old),
                (fixture.healthyID, fixture.healthyCode, recent)
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync) VALUES (?, ?, ?, ?, ?, 1)
                        """, arguments: [id, "Family \(code)", code, admin, created])
                let states =
                    id == fixture.killedID
                    ? ["idle", "validating", "generatingCode", "creatingLocally"]
                    : ["idle", "validating", "generatingCode", "creatingLocally", "completed"]
                for state in states {
                    try db.execute(sql: "INSERT INTO creation_log (family_id, state, progress, at) VALUES (?, ?, 0, ?)",
                                   arguments: [id, state, created])
                }
                guard id != fixture.killedID else { continue }
                try db.execute(sql: """
                    INSERT INTO memberships (id, family_id, user_id, role, status, joined_at) VALUES (?, ?, ?, 'parent_admin', 'invited', ?)
                    """, arguments: [UUID().uuidString, id, admin, created])
            }
            try db.execute(sql: """
                INSERT INTO sync_state (record_table, record_id, status, attempts, last_error, last_attempt_at)
                VALUES ('families', ?, 'quarantined', 1, ?, ?)
                """, arguments: [fixture.quarantinedID, fixture.quarantineError, recent])
        }
        return fixture
    }

    /// Bytes that are no SQLite file at all (seeded, so every run sees the same garbage).
    package static func randomBytesStore(in folder: TemporaryDirectory) throws -> String {
        var generator = SplitMix(seed: 42)
        let bytes = (0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let path = folder.file("garbage.sqlite")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A real store cut short inside its first page: the header survives, the schema does not.
    package static func truncatedStore(in folder: TemporaryDirectory) throws -> String {
        let path = folder.file("truncated.sqlite")
        try createAndClose(path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        try data.prefix(200).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension DoctorFixtures {
    /// Returns once the store's connections are closed (SQLite folds the WAL back in then).
    package static func createAndClose(_ path: String) throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        store.checkpoint()
    }
}

/// A tiny deterministic generator for fixture bytes.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
