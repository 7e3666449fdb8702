import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A live CloudKit record whose creation date no clock can hold, through the real binary.
@Suite struct AuditHostileLiveTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// A folder with a store of `families` provisioned offline.
    func provisioned(_ families: Int, _ name: String) async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(name)
        try directory.write("in.csv", CSVFixtures.families(count: families))
        let provisioned = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        return directory
    }

    @Test func aLiveRecordDated1e300IsAFindingNotACrash() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try await provisioned(1, "audit-hostile-live")
        let family = try #require(try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id, code FROM families").first)
        var broken = SnapshotFixture.family(code: family["code"] ?? "", name: "Broken clock")
        broken.fields?["createdAt"] = CloudKitRecord.Field(value: .number(1e300), type: "TIMESTAMP")
        await fixture.emulator.seed([broken], container: CloudKitConfiguration.defaultContainer)

        let audit = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json", "--repair"] + fixture.remoteArguments,
                                                     in: directory.path)
        #expect(audit.status == 1, "findings, not a trap: \(audit.stderr)")
        let report = try audit.report(AuditReportMirror.self)
        let counts = report.counts
        #expect(counts["invalid-value"] == 1 && counts["duplicate-local-remote"] == 1, "\(counts)")
        let repair = report.repair
        #expect(repair?.changes.isEmpty == true, "the local family, with a real date, keeps its code")
        #expect(repair?.manual.first?.recordName == broken.recordName)
    }

    /// The same records read live and from the snapshot that read exported are the same findings,
    /// word for word: a record with an empty name, a code that is a NUMBER.
    @Test func theLiveAuditAndTheAuditOfItsSnapshotAgree() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try await provisioned(2, "audit-live-snapshot")
        let nameless = SnapshotFixture.family(id: "", code: "NONAME2", name: "No name")
        var numeric = SnapshotFixture.family(code: "NUM234", name: "Numeric code")
        numeric.fields?["code"] = CloudKitRecord.Field(value: .number(123_456), type: "NUMBER")
        await fixture.emulator.seed([nameless, numeric, SnapshotFixture.family(code: "GOOD23", name: "Fine")], container: CloudKitConfiguration.defaultContainer)

        let live = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json", "--export-remote", "remote.jsonl"] + fixture.remoteArguments,
                                                    in: directory.path)
        let fromSnapshot = try await ProcessRunner.runAsync(tribeboard, ["audit", "--store", "s.sqlite", "--json", "--remote-snapshot", "remote.jsonl"],
                                                            in: directory.path)
        #expect(live.status == fromSnapshot.status, "\(live.stderr)\n\(fromSnapshot.stderr)")
        func findings(_ result: ProcessRunner.Result) throws -> [String] {
            return try result.report(AuditReportMirror.self).findings.map { "\($0.category): \($0.message)" }.sorted()
        }
        let liveFindings = try findings(live)
        #expect(liveFindings == (try findings(fromSnapshot)))
        #expect(liveFindings.contains("invalid-format: CloudKit Family record \(numeric.recordName) has a code field whose value is not a string"), "\(liveFindings)")
        #expect(liveFindings.contains { $0.hasPrefix("invalid-value: 1 CloudKit record has an empty record name") }, "\(liveFindings)")
    }
}

