import Foundation
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardCloudKitEmulator
import TribeBoardRemote
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Code claims against someone with an iCloud account (docs/code-claims.md, "Against an
/// adversary"): records an app user made (`created.userRecordName` theirs) sit in the container
/// before the toolkit runs, as the public database lets any user create them. Each attack ends
/// with the code held by exactly one family the operator meant, or a clear refusal.
@Suite(.serialized) struct ClaimAttackTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    static let attacker = "_3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6"

    func run(_ directory: TemporaryDirectory, _ fixture: EmulatorFixture, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
    }

    /// A record under a claim's name, as the attacker's app created it.
    static func planted(code: String, type: String = CodeClaim.recordType, family: String) throws -> CloudKitRecord {
        var record = try CodeClaim(code: code, familyID: FamilyID(rawValue: family)).record
        record.recordType = type
        record.created = .init(timestamp: 1_700_000_000_000, userRecordName: attacker)
        return record
    }

    func store(_ directory: TemporaryDirectory) throws -> StoreInspector { try StoreInspector(path: directory.file("s.sqlite")) }

    /// 34.1: the attacker claims the keeper's code for the keeper's own family, first. Before,
    /// resync took the claim as the family's (it names it) and uploaded: the attacker could
    /// repoint or delete it later. Now it is foreign: the family is set aside with a refusal that
    /// says so, and the advised recode and release end with a new code held by our claim.
    @Test func aForeignClaimNamingOurFamilyIsNotOurs() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("attack-foreign")
        try directory.write("in.csv", "family_name,admin_display_name,code\nKeeper,Ana,FORGN2\n")
        let offline = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                      in: directory.path)
        try #require(offline.status == 0, "\(offline.stderr)")
        let id = try #require(try store(directory).strings("SELECT id FROM families").first)
        await fixture.emulator.seed([try Self.planted(code: "FORGN2", family: id)], container: container)

        let resync = try await run(directory, fixture, ["resync", "--json"])
        #expect(resync.status == 1, "set aside, not uploaded: \(resync.stderr)")
        #expect(await fixture.emulator.records(container: container).contains { $0.recordName == id } == false)
        let error = try store(directory).strings("SELECT last_error FROM sync_state WHERE record_id = '\(id)' AND status = 'conflict'")
        #expect(error.first?.contains(Self.attacker) == true && error.first?.contains("recode") == true, "\(error)")

        let recode = try await run(directory, fixture, ["recode", id, "--apply", "--out", "recode", "--json"])
        #expect(recode.status == 0, "\(recode.stderr)")
        let settled = try await run(directory, fixture, ["resync"])
        #expect(settled.status == 0, "\(settled.stderr)")
        let code = try #require(try store(directory).strings("SELECT code FROM families").first)
        #expect(code != "FORGN2")
        let claims = await fixture.emulator.claims(container: container)
        #expect(claims[try CodeClaim.recordName(forCode: code)] == id, "the new code is held by our claim for the family")
        #expect(await fixture.emulator.records(container: container).filter { $0.string("code") == code }.map(\.recordName) == [id])
    }

    /// 34.1 in `migrate claims`: a claim an app user made for the keeper is reported foreign,
    /// never counted as claimed, and the run does not end 0.
    @Test func migrateClaimsReportsAForeignClaimAndCountsItNot() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        typealias F = MigrateFixtures
        let keeper = F.uuid(1, 1)
        await fixture.emulator.seed([F.family(keeper, code: "MIGRT2", createdAt: 1_700_000_000_000),
                                     try Self.planted(code: "MIGRT2", family: keeper)], container: container)
        let directory = try TemporaryDirectory("attack-migrate")
        let applied = try await ProcessRunner.runAsync(tribeboard, ["migrate", "claims", "--apply", "--json"] + fixture.remoteArguments,
                                                      in: directory.path)
        #expect(applied.status == 1, "\(applied.stderr)")
        let report = try applied.report(ClaimBackfillMirror.self)
        #expect(report.claimed == 0)
        #expect(report.heldByOthers.map(\.holder) == ["foreign"] && report.heldByOthers.first?.creator == Self.attacker)
    }

    /// 34.2 and 34.3: one planted claim (ACCESS_DENIED or EXISTS for our create) and one squatter
    /// (a UserProfile under a claim's name) among four preassigned codes. Before, the refusal
    /// turned the whole run offline: 4 PNGs for 4 unclaimed codes. Now each is decided: two
    /// claimed and printed, the two taken ones fail, saying by whom, with no card.
    @Test func aPlantedClaimAndASquatterFailTheirRowsAloneAndNothingUnclaimedIsPrinted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed([try Self.planted(code: "PLANT2", family: "ATTACKER-FAMILY"),
                                     try Self.planted(code: "SQUAT2", type: "UserProfile", family: "X")], container: container)
        let directory = try TemporaryDirectory("attack-planted")
        try directory.write("in.csv", "external_id,family_name,code\nA,Alpha,GOODA2\nB,Beta,PLANT2\nC,Gamma,GOODC2\nD,Delta,SQUAT2\n")
        let provision = try await run(directory, fixture, ["provision", "in.csv", "--out", "out", "--json"])
        #expect(provision.status == 1, "two rows failed: \(provision.stderr)")
        let report = try provision.report(ProvisionReportMirror.self)
        #expect(report.created == 2 && report.failed == 2 && report.codesClaimed == 2 && report.codesUnclaimed == 0)
        #expect(report.remote?.errorKind == nil, "a refused claim does not turn the run offline")
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        let byID = Dictionary(uniqueKeysWithValues: manifest.map { ($0.externalId, $0) })
        #expect(byID["A"]?.claim == "claimed" && byID["C"]?.claim == "claimed")
        #expect(byID["B"]?.status == "failed" && byID["B"]?.error.contains(Self.attacker) == true, "\(byID["B"]?.error ?? "")")
        #expect(byID["D"]?.status == "failed" && byID["D"]?.error.contains("UserProfile") == true, "\(byID["D"]?.error ?? "")")
        let pngs = try FileManager.default.contentsOfDirectory(atPath: directory.file("out/qr")).filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 2, "cards only for the claimed codes: \(pngs)")
        let claims = await fixture.emulator.claims(container: container)
        for code in ["GOODA2", "GOODC2"] {
            let holder = claims[try CodeClaim.recordName(forCode: code)]
            let ids = try store(directory).strings("SELECT id FROM families WHERE code = '\(code)'")
            #expect(holder != nil && ids == [holder ?? ""])
        }
        #expect(try store(directory).count("SELECT COUNT(*) FROM families") == 2)
    }

    /// 34.2 and 41.4: every claim throttled. Before: exit 0, QR codes and cards printed for codes
    /// nobody holds. Now: retried after `retryAfter`, then left unclaimed: no QR file, no code in
    /// the manifest (marked unclaimed), no card, exit 75; a later run claims and prints them.
    @Test func throttledClaimsAreRetriedAndNeverPrintedUnclaimed() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("record-429=1.0,retry-after=0.05,seed=3")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("attack-throttled")
        try directory.write("in.csv", "family_name,admin_display_name\nAlpha,Ana\nBeta,Rui\n")
        let throttled = try await run(directory, fixture, ["provision", "in.csv", "--out", "out", "--json", "--sheets", "cards.pdf"])
        // The run's own status (codes unclaimed: try again), not the sheets' "no family matches" (65).
        #expect(throttled.status == 75, "\(throttled.stderr)")
        let report = try throttled.report(ProvisionReportMirror.self)
        #expect(report.codesUnclaimed == 2 && report.qrCodesWritten == 0)
        #expect(report.sheets?.invitations == 0 && report.sheets?.errorKind == nil, "no card for an unclaimed code")
        #expect(report.sheets?.waitingForClaims == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.file("cards.pdf")))
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(manifest.allSatisfy { $0.code.isEmpty && $0.qrFile.isEmpty && $0.claim == "unclaimed" }, "\(manifest)")
        #expect(await fixture.emulator.requestCounts()["records/modify", default: 0] >= 2, "throttled claims are sent again")

        // The same store against a healthy CloudKit: the rerun claims and prints them.
        let healthy = try await EmulatorFixture.start()
        defer { Task { await healthy.emulator.stop() } }
        // Run again as the report says: the cards are printed this time.
        let rerun = try await run(directory, healthy, ["provision", "in.csv", "--out", "out", "--json", "--sheets", "cards.pdf"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let printed = try rerun.report(ProvisionReportMirror.self).sheets
        #expect(printed?.invitations == 2 && printed?.waitingForClaims == nil, "\(String(describing: printed))")
        let again = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(again.allSatisfy { $0.code.count == 8 && $0.claim == "claimed" && !$0.qrFile.isEmpty }, "\(again)")
    }

    /// 34.5: a claim whose family is gone from the store and from CloudKit (deleted by hand) is an
    /// orphan: the live audit finds it, the applied repair releases it, and the code is free.
    @Test func anOrphanClaimIsFoundAndReleased() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("attack-orphan")
        try directory.write("in.csv", "family_name,admin_display_name,code\nGone,Ana,ORPHN2\nKept,Rui,KEPTF2\n")
        #expect(try await run(directory, fixture, ["provision", "in.csv", "--out", "out", "--sync", "-q"]).status == 0)
        let id = try #require(try store(directory).strings("SELECT id FROM families WHERE code = 'ORPHN2'").first)
        // Deleted in the Console and from the store with sqlite3, the claim left behind.
        _ = try await fixture.client().modify([CloudKitOperation(.forceDelete, CloudKitRecord(recordName: id, recordType: "Family", fields: [:]))])
        let sql = "PRAGMA foreign_keys=OFF; DELETE FROM memberships WHERE family_id = '\(id)'; DELETE FROM families WHERE id = '\(id)';"
        #expect(try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), sql]).status == 0)
        let name = try CodeClaim.recordName(forCode: "ORPHN2")
        #expect(await fixture.emulator.claims(container: container)[name] == id)

        let audited = try await run(directory, fixture, ["audit", "--json", "--show-codes"])
        let found = try audited.report(AuditReportMirror.self)
        let orphans = found.findings.filter { $0.category == "orphan-claim" }
        #expect(orphans.map(\.code) == ["ORPHN2"] && orphans.first?.families.map(\.id) == [id], "\(found.findings.map(\.category))")

        let repaired = try await run(directory, fixture, ["audit", "--repair", "--apply", "--out", "repair", "--json"])
        #expect([0, 1].contains(repaired.status), "\(repaired.stderr)")
        #expect(await fixture.emulator.claims(container: container)[name] == nil, "released")
        #expect(await fixture.emulator.claims(container: container)[try CodeClaim.recordName(forCode: "KEPTF2")] != nil, "the kept one stays")
        let after = try await run(directory, fixture, ["audit", "--json"])
        #expect(try after.report(AuditReportMirror.self).findings.allSatisfy { $0.category != "orphan-claim" })
    }

    /// 34.2, local-only work: without a remote, provision still prints (the README's demo) and
    /// marks the codes unclaimed; once a remote is configured, `sheets` refuses such codes
    /// unless --include-unclaimed, and prints them once resync has claimed them.
    @Test func sheetsAsksBeforePrintingUnclaimedCodesOnceARemoteIsConfigured() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("attack-sheets")
        try directory.write("in.csv", "family_name,admin_display_name\nAlpha,Ana\nBeta,Rui\n")
        let local = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                    in: directory.path)
        #expect(local.status == 0, "\(local.stderr)")
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(manifest.allSatisfy { !$0.code.isEmpty && !$0.qrFile.isEmpty && $0.claim == "unclaimed" }, "\(manifest)")

        let remote = ["TRIBEBOARD_CK_KEY_ID": fixture.keyID, "TRIBEBOARD_CK_KEY_FILE": fixture.keyFile,
                      "TRIBEBOARD_CK_BASE_URL": fixture.emulator.baseURL]
        func sheets(_ extra: [String], environment: [String: String] = remote) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runAsync(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "cards.pdf", "--json"] + extra,
                                             in: directory.path, environment: environment)
        }
        let refused = try await sheets([])
        #expect(refused.status == 65, "\(refused.stderr)")
        let error = try ErrorDocument(refused)
        #expect(error.kind == "sheets.unclaimed" && error.recordIds?.count == 2, "\(error)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("cards.pdf")))
        let included = try await sheets(["--include-unclaimed"])
        #expect(included.status == 0)
        #expect(try included.report(SheetsReportMirror.self).unclaimedPrinted == 2)
        // No remote: local-only work prints, and says which cards hold codes nobody claimed.
        let localOnly = try await sheets([], environment: [:])
        #expect(localOnly.status == 0, "\(localOnly.stderr)")
        #expect(try localOnly.report(SheetsReportMirror.self).unclaimedPrinted == 2)
        try FileManager.default.removeItem(atPath: directory.file("cards.pdf"))

        // The refusal's advice, run as printed in the shell that ran sheets (its remote from there).
        let advice = try #require(AsPrinted.commands(in: refused.stderr).first { $0.hasPrefix("tribeboard resync ") }, "\(refused.stderr)")
        let resync = try await AsPrinted.run(advice, in: directory.path, environment: remote)
        #expect(resync.status == 0, "\(advice): \(resync.stderr)")
        let claimed = try await sheets([])
        #expect(claimed.status == 0, "claimed now")
        #expect(try claimed.report(SheetsReportMirror.self).unclaimedPrinted == 0)
        #expect(FileManager.default.fileExists(atPath: directory.file("cards.pdf")))
    }
}
