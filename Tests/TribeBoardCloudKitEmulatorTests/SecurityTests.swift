import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// The public database's security roles, and keys that belong to one container.
@Suite("Emulator security roles and containers")
struct SecurityTests {
    @Test func aKeyMayNotChangeARecordAnAppUserCreated() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        // A seed file as --seed reads it: a record an app user created from the app.
        let seedFile = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).json").path
        try Data("""
            {"container": "\(harness.client.container)", "environment": "development", "records": [
              {"recordName": "U1", "recordType": "Family", "fields": {"code": {"value": "ABC234", "type": "STRING"}},
               "created": {"timestamp": 1700000000000, "userRecordName": "_0123456789abcdef0123456789abcdef"}}]}
            """.utf8).write(to: URL(fileURLWithPath: seedFile))
        let seed = try EmulatorSetup.seed(seedFile)
        await harness.emulator.seedRecords(seed.records, container: seed.container, environment: seed.environment ?? "development")
        // Everyone reads it.
        let read = try await harness.client.post("records/lookup", #"{"records": [{"recordName": "U1"}]}"#)
        #expect(read.records.first?["recordName"] as? String == "U1")
        let update = try await harness.client.post("records/modify", """
            {"operations": [{"operationType": "forceUpdate", "record": {"recordType": "Family", "recordName": "U1",
              "fields": {"name": {"value": "Changed", "type": "STRING"}}}}], "atomic": false}
            """)
        #expect(update.records.first?["serverErrorCode"] as? String == "ACCESS_DENIED")
        #expect(update.records.first?["reason"] as? String == "WRITE operation not permitted")
        // Its own records it may change.
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "XYZ789"))
        let own = try await harness.client.post("records/modify", """
            {"operations": [{"operationType": "forceUpdate", "record": {"recordType": "Family", "recordName": "F1",
              "fields": {"name": {"value": "Changed", "type": "STRING"}}}}], "atomic": false}
            """)
        #expect(own.records.first?["recordChangeTag"] != nil)
    }

    @Test func aKeyOpensOnlyItsOwnContainer() async throws {
        let harness = try await EmulatorHarness.start(container: "iCloud.example.first")
        defer { Task { await harness.emulator.stop() } }
        let second = try OpenSSL.keyPair()
        await harness.emulator.registerKey(id: "second-key", publicKeyPEM: second.publicPEM, container: "iCloud.example.second")
        #expect(try await harness.client.get("users/caller").status == 200)
        var elsewhere = harness.client
        elsewhere.container = "iCloud.example.second"
        let refused = try await elsewhere.get("users/caller")
        #expect(refused.status == 401)
        #expect(refused.serverErrorCode == "AUTHENTICATION_FAILED")
        let own = RawCloudKit(baseURL: harness.client.baseURL, keyID: "second-key", keyFile: second.privateFile,
                              container: "iCloud.example.second")
        #expect(try await own.get("users/caller").status == 200)
        // Each container keeps its own records.
        _ = try await own.post("records/modify", RawCloudKit.createFamily("S1", code: "ABC234"))
        #expect(await harness.emulator.storedRecords(container: "iCloud.example.first").isEmpty)
    }

    @Test func theContainerOptionReadsKeysPerContainer() throws {
        let key = try OpenSSL.keyPair()
        let keys = try EmulatorSetup.containerKeys("iCloud.example.app=k1:\(key.publicFile),k2:\(key.publicFile)")
        #expect(keys.map(\.id) == ["k1", "k2"])
        #expect(keys.allSatisfy { $0.container == "iCloud.example.app" })
        #expect(throws: EmulatorError.self) { try EmulatorSetup.containerKeys("example.app=k1:\(key.publicFile)") }
        #expect(throws: EmulatorError.self) { try EmulatorSetup.containerKeys("iCloud.example.app=k1") }
        #expect(throws: EmulatorError.self) { try EmulatorSetup.containerKeys("iCloud.example.app=k1:\(key.privateFile)") }
    }
}
