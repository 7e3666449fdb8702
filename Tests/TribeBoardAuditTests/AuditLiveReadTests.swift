import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardRemote
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardAudit

/// The live read (queries side by side, split by code) finds what a snapshot of the same records
/// finds: the same findings, the same families in each, every record counted once.
@Suite("Audit: live read")
struct AuditLiveReadTests {
    @Test("a live audit finds what the snapshot of the same records finds, another writer's duplicates included")
    func liveFindsWhatTheSnapshotFinds() async throws {
        var workspace = try AuditWorkspace(families: 12)
        let families = try workspace.families()
        let otherWriter = CloudKitRecord.Stamp(timestamp: 1_700_000_000_000, userRecordName: "_app_user_1")
        var remote: [CloudKitRecord] = families.dropLast(2).map { SnapshotFixture.family(id: $0.id, code: $0.code, name: $0.name) }
        // Enough families elsewhere for several pages in several of the split's queries.
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        for index in 0..<1_400 {
            var code = String(alphabet[index % 32])
            var rest = index / 32
            for _ in 0..<5 { code.append(alphabet[rest % 32]); rest /= 32 }
            remote.append(SnapshotFixture.family(id: "R-\(index)", code: code))
        }
        var planted = [
            SnapshotFixture.family(code: families[0].code, name: "Took a local code"),       // local vs remote
            SnapshotFixture.family(code: families[1].code.lowercased(), name: "Twin"),       // case-only twin
            SnapshotFixture.family(code: "ZZZ234", name: "First"),                           // remote vs remote
            SnapshotFixture.family(code: "ZZZ234", name: "Second"),
            SnapshotFixture.family(code: "", name: "Empty code"),
            SnapshotFixture.family(code: "LEG234", type: "CKFamily"),
        ]
        for index in planted.indices { planted[index].created = otherWriter }
        remote += planted
        for record in remote { try workspace.snapshot.append(record) }
        // Every family listed (not a sample, which depends on the order records arrive in).
        let fromSnapshot = try await workspace.audit { $0.listAll = true }

        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed(remote, container: CloudKitConfiguration.defaultContainer)
        var request = AuditRequest(storePath: workspace.provision.storePath, remote: .live(try fixture.client(), exportTo: nil))
        request.listAll = true
        let live = try await AuditWorkspace.run(request)

        #expect(live.scanned.remoteRecords == fromSnapshot.scanned.remoteRecords)
        #expect(live.scanned.remoteRecords["Family"] == remote.count - 1)
        #expect(live.categories == fromSnapshot.categories)
        #expect(live.categories["duplicate-local-remote"] == 1 && live.categories["duplicate-remote"] == 1
                && live.categories["case-only-twins"] == 1)
        for category in Set(fromSnapshot.findings.map(\.category)) {
            let expected = fromSnapshot.findings(category), found = live.findings(category)
            #expect(found.map(\.count).sorted() == expected.map(\.count).sorted(), "\(category)")
            #expect(Set(found.flatMap(\.families).map(\.id)) == Set(expected.flatMap(\.families).map(\.id)), "\(category)")
        }
        let queries = await fixture.emulator.requestCounts()["records/query"] ?? 0
        #expect(queries > 37, "Family is read as queries side by side (\(queries))")
    }
}
