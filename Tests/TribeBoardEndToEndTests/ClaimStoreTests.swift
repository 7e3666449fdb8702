import Foundation
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardRemote
import TribeBoardTestSupport

/// Code claims and what a store remembers of them: twins that differ only in case, a claim
/// deleted in CloudKit after the store made it, two provisions of one store at once, a claim
/// released between our refused create and our lookup.
@Suite(.serialized) struct ClaimStoreTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    func run(_ directory: TemporaryDirectory, _ remote: [String], _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + remote, in: directory.path)
    }

    func sqlite(_ directory: TemporaryDirectory, _ sql: String) throws {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), sql])
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// 41.2: a store edited so that two families hold ABC234 and abc234. Before, resync keyed the
    /// claims by name and both went up "claimed" (exit 0). Now one goes up, the other is set aside.
    @Test func caseOnlyTwinsNeverBothGoUp() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("claims-twins")
        try directory.write("in.csv", "family_name,admin_display_name,code\nUpper,Ana,ABC234\nLower,Rui,XYZ234\n")
        #expect(try await run(directory, [], ["provision", "in.csv", "--out", "out", "-q"]).status == 0)
        try sqlite(directory, "UPDATE families SET code = 'abc234' WHERE code = 'XYZ234'")
        let resync = try await run(directory, fixture.remoteArguments, ["resync"])
        #expect(resync.status == 1, "one twin set aside: \(resync.stderr)")
        let up = await fixture.emulator.records(container: container).filter { $0.recordType == "Family" }
        #expect(up.count == 1 && up.first.flatMap { $0.string("code") }?.uppercased() == "ABC234", "\(up.map { $0.string("code") ?? "" })")
        #expect(await fixture.emulator.claims(container: container)[try CodeClaim.recordName(forCode: "ABC234")] == up.first?.recordName)
        // Set aside for a person: as a conflict over the claim, or (a lower-case code, which the
        // app's own validators refuse) as a record the app would not accept.
        let setAside = try StoreInspector(path: directory.file("s.sqlite"))
            .count("SELECT COUNT(*) FROM sync_state WHERE record_table = 'families' AND status IN ('conflict', 'quarantined')")
        #expect(setAside == 1)
    }

    /// 41.3: store A claimed DEL234 at provision; the claim was deleted in CloudKit; store B
    /// claimed and uploaded DEL234. Before, A's resync trusted its memory and uploaded a second
    /// family with the code (exit 0). Now the claim is verified before the first upload.
    @Test func aRememberedClaimIsVerifiedBeforeTheFirstUpload() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let (a, b) = (try TemporaryDirectory("claims-a"), try TemporaryDirectory("claims-b"))
        try a.write("in.csv", "family_name,admin_display_name,code\nFirst,Ana,DEL234\n")
        try b.write("in.csv", "family_name,admin_display_name,code\nSecond,Rui,DEL234\n")
        let provisioned = try await run(a, fixture.remoteArguments, ["provision", "in.csv", "--out", "out", "-q"])
        #expect(provisioned.status == 0, "\(provisioned.stderr)")
        let name = try CodeClaim.recordName(forCode: "DEL234")
        _ = try await fixture.client().modify([CloudKitOperation(.forceDelete, CloudKitRecord(recordName: name, recordType: CodeClaim.recordType, fields: [:]))])
        #expect(try await run(b, fixture.remoteArguments, ["provision", "in.csv", "--out", "out", "--sync", "-q"]).status == 0)

        let resync = try await run(a, fixture.remoteArguments, ["resync"])
        #expect(resync.status == 1, "A's family set aside: \(resync.stderr)")
        let holders = await fixture.emulator.records(container: container).filter { $0.string("code") == "DEL234" }
        let bID = try StoreInspector(path: b.file("s.sqlite")).strings("SELECT id FROM families")
        #expect(holders.map(\.recordName) == bID, "one family holds the code: B's")
        #expect(await fixture.emulator.claims(container: container)[name] == bID.first)
    }

    /// 41.6: two provisions of one store at once, every preassigned code already claimed by
    /// another family. Before, `conflict` rows were left for families neither run kept.
    @Test func twoProvisionsAtOnceLeaveNoGhostConflicts() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let count = 100
        let codes = (0..<count).map { String(format: "G%05d", $0) }
        await fixture.emulator.seed(try codes.map { try CodeClaim(code: $0, familyID: FamilyID(rawValue: "ELSEWHERE-\($0)")).record }, container: container)
        let directory = try TemporaryDirectory("claims-ghosts")
        try directory.write("in.csv", (["family_name,admin_display_name,code"] + codes.map { "F \($0),Admin \($0),\($0)" }).joined(separator: "\n") + "\n")
        async let first = run(directory, fixture.remoteArguments, ["provision", "in.csv", "--out", "out1", "-q"])
        async let second = run(directory, fixture.remoteArguments, ["provision", "in.csv", "--out", "out2", "-q"])
        let statuses = try await [first.status, second.status]
        #expect(statuses.allSatisfy { $0 == 1 }, "every row failed: \(statuses)")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families") == 0)
        #expect(try store.count("SELECT COUNT(*) FROM sync_state WHERE record_id NOT IN (SELECT id FROM families)") == 0, "no ghost rows")
        let resync = try await run(directory, fixture.remoteArguments, ["resync"])
        #expect(resync.status == 0, "nothing set aside for ever: \(resync.stderr)")
    }

    /// 41.7: our create answered CONFLICT, and the claim was gone by our lookup (released by its
    /// family meanwhile). Before, the family was quarantined with "NOT_FOUND" (exit 1); now the
    /// claim is created again and the family goes up.
    @Test func aClaimReleasedBetweenCreateAndLookupIsCreatedAgain() async throws {
        var script = ScriptedCloudKitServer.Script()
        script.claimResults = { results, earlier in
            guard earlier == 0 else { return results }
            return results.map { ScriptedCloudKitServer.failure($0["recordName"] as? String ?? "", "CONFLICT", reason: "record to insert already exists") }
        }
        let server = try await ScriptedCloudKitServer.start(script)
        defer { Task { await server.stop() } }
        let keys = try await EmulatorFixture.start()
        defer { Task { await keys.emulator.stop() } }
        let remote = ["--key-id", keys.keyID, "--key-file", keys.keyFile, "--ck-base-url", server.baseURL]
        let directory = try TemporaryDirectory("claims-released")
        try directory.write("in.csv", "family_name,admin_display_name,code\nRace,Ana,RACE23\n")
        #expect(try await run(directory, [], ["provision", "in.csv", "--out", "out", "-q"]).status == 0)
        let resync = try await run(directory, remote, ["resync"])
        #expect(resync.status == 0, "\(resync.stderr)")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families WHERE needs_sync = 0") == 1)
        #expect(try store.count("SELECT COUNT(*) FROM code_claims WHERE code = 'RACE23'") == 1)
        #expect(try store.count("SELECT COUNT(*) FROM sync_state WHERE status = 'quarantined'") == 0)
    }
}
