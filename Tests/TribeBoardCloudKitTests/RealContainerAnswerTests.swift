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
        let client = CloudKitClient(configuration: configuration, signer: nil, logger: TestLogger.quiet)
        #expect(try await client.caller().userRecordName == "_c0ffee")
    }
}
