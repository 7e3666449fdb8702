import Foundation
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// Codes unique across every store and host writing into one container (docs/code-claims.md),
/// against an emulator whose query index lags as a real container's does: what a `code IN` query
/// cannot see yet, the claim (a record named after the code, created atomically) still refuses.
@Suite(.serialized) struct CodeClaimTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures

    /// Families per store; each store's preassigned codes overlap its neighbours' by two thirds.
    static let perStore = 120
    static let stride = 40

    static func code(_ n: Int) -> String { String(format: "Q%05d", n) }

    /// A CSV whose codes are the pool's `offset ..< offset + perStore`.
    static func csv(store: Int) -> String {
        var lines = [CSVFixtures.header + ",code"]
        for index in 0..<perStore {
            let n = store * stride + index
            lines.append("S\(store)-\(index),Family \(n) of \(store),Admin \(store) \(index),,\(code(n))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func run(_ directory: TemporaryDirectory, _ fixture: EmulatorFixture, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
    }

    func start(_ directory: TemporaryDirectory, _ fixture: EmulatorFixture, _ arguments: [String]) throws -> RunningProcess {
        try ProcessRunner.start(tribeboard, arguments + ["--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
    }

    /// Runs `arguments` until it ends 0 or 1 (1: some families set aside as conflicts), at most 12 times.
    func settle(_ directory: TemporaryDirectory, _ fixture: EmulatorFixture, _ arguments: [String]) async throws -> Int32 {
        var status: Int32 = -1
        for _ in 0..<12 {
            status = try await run(directory, fixture, arguments).status
            if status == 0 || status == 1 { break }
        }
        return status
    }

    @Test func threeStoresAMigrationAndARepairAtOnceHoldEachCodeOnce() async throws {
        var options = CloudKitEmulator.Options()
        options.indexLag = 2
        options.faults = try EmulatorFaults.parse("503=0.05,drop=0.03,retry-after=0.05,seed=23")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let stores = try (0..<3).map { _ in try TemporaryDirectory("claims-store") }
        for (index, store) in stores.enumerated() { try store.write("in.csv", Self.csv(store: index)) }
        // Stores 0 and 1 were provisioned offline (codes unclaimed); store 2 provisions with --sync.
        for store in stores.prefix(2) {
            let offline = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: store.path)
            try #require(offline.status == 0, "\(offline.stderr)")
        }
        // Legacy families whose codes overlap store 2's, moved by a fourth store's migrate.
        let migrating = try TemporaryDirectory("claims-migrate")
        try await NewStore.create(in: migrating)
        var legacy: [CloudKitRecord] = []
        for n in 0..<60 {
            let family = F.uuid(n, 91), user = F.uuid(n, 92)
            legacy += [F.family(family, code: Self.code(2 * Self.stride + 60 + n), createdAt: 1_700_000_000_000 + Double(n) * 1000, legacy: true),
                       F.profile(user, legacy: true), F.membership(F.uuid(n, 93), family: family, user: user, legacy: true)]
        }
        await fixture.emulator.seed(legacy, container: container)

        // All at once; store 1's resync is killed mid-run.
        let victim = try start(stores[1], fixture, ["resync"])
        async let first = run(stores[0], fixture, ["resync"])
        async let third = run(stores[2], fixture, ["provision", "in.csv", "--out", "out", "--sync", "-q"])
        async let moved = run(migrating, fixture, ["migrate", "legacy-types", "--apply", "--out", "out", "-q"])
        try await Task.sleep(for: .milliseconds(400))
        victim.killHard()
        _ = victim.wait()
        let statuses = try await [first.status, third.status, moved.status]
        #expect(statuses.allSatisfy { [0, 1, 75].contains($0) }, "only done, set aside or try later: \(statuses)")

        // Every command again until it settles, the repair on store 0, then its resync.
        #expect(try await settle(stores[1], fixture, ["resync"]) <= 1)
        #expect(try await settle(stores[2], fixture, ["resync"]) <= 1)
        #expect(try await settle(migrating, fixture, ["migrate", "legacy-types", "--apply", "--out", "out", "-q"]) <= 1)
        let repair = try await run(stores[0], fixture, ["audit", "--repair", "--apply", "--out", "repair", "--json"])
        #expect([0, 1].contains(repair.status), "\(repair.stderr)")
        #expect(try await settle(stores[0], fixture, ["resync"]) <= 1)

        // No code is held by two families in the container, each family holds its code's claim.
        let families = await fixture.emulator.records(container: container).filter { $0.recordType == RecordMapping.familyType }
        let codes = families.compactMap { $0.string("code") }
        #expect(codes.count == families.count && Set(codes).count == codes.count,
                "\(codes.count - Set(codes).count) codes held twice among \(families.count) families")
        let holders = Dictionary(uniqueKeysWithValues: families.compactMap { family in family.string("code").map { (family.recordName, $0) } })
        #expect(try await fixture.emulator.claimsMatch(holders, container: container), "every family's code claimed once, by it")
        // Every local family is in CloudKit with its code, or set aside as a conflict.
        for store in stores {
            let inspector = try StoreInspector(path: store.file("s.sqlite"))
            let conflicts = Set(try inspector.strings("SELECT record_id FROM sync_state WHERE record_table = 'families' AND status = 'conflict'"))
            for row in try inspector.rows("SELECT id, code FROM families") {
                let id = row["id"] ?? "", code = row["code"] ?? ""
                #expect(holders[id] == code || conflicts.contains(id), "family \(id) of \(store.path) is neither up with its code nor set aside")
            }
        }
        // The stores shared codes: some families lost theirs to another store's, and none vanished.
        let local = try stores.map { try StoreInspector(path: $0.file("s.sqlite")).count("SELECT COUNT(*) FROM families") }.reduce(0, +)
        #expect(local + 60 >= families.count && families.count > 3 * Self.stride, "\(families.count) families up of \(local) local and 60 legacy")
    }
}

/// `migrate claims`: the backfill of families written before claims existed.
@Suite struct ClaimBackfillTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer
    typealias F = MigrateFixtures

    @Test func everyCodeClaimedOnceByItsOldestFamilyDuplicatesReportedAndARerunChangesNothing() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        // 30 families; codes 0-4 held twice (the second one newer), family 29 without a code field.
        var records: [CloudKitRecord] = []
        for n in 0..<30 {
            var family = F.family(F.uuid(n, 1), code: String(format: "D%05d", n < 25 ? n : n - 25), createdAt: 1_700_000_000_000 + Double(n) * 1000)
            if n == 29 { family.fields?["code"] = nil }
            records.append(family)
        }
        // One code already claimed by its newest holder (a claim-aware store wrote it): left as it is.
        records.append(try CodeClaim(code: "D00004", familyID: FamilyID(rawValue: F.uuid(29, 1))).record)
        await fixture.emulator.seed(records, container: container)
        let directory = try TemporaryDirectory("backfill")
        func backfill(_ extra: [String]) async throws -> (Int32, ClaimBackfillMirror) {
            let result = try await ProcessRunner.runAsync(tribeboard, ["migrate", "claims", "--json"] + extra + fixture.remoteArguments, in: directory.path)
            return (result.status, try result.report(ClaimBackfillMirror.self))
        }

        let (planStatus, plan) = try await backfill([])
        #expect(planStatus == 1, "duplicates need a person")
        #expect(plan.familiesRead == 30 && plan.codes == 25 && plan.toClaim == 24 && plan.claimed == 0)
        #expect(await fixture.emulator.claims(container: container).count == 1, "a plan creates nothing")

        let (applyStatus, applied) = try await backfill(["--apply"])
        #expect(applyStatus == 1)
        #expect(applied.claimed == 24, "\(applied)")
        let duplicates = applied.duplicates
        #expect(duplicates.count == 4 && duplicates.allSatisfy { $0.others.count == 1 }, "codes 0-3: the oldest keeps it")
        #expect(duplicates.first { $0.keptBy == F.uuid(0, 1) }?.others == [F.uuid(25, 1)])
        let held = applied.heldByOthers
        #expect(held.count == 1 && held.first?.claimedBy == F.uuid(29, 1) && held.first?.oldest == F.uuid(4, 1))
        #expect(applied.withoutCode == [F.uuid(29, 1)])
        let claims = await fixture.emulator.claims(container: container)
        let (first, fourth) = (try CodeClaim.recordName(forCode: "D00000"), try CodeClaim.recordName(forCode: "D00004"))
        #expect(claims.count == 25 && claims[first] == F.uuid(0, 1))
        #expect(claims[fourth] == F.uuid(29, 1), "an existing claim is never overwritten")

        let (rerunStatus, rerun) = try await backfill(["--apply"])
        #expect(rerunStatus == 1 && rerun.claimed == 24)
        #expect(await fixture.emulator.claims(container: container) == claims, "a rerun changes nothing")
    }
}

/// `resync --reupload ID`: a family the store says is uploaded but CloudKit lost goes up again.
@Suite struct ReuploadTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    @Test func aFamilyDeletedInTheConsoleGoesUpAgainWithItsMembershipAndClaim() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("reupload")
        // Admins with their Apple account hash: their profiles and memberships go up too.
        try directory.write("in.csv", "external_id,family_name,admin_display_name,admin_apple_user_id_hash\n"
                            + "R1,Ramos,Ana Ramos,\(CSVFixtures.hexHash(1))\nR2,Silva,Rui Silva,\(CSVFixtures.hexHash(2))\n")
        func run(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
        }
        #expect(try await run(["provision", "in.csv", "--out", "out", "--sync", "-q"]).status == 0)
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        let id = try #require(try store.strings("SELECT id FROM families WHERE import_key = 'ext:R1'").first)
        let membership = try #require(try store.strings("SELECT id FROM memberships WHERE family_id = '\(id)'").first)
        // Deleted in the Console, with what DELETE_SELF takes along, and its claim.
        let code = try #require(try store.strings("SELECT code FROM families WHERE id = '\(id)'").first)
        let client = try fixture.client()
        _ = try await client.modify([id, membership, try CodeClaim.recordName(forCode: code)].map {
            CloudKitOperation(.forceDelete, CloudKitRecord(recordName: $0, recordType: "", fields: [:]))
        })
        #expect(await fixture.emulator.records(container: container).contains { $0.recordName == id } == false)

        let marked = try await run(["resync", "--reupload", id.lowercased(), "--reupload", "NO-SUCH-FAMILY", "--json"])
        #expect(marked.status == 64, "an id of no family is a mistake to show: \(marked.stderr)")
        let report = try marked.report(ReuploadReportMirror.self)
        #expect(report.marked == [id] && report.unknown == ["NO-SUCH-FAMILY"])
        let resync = try await run(["resync", "--json"])
        #expect(resync.status == 0, "\(resync.stderr)")
        let remote = await fixture.emulator.records(container: container)
        #expect(remote.contains { $0.recordName == id } && remote.contains { $0.recordName == membership })
        #expect(await fixture.emulator.claims(container: container)[try CodeClaim.recordName(forCode: code)] == id, "its code claimed again")
        #expect(try store.count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 0)
    }

    /// A family marked again while CloudKit still has it: its create is refused as existing, the
    /// record is looked up and compared, which asks who this key is (users/caller). The report's
    /// count of requests is every request the container received, that one included.
    @Test func theReportCountsEveryRequestUsersCallerIncluded() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("reupload-requests")
        try directory.write("in.csv", "external_id,family_name,admin_display_name\nR1,Ramos,Ana Ramos\n")
        func run(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"] + fixture.remoteArguments, in: directory.path)
        }
        #expect(try await run(["provision", "in.csv", "--out", "out", "--sync", "-q"]).status == 0)
        let id = try #require(try ManifestFile.read(directory.file("out/manifest.csv")).first?.familyId)
        #expect(try await run(["resync", "--reupload", id]).status == 0)
        let before = await fixture.emulator.requestCounts()
        let resync = try await run(["resync", "--json"])
        #expect(resync.status == 0, "\(resync.stderr)")
        let after = await fixture.emulator.requestCounts()
        #expect((after["users/caller"] ?? 0) > (before["users/caller"] ?? 0), "the run asked who it is: \(after)")
        let received = after.values.reduce(0, +) - before.values.reduce(0, +)
        #expect(try resync.report(ResyncReportMirror.self).requests == received, "\(before) -> \(after)")
    }

    /// Ids pasted from a report or a message (a tab, a no-break space, a line break around them,
    /// lower case): each finds its family, as `doctor family` finds it; an id of no family is
    /// reported as the store would hold it.
    @Test func idsPastedWithWhiteSpaceAreMarked() throws {
        let directory = try TemporaryDirectory("reupload-pasted")
        try directory.write("in.csv", "family_name\nRamos\n")
        #expect(try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                      in: directory.path).status == 0)
        let id = try #require(try ManifestFile.read(directory.file("out/manifest.csv")).first?.familyId)
        let run = try ProcessRunner.run(tribeboard, ["resync", "--store", "s.sqlite", "--json",
                                                     "--reupload", "\t\(id.lowercased())\u{00A0}\n",
                                                     "--reupload", "\u{00A0}no-such-family\t"], in: directory.path)
        #expect(run.status == 64, "\(run.stderr)")
        let report = try run.report(ReuploadReportMirror.self)
        #expect(report.marked == [id] && report.unknown == ["NO-SUCH-FAMILY"], "\(report)")
    }

    /// An id of no family: the error alone, not a "Marked 0 families" on stdout beside it.
    @Test func anUnknownIdIsTheWholeAnswer() throws {
        let directory = try TemporaryDirectory("reupload-unknown")
        try directory.write("in.csv", "family_name\nRamos\n")
        #expect(try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path).status == 0)
        let run = try ProcessRunner.run(tribeboard, ["resync", "--reupload", "NO-SUCH-FAMILY", "--store", "s.sqlite"], in: directory.path)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty, "stdout: \(run.stdout)")
        #expect(run.stderr.contains("NO-SUCH-FAMILY"), "stderr: \(run.stderr)")
    }
}
