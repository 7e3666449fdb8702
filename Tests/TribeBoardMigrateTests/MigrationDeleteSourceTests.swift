import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardTestSupport
@testable import TribeBoardMigrate

/// `migrate legacy-types --delete-source` deletes a legacy record only as the run read it.
@Suite("Migrate: deleting the sources")
struct MigrationDeleteSourceTests {
    @Test("a legacy record edited after the read is kept with its edit; the others are deleted")
    func anEditedSourceIsNotDeleted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        let legacy = ["L1", "L2"].map { SnapshotFixture.family(id: $0, code: "LEG\($0)34", name: "Legacy \($0)", type: "CKFamily") }
        _ = try await client.modify(legacy.map { CloudKitOperation(.create, $0) })
        let read = try await client.lookup(recordNames: ["L1", "L2"]).compactMap { result -> CloudKitRecord? in
            if case .record(let record) = result { return record }
            return nil
        }
        try #require(read.count == 2 && read.allSatisfy { $0.recordChangeTag != nil })

        // The app edits L1 after the migration read it.
        var edited = read[0]
        edited.fields?["name"] = .string("Renamed in the app")
        _ = try await client.modify([CloudKitOperation(.forceUpdate, edited)])

        var items = read.map { MigrationItem(source: $0, kind: .family, copy: $0, outcome: .copied) }
        try await MigrationTransfer.deleteSources(&items, at: client)
        #expect(items.map(\.deleted) == [false, true])
        #expect(items[0].reason?.contains("changed after this run read it") == true, "\(items[0].reason ?? "")")
        let left = try await client.lookup(recordNames: ["L1", "L2"])
        guard case .record(let kept)? = left.first else {
            Issue.record("L1 was deleted: \(left)")
            return
        }
        #expect(kept.string("name") == "Renamed in the app")
    }
}
