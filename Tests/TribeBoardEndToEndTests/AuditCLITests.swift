import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `tribeboard audit` as an operator runs it: the real binary, a store, a snapshot or the emulator.
@Suite struct AuditCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    func provisioned(_ families: Int) async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("audit-cli")
        try directory.write("in.csv", CSVFixtures.families(count: families))
        let result = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(result.status == 0, "\(result.stderr)")
        return directory
    }

    func codes(_ directory: TemporaryDirectory) throws -> [(id: String, code: String)] {
        try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id, code FROM families ORDER BY source_line")
            .map { ($0["id"] ?? "", $0["code"] ?? "") }
    }

    @Test func liveAuditExportRepairResyncThenClean() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try await provisioned(3)
        let synced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        try #require(synced.status == 0, "\(synced.stderr)")
        let families = try codes(directory)
        // A family created in the app years ago holds the code the toolkit gave family 2.
        await fixture.emulator.seed([SnapshotFixture.family(code: families[1].code, name: "Older Family",
                                                            createdAt: Date(timeIntervalSince1970: 1_600_000_000))], container: container)

        let live = try await run(["audit", "--store", "s.sqlite", "--json", "--export-remote", "remote.jsonl"] + fixture.remoteArguments, in: directory)
        #expect(live.status == 1, "\(live.stderr)")
        let report = try live.report(AuditReportMirror.self)
        #expect(report.counts["duplicate-local-remote"] == 1)
        #expect(FileMode.of(directory.file("remote.jsonl")) == 0o600)
        #expect(try String(contentsOfFile: directory.file("remote.jsonl"), encoding: .utf8).split(separator: "\n").count == 4)

        let repaired = try await run(["audit", "--store", "s.sqlite", "--remote-snapshot", "remote.jsonl", "--repair", "--apply", "--out", "fix", "--json"],
                                     in: directory)
        #expect(repaired.status == 1, "the run reports what it found before repairing: \(repaired.stderr)")
        let repair = try repaired.report(AuditReportMirror.self).repair
        #expect(repair?.applied == true, "\(repaired.stdout)")
        #expect(repair?.changes.filter { $0.newCode != nil }.count == 1, "1 family got a new code: \(repaired.stdout)")
        let newCode = try codes(directory)[1].code
        #expect(newCode != families[1].code)

        let uploaded = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(uploaded.status == 0, "\(uploaded.stdout) \(uploaded.stderr)")
        let remote = await fixture.emulator.records(container: container)
        #expect(remote.first { $0.recordName == families[1].id }?.string("code") == newCode)

        let clean = try await run(["audit", "--store", "s.sqlite", "--fail-on", "warning", "--local-only"], in: directory)
        #expect(clean.status == 0, "\(clean.stdout)")
        let again = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try again.report(AuditReportMirror.self).errors == 0, "\(again.stdout)")
    }

    @Test func snapshotFindingsAsTextCSVAndExitStatuses() async throws {
        let directory = try await provisioned(2)
        let families = try codes(directory)
        var snapshot = SnapshotFixture()
        try snapshot.append(SnapshotFixture.family(code: families[0].code))
        snapshot.appendRaw("not json")
        try snapshot.write(to: directory.file("remote.jsonl"))
        let arguments = ["audit", "--store", "s.sqlite", "--remote-snapshot", "remote.jsonl"]

        let text = try await run(arguments, in: directory)
        #expect(text.status == 1)
        #expect(text.stdout.contains("2 errors"))
        #expect(text.stdout.contains("snapshot line 2 is not a CloudKit record"))
        #expect(!text.stdout.contains(families[0].code), "codes are masked by default")
        #expect(!text.stderr.contains(families[0].code))

        let csv = try await run(arguments + ["--csv", "--show-codes"], in: directory)
        #expect(csv.stdout.hasPrefix("severity,category,code,count,message,action,family_id"))
        #expect(csv.stdout.contains(families[0].code))

        #expect(try await run(arguments + ["--fail-on", "none"], in: directory).status == 0)
        let noSnapshot = try ErrorDocument(try await run(["audit", "--store", "s.sqlite", "--remote-snapshot", "missing.jsonl", "--json"], in: directory))
        #expect(noSnapshot.exitStatus == 66 && noSnapshot.kind == "snapshot.cannotOpen" && noSnapshot.path == "missing.jsonl", "\(noSnapshot)")
        let noStore = try ErrorDocument(try await run(["audit", "--store", "missing.sqlite", "--local-only", "--json"], in: directory))
        #expect(noStore.exitStatus == 74 && noStore.kind.hasPrefix("store.") && noStore.path == directory.file("missing.sqlite"), "\(noStore)")
        #expect(try await run(arguments + ["--apply"], in: directory).status == 64)
        #expect(try await run(arguments + ["--stale-after", "soon"], in: directory).status == 64)
    }

    @Test func warningsFailOnlyWhenAsked() async throws {
        let directory = try await provisioned(1)
        var snapshot = SnapshotFixture()
        try snapshot.append(SnapshotFixture.family(code: "ONLY234"))
        try snapshot.write(to: directory.file("remote.jsonl"))
        let arguments = ["audit", "--store", "s.sqlite", "--remote-snapshot", "remote.jsonl"]
        #expect(try await run(arguments, in: directory).status == 0)
        #expect(try await run(arguments + ["--fail-on", "warning"], in: directory).status == 1)
    }
}
