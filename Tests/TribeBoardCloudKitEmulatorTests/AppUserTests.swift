import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// App users (tokens in the URL) and developers (one per key) as the public database's roles
/// see them: everyone reads, any signed-in user creates, only a record's creator changes it.
@Suite("Emulator app users and developers")
struct AppUserTests {
    /// A token as Apple's look: base64, with `+`, `/` and `=`.
    static let token = "AbC+dEf/GhI=jKl=="
    static let encodedToken = "AbC%2BdEf%2FGhI%3DjKl%3D%3D"

    static func user(_ harness: EmulatorHarness, token: String = encodedToken) -> RawCloudKit {
        RawCloudKit.appUser(baseURL: harness.client.baseURL, query: "ckAPIToken=api-token&ckWebAuthToken=\(token)")
    }

    static func forceUpdate(_ name: String) -> String {
        """
        {"operations": [{"operationType": "forceUpdate", "record": {"recordType": "Family", "recordName": "\(name)",
          "fields": {"name": {"value": "Taken over", "type": "STRING"}}}}], "atomic": false}
        """
    }

    @Test func anAppUserIsWhoItsTokenSignsIn() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        await harness.emulator.registerUser("_app_user_1", webAuthToken: Self.token)
        let user = Self.user(harness)
        let caller = try await user.get("users/caller")
        #expect(caller.status == 200)
        #expect((caller.json["users"] as? [[String: Any]])?.first?["userRecordName"] as? String == "_app_user_1")
        let created = try await user.post("records/modify", RawCloudKit.createFamily("U1", code: "ABC234"))
        #expect((created.records.first?["created"] as? [String: Any])?["userRecordName"] as? String == "_app_user_1")
        // In any container.
        var elsewhere = user
        elsewhere.container = "iCloud.example.other"
        #expect(try await elsewhere.get("users/caller").status == 200)
    }

    @Test func aTokenArrivesWholeOnlyWhenEncoded() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        await harness.emulator.registerUser("_app_user_1", webAuthToken: Self.token)
        // `+` left bare is a space to a web server, so the token no longer matches.
        let bare = try await Self.user(harness, token: "AbC+dEf%2FGhI%3DjKl%3D%3D").get("users/caller")
        #expect(bare.status == 421)
        #expect(bare.serverErrorCode == "AUTHENTICATION_REQUIRED")
        let unknown = try await Self.user(harness, token: "nobody").get("users/caller")
        #expect(unknown.serverErrorCode == "AUTHENTICATION_REQUIRED")
        let noAPIToken = RawCloudKit.appUser(baseURL: harness.client.baseURL, query: "ckWebAuthToken=\(Self.encodedToken)")
        let refused = try await noAPIToken.get("users/caller")
        #expect(refused.status == 401)
        #expect(refused.serverErrorCode == "AUTHENTICATION_FAILED")
        // Neither tokens nor a signature: the key check refuses it.
        let nothing = RawCloudKit.appUser(baseURL: harness.client.baseURL, query: "other=1")
        #expect(try await nothing.get("users/caller").serverErrorCode == "AUTHENTICATION_FAILED")
    }

    @Test func onlyARecordsCreatorChangesItWhoeverAsks() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        await harness.emulator.registerUser("_app_user_1", webAuthToken: Self.token)
        await harness.emulator.registerUser("_app_user_2", webAuthToken: "second")
        let first = Self.user(harness), second = Self.user(harness, token: "second")
        _ = try await first.post("records/modify", RawCloudKit.createFamily("U1", code: "ABC234"))
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("D1", code: "XYZ789"))
        // Everyone reads both.
        let read = try await second.post("records/lookup", #"{"records": [{"recordName": "U1"}, {"recordName": "D1"}]}"#)
        #expect(read.records.compactMap { $0["recordName"] as? String } == ["U1", "D1"])
        #expect(read.records.allSatisfy { $0["serverErrorCode"] == nil })
        // Another user, the developer, and the user against the developer's record: refused.
        for (caller, name) in [(second, "U1"), (harness.client, "U1"), (first, "D1")] {
            let answer = try await caller.post("records/modify", Self.forceUpdate(name))
            #expect(answer.records.first?["serverErrorCode"] as? String == "ACCESS_DENIED")
        }
        let own = try await first.post("records/modify", Self.forceUpdate("U1"))
        #expect(own.records.first?["recordChangeTag"] != nil)
    }

    @Test func eachKeyIsItsOwnDeveloper() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        let second = try OpenSSL.keyPair()
        await harness.emulator.registerKey(id: "second-key", publicKeyPEM: second.publicPEM)
        let other = RawCloudKit(baseURL: harness.client.baseURL, keyID: "second-key", keyFile: second.privateFile)
        let firstCaller = try await harness.client.get("users/caller").json["users"] as? [[String: Any]]
        let secondCaller = try await other.get("users/caller").json["users"] as? [[String: Any]]
        #expect(firstCaller?.first?["userRecordName"] as? String == CloudKitEmulator.developerRecordName(keyID: harness.client.keyID))
        #expect(secondCaller?.first?["userRecordName"] as? String == "_developer_second-key")
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("D1", code: "XYZ789"))
        let answer = try await other.post("records/modify", Self.forceUpdate("D1"))
        #expect(answer.records.first?["serverErrorCode"] as? String == "ACCESS_DENIED")
    }

    @Test func theUserOptionIsANameAndAToken() throws {
        let user = try EmulatorSetup.user("_app_user_1=AbC+d/E==")
        #expect(user.userRecordName == "_app_user_1")
        #expect(user.webAuthToken == "AbC+d/E==")
        for bad in ["_app_user_1", "=token", "_app_user_1="] {
            #expect(throws: EmulatorError.self) { try EmulatorSetup.user(bad) }
        }
    }
}
