import Foundation
import GRDB
import Logging
import Testing
import TribeBoardProjectFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor
@testable import TribeBoardStore

/// Sections 2, 3 and 5 against stores built to fail: missing, damaged, loose permissions, a killed
/// creation, uploads that keep failing. No remote configured, so nothing leaves the machine.
@Suite("Doctor: store and family creations")
struct DoctorStoreTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }

    func report(_ store: String, staleAfter: TimeInterval = 24 * 3600) async -> DoctorReport {
        var request = DoctorRequest(storePath: store, remote: .success(CloudKitConfiguration()))
        request.staleAfter = staleAfter
        return await Doctor(request: request, logger: Self.logger).run()
    }

    func check(_ report: DoctorReport, _ id: String) throws -> DoctorCheck {
        try #require(report.checks.first { $0.id.rawValue == id }, "no check \(id) in \(report.checks.map(\.id))")
    }

    @Test func aMissingStoreIsAFailureAndIsNotCreated() async throws {
        let folder = try TemporaryDirectory("doctor-missing")
        let path = folder.file("none.sqlite")
        let report = await report(path)
        #expect(try check(report, "store.file").status == .failure)
        #expect(!FileManager.default.fileExists(atPath: path), "doctor never creates the store")
        #expect(!report.passed)
        #expect(report.fallback.mode == .localOnly, "provision could still create it; no key is configured")
        #expect(report.fallback.reason == .noKey)
    }

    @Test func damagedStoresAreNamedAndLeaveOnlyTheInMemoryFallback() async throws {
        let folder = try TemporaryDirectory("doctor-damaged")
        for path in [try DoctorFixtures.randomBytesStore(in: folder), try DoctorFixtures.truncatedStore(in: folder)] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let report = await report(path)
            let failed = report.checks.filter { $0.section == .store && $0.status == .failure }
            #expect(!failed.isEmpty, "\(path): \(report.checks.map { "\($0.id) \($0.status) \($0.found)" })")
            #expect(failed.contains { $0.found.contains("damaged") || $0.found.contains("not a database") }, "\(failed.map(\.found))")
            #expect(report.fallback.mode == .inMemory)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is left as it was")
        }
    }

    @Test func aHealthyStoreIsUnchangedAndReportsItsState() async throws {
        let folder = try TemporaryDirectory("doctor-healthy")
        let path = folder.file("s.sqlite")
        try DoctorFixtures.createAndClose(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = await report(path)
        for id in ["store.file", "store.integrity", "store.migrations", "store.journalMode", "store.permissions"] {
            #expect(try check(report, id).status == .ok, "\(id)")
        }
        #expect(try check(report, "store.journalMode").found == "wal")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(report.passed, "\(report.checks.filter { $0.status == .failure })")
    }

    @Test func aStoreOthersCanReadIsAWarning() async throws {
        let folder = try TemporaryDirectory("doctor-mode")
        let path = folder.file("s.sqlite")
        try DoctorFixtures.createAndClose(path)
        chmod(path, 0o644)
        let check = try check(await report(path), "store.permissions")
        #expect(check.status == .warning)
        #expect(check.action?.contains("chmod 600") == true)
    }

    @Test func pendingMigrationsAreAWarning() async throws {
        let folder = try TemporaryDirectory("doctor-migrations")
        let path = folder.file("old.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(queue, upTo: "v1-app-models-and-creation-log")
        let report = await report(path)
        let check = try check(report, "store.migrations")
        #expect(check.status == .warning)
        #expect(check.found.contains("v2-remote-code-verification") && check.found.contains("v3-sync-state"))
        #expect(try self.check(report, "creations.syncFailures").status == .ok, "no sync_state table yet is not an error")
    }

    @Test func aKilledCreationAndStuckUploadsAreFoundWithCountsAndSamples() async throws {
        let folder = try TemporaryDirectory("doctor-stuck")
        let fixture = try DoctorFixtures.killedCreationStore(in: folder)
        let report = await report(fixture.path)

        let incomplete = try check(report, "creations.incomplete")
        #expect(incomplete.status == .failure && incomplete.count == 1)
        #expect(incomplete.sample.first?.familyID == fixture.killedID)
        #expect(incomplete.sample.first?.code == fixture.killedCode, "codes are data in the report")
        #expect(incomplete.sample.first?.detail.contains("stopped at creatingLocally") == true)

        let failures = try check(report, "creations.syncFailures")
        #expect(failures.status == .failure && failures.count == 1)
        #expect(failures.sample.first?.detail.contains(fixture.quarantineError) == true, "the last error is shown")

        let pending = try check(report, "creations.pendingSync")
        #expect(pending.status == .failure && pending.count == 1, "only the stale family; the quarantined one is reported above")
        #expect(pending.sample.map(\.familyID) == [fixture.staleID])

        let admin = try check(report, "creations.parentAdmin")
        #expect(admin.status == .warning && admin.count == 1, "an invited admin is fine")
        #expect(admin.sample.first?.familyID == fixture.killedID)
        #expect(!report.passed)
    }

    @Test func bigListsAreACountAndASmallSample() async throws {
        let folder = try TemporaryDirectory("doctor-sample")
        let path = folder.file("many.sqlite")
        try DoctorFixtures.createAndClose(path)
        try Self.insertFamiliesWithoutAdmin(40, into: path)
        var request = DoctorRequest(storePath: path, remote: .success(CloudKitConfiguration()))
        request.sampleSize = 3
        let report = await Doctor(request: request, logger: Self.logger).run()
        let admin = try check(report, "creations.parentAdmin")
        #expect(admin.count == 40 && admin.sample.count == 3)
    }

    @Test func valuesOfTheWrongTypeAreShownNotTrappedOn() async throws {
        let folder = try TemporaryDirectory("doctor-types")
        let path = folder.file("edited.sqlite")
        try DoctorFixtures.createAndClose(path)
        // What a hand edit in sqlite3 can leave: blobs in text columns, words in number columns.
        try Self.execute(path, """
            INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync) VALUES ('F1', X'00FF', 'ODD234', 'U', X'01', 1);
            INSERT INTO creation_log (family_id, state, progress, at) VALUES ('F1', 'idle', 0, X'02');
            INSERT INTO sync_state (record_table, record_id, status, attempts, last_error) VALUES ('families', 'F1', 'retrying', 'many', X'03');
            """)
        let report = await report(path)
        #expect(report.checks.first { $0.id == .creationsIncomplete }?.sample.first?.familyID == "F1")
        let family = await FamilyDoctor(request: DoctorRequest(storePath: path, remote: .success(CloudKitConfiguration())),
                                        query: "odd234", logger: Self.logger).run()
        #expect(family.family?.name == "?" && family.family?.id == "F1")
    }

    /// Synchronous: GRDB's blocking write must not run on the test's async context.
    static func execute(_ path: String, _ sql: String) throws {
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
    }

    static func insertFamiliesWithoutAdmin(_ count: Int, into path: String) throws {
        try DatabaseQueue(path: path).write { db in
            for index in 0..<count {
                try db.execute(sql: "INSERT INTO families (id, name, code, created_by_user_id, created_at) VALUES (?, 'F', ?, 'U', '2020-01-01T00:00:00.000Z')",
                               arguments: [String(format: "ID%04d", index), String(format: "C%05d", index)])
            }
        }
    }

    @Test func theThresholdDecidesBetweenWaitingAndStale() async throws {
        let folder = try TemporaryDirectory("doctor-threshold")
        let fixture = try DoctorFixtures.killedCreationStore(in: folder)
        let patient = try check(await report(fixture.path, staleAfter: 7 * 86_400), "creations.pendingSync")
        #expect(patient.status == .warning, "\(patient.found)")
    }
}
