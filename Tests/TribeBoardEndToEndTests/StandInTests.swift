import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// The real binaries against the independent stand-in (Tests/StandIn), not the emulator: the
/// signature check is openssl's, the roles and name rules are read from Apple's reference by
/// someone who did not write the emulator.
@Suite struct StandInTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let sampleCSV = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Templates/families.csv").standardized.path

    func families(_ client: CloudKitClient) async throws -> [CloudKitRecord] {
        var found: [CloudKitRecord] = []
        try await client.queryAll(CloudKitQuery(recordType: "Family")) { page in
            for case .record(let record) in page { found.append(record) }
        }
        return found
    }

    @Test func provisionSyncsEveryFamilyAndTheAuditFindsThemAll() async throws {
        let standIn = try StandInServer.start()
        defer { standIn.stop() }
        let directory = try TemporaryDirectory("standin-provision")
        let provision = try await ProcessRunner.runAsync(
            tribeboard, ["provision", sampleCSV, "--store", "s.sqlite", "--out", "out", "--sync", "--json"] + standIn.remoteArguments,
            in: directory.path)
        #expect(provision.status == 0, "\(provision.stderr)")

        let remote = try await families(try standIn.client())
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        let local = try store.rows("SELECT id, code FROM families")
        #expect(remote.count == local.count)
        #expect(Set(remote.map(\.recordName)) == Set(local.compactMap { $0["id"] }))
        #expect(Set(remote.compactMap { $0.string("code") }) == Set(local.compactMap { $0["code"] }))

        let audit = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json"] + standIn.remoteArguments,
                                                     in: directory.path)
        let report = try audit.report(AuditReportMirror.self)
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(report.errors == 0)
    }

    func create(_ client: CloudKitClient, _ name: String) async throws -> CloudKitRecordResult {
        let results = try await client.modify([CloudKitOperation(.create, CloudKitRecord(
            recordName: name, recordType: "Family", fields: ["code": .string("ABC234")]))])
        return try #require(results.first)
    }

    func refusal(_ result: CloudKitRecordResult) -> String? {
        if case .failure(let error) = result { return error.serverErrorCode }
        return nil
    }

    @Test func callerIdentityRepeatedCreatesAndReservedNames() async throws {
        let standIn = try StandInServer.start()
        defer { standIn.stop() }
        let client = try standIn.client()
        let caller = try await client.caller()
        #expect(caller.userRecordName == "_developer_\(standIn.keyID)")
        let first = try await create(client, "standin-probe")
        guard case .record(let record) = first else {
            Issue.record("create failed: \(first)")
            throw CancellationError()
        }
        #expect(record.created?.userRecordName == caller.userRecordName)
        #expect(refusal(try await create(client, "standin-probe")) == "EXISTS")
        #expect(refusal(try await create(client, "_reserved")) == "BAD_REQUEST")
        #expect(refusal(try await create(client, String(repeating: "a", count: 256))) == "BAD_REQUEST")
    }
}
