import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardRemote
import TribeBoardTestSupport

/// Text from CloudKit cannot forge a line of a report, nor be echoed without bound: a line feed or
/// U+2028 in a family name or a claim's `family` field shows as a visible escape, and a huge
/// field is cut in the text (JSON keeps what was read).
@Suite struct ForgedLinesTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    /// Every line of `text` that is exactly `forged` (a line the toolkit would print itself).
    func lines(_ text: String, equalTo forged: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.trimmingCharacters(in: .whitespaces) == forged }.count
    }

    @Test func aFamilyNameFromCloudKitCannotForgeTheAuditsVerdict() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("forged-audit")
        try directory.write("in.csv", CSVFixtures.families(count: 1))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let code = try #require(try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT code FROM families").first?["code"])
        // Another writer's family shares the code: a finding that names it, with its name.
        let evil = SnapshotFixture.family(code: code, name: "Evil\n0 errors, 0 warnings\u{2028}ok")
        await fixture.emulator.seed([evil], container: container)

        let audit = try await run(["audit", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(audit.status != 0, "\(audit.stdout)")
        #expect(lines(audit.stdout, equalTo: "0 errors, 0 warnings") == 0, "\(audit.stdout)")
        #expect(audit.stdout.contains(#"Evil\u{a}0 errors, 0 warnings\u{2028}ok"#), "\(audit.stdout)")
        #expect(!audit.stdout.unicodeScalars.contains("\u{2028}"))
    }

    @Test func aClaimsFamilyFieldCannotForgeResyncListNorGrowWithoutBound() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("forged-claim")
        try directory.write("in.csv", "external_id,family_name,code\nC1,Family Claimed,CONF23\n")
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        // Someone claimed CONF23 first, for a "family" whose name is a forged line and then a
        // 900,000-character tail.
        let forged = "X\nPending: 0 (0 families, 0 profiles, 0 memberships)" + String(repeating: "A", count: 900_000)
        let claim = CloudKitRecord(recordName: try CodeClaim.recordName(forCode: "CONF23"), recordType: CodeClaim.recordType,
                                   fields: [CodeClaim.familyField: .string(forged)])
        await fixture.emulator.seed([claim], container: container)

        let resync = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(resync.status != 0)
        #expect(resync.stderr.utf8.count < 20_000, "resync echoed \(resync.stderr.utf8.count) bytes")
        let list = try await run(["resync", "--list", "--store", "s.sqlite"], in: directory)
        #expect(lines(list.stdout, equalTo: "Pending: 0 (0 families, 0 profiles, 0 memberships)") == 0, "\(list.stdout.prefix(2000))")
        #expect(list.stdout.utf8.count < 20_000, "resync --list printed \(list.stdout.utf8.count) bytes")
        let doctor = try await run(["doctor", "--store", "s.sqlite"], in: directory)
        #expect(lines(doctor.stdout, equalTo: "Pending: 0 (0 families, 0 profiles, 0 memberships)") == 0)
        #expect(doctor.stdout.utf8.count < 20_000, "doctor printed \(doctor.stdout.utf8.count) bytes")
        let stored = try StoreInspector(path: directory.file("s.sqlite"))
            .count("SELECT COALESCE(MAX(LENGTH(conflict_with) + LENGTH(COALESCE(last_error, ''))), 0) FROM sync_state")
        #expect(stored < 2_000, "sync_state holds \(stored) characters of the claim")
    }
}
