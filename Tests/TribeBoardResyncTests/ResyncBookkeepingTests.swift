import Foundation
import GRDB
import Logging
import Testing
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardResync
@testable import TribeBoardStore
@testable import TribeBoardRemote

/// What resync does with each kind of per-record error CloudKit answers.
@Suite("Resync bookkeeping")
struct ResyncBookkeepingTests {
    let folder: TemporaryDirectory
    let store: TribeBoardStore
    let resyncer: Resyncer

    init() throws {
        folder = try TemporaryDirectory("bookkeeping")
        store = try TribeBoardStore.openOrCreate(at: folder.file("s.sqlite")).store
        var configuration = CloudKitConfiguration()
        configuration.baseURL = "http://127.0.0.1:9"
        let client = CloudKitClient(configuration: configuration, signer: nil, logger: Logger(label: "t") { _ in SwiftLogNoOpLogHandler() })
        var backoff = SyncBackoff()
        backoff.maxAttempts = 3
        resyncer = Resyncer(store: store, client: client, logger: Logger(label: "t") { _ in SwiftLogNoOpLogHandler() }, backoff: backoff)
        try store.writer.write { db in
            try db.execute(sql: """
                INSERT INTO families (id, name, code, created_by_user_id, created_at) VALUES ('F1', 'One', 'ABCDEF', 'U1', '2026-11-01T00:00:00.000Z');
                INSERT INTO user_profiles (id, display_name, created_at) VALUES ('U1', 'Admin', '2026-11-01T00:00:00.000Z');
                INSERT INTO memberships (id, family_id, user_id, role, status, joined_at) VALUES ('M1', 'F1', 'U1', 'parent_admin', 'active', '2026-11-01T00:00:00.000Z');
                """)
        }
    }

    /// A pending row as resync reads it.
    func read(_ table: SyncTable, _ id: String) throws -> PendingRow {
        let row = try store.writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM \(table.rawValue) WHERE id = ?", arguments: [id]) }
        return try PendingRow(table, try #require(row))
    }

    func error(_ code: String) -> CloudKitRecordError {
        CloudKitRecordError(recordName: "R", reason: "because", serverErrorCode: code, retryAfter: nil, uuid: nil)
    }

    @Test(arguments: ["BAD_REQUEST", "QUOTA_EXCEEDED", "NOT_FOUND"])
    func dataErrorsQuarantineAtOnce(code: String) throws {
        try SyncBookkeeping(store: store).record(resyncer.outcome(for: error(code)), row: read(.families, "F1"), at: .now)
        let entry = try #require(try store.syncEntries().first)
        #expect(entry.status == "quarantined" && entry.attempts == 1 && entry.lastError?.hasPrefix(code) == true)
    }

    @Test(arguments: ["INTERNAL_ERROR", "VALIDATING_REFERENCE_ERROR"])
    func transientErrorsWaitWithGrowingBackoffThenQuarantine(code: String) throws {
        let bookkeeping = SyncBookkeeping(store: store)
        let start = Timestamp(milliseconds: 1_800_000_000_000)
        var waits: [Double] = []
        for attempt in 1...2 {
            try bookkeeping.record(resyncer.outcome(for: error(code)), row: read(.memberships, "M1"), at: start)
            let entry = try #require(try store.syncEntries().first)
            #expect(entry.status == "retrying" && entry.attempts == attempt)
            let next = try #require(entry.nextAttemptAt).date
            waits.append(next.timeIntervalSince(start.date))
        }
        #expect(waits[1] > waits[0], "the wait grows: \(waits)")
        try bookkeeping.record(resyncer.outcome(for: error(code)), row: read(.memberships, "M1"), at: start)
        let last = try #require(try store.syncEntries().first)
        #expect(last.status == "quarantined" && last.attempts == 3, "not retried forever")
    }

    /// A container throttled for hours must not leave healthy records for a person to release.
    @Test(arguments: ["THROTTLED", "TRY_AGAIN_LATER"])
    func cloudKitsLoadWaitsWithoutQuarantine(code: String) throws {
        let bookkeeping = SyncBookkeeping(store: store)
        let start = Timestamp(milliseconds: 1_800_000_000_000)
        var waits: [Double] = []
        for attempt in 1...(resyncer.backoff.maxAttempts + 3) {
            try bookkeeping.record(resyncer.outcome(for: error(code)), row: read(.memberships, "M1"), at: start)
            let entry = try #require(try store.syncEntries().first)
            #expect(entry.status == "retrying" && entry.attempts == attempt, "attempt \(attempt): \(entry.status)")
            let next = try #require(entry.nextAttemptAt).date
            waits.append(next.timeIntervalSince(start.date))
        }
        #expect(waits[1] > waits[0], "the wait grows: \(waits)")
        #expect(waits.allSatisfy { $0 <= 6 * 3600 }, "and stays within the 6-hour cap: \(waits)")
    }
}
