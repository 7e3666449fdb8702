import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// A server that lies, trickles or never ends: every remote call ends, with a typed error, and
/// no number from the server can trap.
@Suite("CloudKit client: misbehaving servers", .timeLimit(.minutes(1)))
struct MisbehavingServerTests {
    static let quick = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.05, maxTotalSeconds: 5)

    func client(_ server: RawHTTPServer, timeout: Double = 5) -> CloudKitClient {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        return CloudKitClient(configuration: configuration, signer: nil, policy: Self.quick, requestTimeout: timeout,
                              logger: TestLogger.quiet)
    }

    func queryError(_ client: CloudKitClient) async -> CloudKitError? {
        do {
            try await client.queryAll(CloudKitQuery(recordType: "Family")) { _ in }
            return nil
        } catch let error as CloudKitError {
            return error
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test func aRetryAfterOf1e300GivesUpAtOnceWithoutATrap() async throws {
        let server = try RawHTTPServer { _, _ in
            .init(status: 503, body: #"{"uuid":"u","serverErrorCode":"TRY_AGAIN_LATER","reason":"busy","retryAfter":1e300}"#)
        }
        defer { server.stop() }
        let error = await queryError(client(server))
        guard case .gaveUp(let attempts, _) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(attempts == 1, "a wait past the policy's total time: no second request")
        #expect(error?.localizedDescription.isEmpty == false)
        #expect(server.requests.count == 1)
        #expect(RetryPolicy(maxTotalSeconds: 120).delay(afterAttempt: 1, retryAfter: 1e300, random: 0) == 1e300)
        #expect(RetryPolicy(maxTotalSeconds: 120).delay(afterAttempt: 1, retryAfter: -5, random: 0) == 0)
        #expect(RetryPolicy(maxTotalSeconds: 120).delay(afterAttempt: 1, retryAfter: .nan, random: 0) == 0)
    }

    @Test func anImpossibleCreationTimeMakesThatTimeUnknownNotTheAnswerUnusable() async throws {
        let server = try RawHTTPServer { _, _ in
            .init(status: 200, body: #"{"records":[{"recordName":"A","recordType":"Family","fields":{},"created":{"timestamp":1e300,"userRecordName":"_u"}},"#
                + #"{"recordName":"B","recordType":"Family","fields":{},"created":{"timestamp":1700000000000}}]}"#)
        }
        defer { server.stop() }
        var records: [CloudKitRecord] = []
        try await client(server).queryAll(CloudKitQuery(recordType: "Family")) { page in
            for case .record(let record) in page { records.append(record) }
        }
        #expect(records.map(\.recordName) == ["A", "B"])
        #expect(records.map { $0.created?.timestamp } == [nil, 1_700_000_000_000])
    }

    @Test func aContinuationMarkerThatComesBackStopsTheQuery() async throws {
        let server = try RawHTTPServer { _, _ in .init(status: 200, body: #"{"records":[],"continuationMarker":"again"}"#) }
        defer { server.stop() }
        let error = await queryError(client(server))
        #expect(error?.localizedDescription.contains("continuation marker it had returned before") == true, "\(String(describing: error))")
        #expect(server.requests.count == 2)
    }

    @Test func anAnswerThatTricklesEndsWithinTheRequestDeadline() async throws {
        let server = try RawHTTPServer { _, _ in
            .init(status: 200, body: String(repeating: " ", count: 1_000) + #"{"records":[]}"#, interval: 0.4, bytesPerChunk: 1)
        }
        defer { server.stop() }
        // Without a request deadline this took 400 s (the suite's time limit fails it first).
        let error = await queryError(client(server, timeout: 1))
        #expect(error?.category == .network || error?.isTransient == true, "\(String(describing: error))")
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let elsewhere = try RawHTTPServer { _, _ in .init(status: 200, body: #"{"records":[]}"#) }
        defer { elsewhere.stop() }
        let server = try RawHTTPServer { _, path in
            .init(status: 307, headers: ["Location": "http://localhost:\(elsewhere.port)\(path)"], body: "")
        }
        defer { server.stop() }
        let error = await queryError(client(server))
        #expect(error?.localizedDescription.contains("redirected to localhost") == true, "\(String(describing: error))")
        #expect(elsewhere.requests.isEmpty, "the signed request never reached the other host")
    }

    @Test func aRetryAfterHeaderAloneIsHonoured() async throws {
        let server = try RawHTTPServer { _, _ in .init(status: 503, headers: ["Retry-After": "3"], body: "<html>busy</html>") }
        defer { server.stop() }
        let error = await queryError(client(server))
        guard case .gaveUp(_, let last) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(last.retryAfter == 3)
        #expect(CloudKitClient.retryAfter(header: "Fri, 31 Dec 1999 23:59:59 GMT") == 0)
        #expect(CloudKitClient.retryAfter(header: "1e300") == nil)
    }

    @Test func aPassphraseProtectedKeyIsRefusedWithoutAPrompt() throws {
        let directory = try TemporaryDirectory("encrypted-key")
        let key = directory.file("key.pem")
        let made = try ProcessRunner.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                                                              "-aes-256-cbc", "-pass", "pass:secret", "-out", key])
        try #require(made.status == 0, "\(made.stderr)")
        chmod(key, 0o600)
        #expect {
            try CloudKitSigner(keyID: "k", keyFile: key)
        } throws: { error in
            (error as? CloudKitConfigurationError)?.localizedDescription.contains("passphrase") == true
        }
        #expect {
            try CloudKitSigner(keyID: "k", keyFile: directory.path)
        } throws: { error in
            (error as? CloudKitConfigurationError)?.localizedDescription.contains("folder") == true
        }
    }
}
