import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// Answers a real container gives that the first client did not expect.
@Suite("CloudKit: how a real container answers")
struct RealContainerAnswerTests {
    @Test(arguments: [#"{"users":[{"userRecordName":"_c0ffee","firstName":"Ops"}]}"#, #"{"userRecordName":"_c0ffee"}"#])
    func usersCallerInEitherShape(body: String) async throws {
        let server = try RawHTTPServer { _, _ in .init(status: 200, body: body) }
        defer { server.stop() }
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        let client = CloudKitClient(configuration: configuration, signer: nil, logger: ProvisionWorkspace.quietLogger)
        #expect(try await client.caller().userRecordName == "_c0ffee")
    }

    /// Every create answered CONFLICT, as native CloudKit reports an insert of an existing record:
    /// the records are looked up, found as sent, and counted as uploaded, not quarantined.
    @Test func conflictOnACreateIsLookedUpLikeExists() async throws {
        let (workspace, ids) = try ResyncFixtures.threeFamilies()
        let script = ScriptedCloudKitServer.Script.createsAnswered("CONFLICT", remembering: SentRecords())
        let report = try await ResyncFixtures.resync(workspace.storePath, script)
        #expect(report.synced == 3, "\(report.stoppedBy ?? "")")
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 0)
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM sync_state") == 0)
        #expect(ids.count == 3)
    }
}
