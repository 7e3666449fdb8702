import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// The client acting as an app user: tokens in the query string, encoded, never signed, never
/// printed; and against the emulator, what such a user may and may not do.
@Suite("Client as an app user")
struct AppUserClientTests {
    static let credentials = AppUserCredentials(apiToken: "api+token", webAuthToken: "Ab+c/d=e==")

    @Test func tokensAreSentEncodedAndNothingIsSigned() async throws {
        let server = try RawHTTPServer { _, _ in .init(status: 200, body: #"{"users": [{"userRecordName": "_app_user_1"}]}"#) }
        defer { server.stop() }
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        configuration.appUser = Self.credentials
        // Even handed a signer, a client with a user's tokens does not sign.
        let key = try TemporaryDirectory("app-user-key")
        let keyFile = key.file("eckey.pem")
        _ = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile])
        let signer = try CloudKitSigner(keyID: "k", privateKeyPEM: Array(FileManager.default.contents(atPath: keyFile) ?? Data()))
        let client = CloudKitClient(configuration: configuration, signer: signer, policy: RetryPolicy(maxAttempts: 1),
                                    logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        #expect(try await client.caller().userRecordName == "_app_user_1")
        #expect(server.requests == ["/database/1/iCloud.net.dataenvy.TribeBoard/development/public/users/caller"
            + "?ckAPIToken=api%2Btoken&ckWebAuthToken=Ab%2Bc%2Fd%3De%3D%3D"])
        #expect(!(server.requestHeads.first ?? "").lowercased().contains("x-apple-cloudkit-request"))
    }

    @Test func tokensNeverPrint() throws {
        var configuration = CloudKitConfiguration()
        configuration.appUser = Self.credentials
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), dumped, "\(Self.credentials)"] {
            #expect(!text.contains("api+token") && !text.contains("Ab+c/d") && !text.contains("Ab%2Bc"), "\(text)")
        }
        #expect(Self.credentials.masking("GET /x?ckAPIToken=api%2Btoken&ckWebAuthToken=Ab%2Bc%2Fd%3De%3D%3D failed")
            == "GET /x?ckAPIToken=***&ckWebAuthToken=*** failed")
    }

    @Test func aServerQuotingTheURLHasTheTokensMasked() async throws {
        let server = try RawHTTPServer { _, path in
            .init(status: 400, body: #"{"uuid": "u", "serverErrorCode": "BAD_REQUEST", "reason": "bad \#(path)"}"#)
        }
        defer { server.stop() }
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        configuration.appUser = Self.credentials
        let client = CloudKitClient(configuration: configuration, signer: nil, policy: RetryPolicy(maxAttempts: 1),
                                    logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        do {
            _ = try await client.caller()
            Issue.record("a BAD_REQUEST was accepted")
        } catch {
            #expect(!"\(error)".contains("Ab%2Bc") && "\(error)".contains("ckWebAuthToken=***"), "\(error)")
        }
    }

    @Test func aKeyAndTokensTogetherAreRefused() {
        var configuration = CloudKitConfiguration()
        configuration.appUser = Self.credentials
        configuration.keyID = "k"
        configuration.keyFile = "/k.pem"
        #expect(throws: CloudKitConfigurationError.self) { try configuration.validate() }
        configuration.keyID = nil
        configuration.keyFile = nil
        #expect(configuration.isConfigured)
        configuration.appUser = AppUserCredentials(apiToken: "a", webAuthToken: "")
        #expect(throws: CloudKitConfigurationError.missing("web auth token to go with the API token")) { try configuration.validate() }
    }

    @Test func anAppUserCreatesButChangesOnlyItsOwn() async throws {
        let fixture = try await EmulatorFixture.start(users: ["_app_user_1", "_app_user_2"])
        defer { Task { await fixture.emulator.stop() } }
        let user = try fixture.client(user: "_app_user_1"), other = try fixture.client(user: "_app_user_2")
        let developer = try fixture.client()
        #expect(try await user.caller().userRecordName == "_app_user_1")
        #expect(try await developer.caller().userRecordName == fixture.developerRecordName)
        let family = CloudKitRecord(recordName: "F1", recordType: "Family", fields: ["code": .string("ABC234")])
        let created = try await user.modify([CloudKitOperation(.create, family)])
        guard case .record(let saved)? = created.first else { throw TestFailure("no record: \(created)") }
        #expect(saved.created?.userRecordName == "_app_user_1")
        var changed = family
        changed.fields?["code"] = .string("XYZ789")
        for attacker in [other, developer] {
            let refused = try await attacker.modify([CloudKitOperation(.forceUpdate, changed)])
            guard case .failure(let error)? = refused.first else { throw TestFailure("not refused: \(refused)") }
            #expect(error.code == .accessDenied)
        }
        let (second, _) = try await fixture.anotherDeveloper()
        #expect(try await second.caller().userRecordName != fixture.developerRecordName)
        guard case .record? = try await user.modify([CloudKitOperation(.forceUpdate, changed)]).first else {
            throw TestFailure("its creator could not change it")
        }
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The same client against the independent stand-in (Tests/StandIn), which decodes the query
/// string its own way: the encoded token arrives whole there too.
@Suite("Client as an app user against the stand-in")
struct AppUserStandInTests {
    @Test func anEncodedTokenSignsTheUserInAndOnlyItsCreatorChangesTheRecord() async throws {
        let standIn = try StandInServer.start(users: ["_app_user_1=Ab+c/d=e=="])
        defer { standIn.stop() }
        let user = EmulatorFixture.client(configuration: EmulatorFixture.configuration(baseURL: standIn.baseURL, webAuthToken: "Ab+c/d=e=="))
        #expect(try await user.caller().userRecordName == "_app_user_1")
        let family = CloudKitRecord(recordName: "F1", recordType: "Family", fields: ["code": .string("ABC234")])
        guard case .record(let saved)? = try await user.modify([CloudKitOperation(.create, family)]).first else {
            throw TestFailure("the user could not create F1")
        }
        #expect(saved.created?.userRecordName == "_app_user_1")
        guard case .failure(let refused)? = try await standIn.client().modify([CloudKitOperation(.forceUpdate, family)]).first else {
            throw TestFailure("the developer changed the user's record")
        }
        #expect(refused.code == .accessDenied)
    }
}

/// INTERNAL_ERROR is "a nonrecoverable error" to Apple: retried only when it carries retryAfter.
@Suite("Client retries of INTERNAL_ERROR")
struct InternalErrorRetryTests {
    @Test(arguments: [false, true]) func anInternalErrorIsRetriedOnlyWithRetryAfter(retryAfter: Bool) async throws {
        let body = #"{"uuid": "u", "serverErrorCode": "INTERNAL_ERROR", "reason": "An internal error occurred""#
            + (retryAfter ? #", "retryAfter": 0.01}"# : "}")
        let server = try RawHTTPServer { index, _ in
            index == 0 ? .init(status: 500, body: body) : .init(status: 200, body: #"{"users": [{"userRecordName": "_d"}]}"#)
        }
        defer { server.stop() }
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        let client = CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries,
                                    logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        // The policy's time budget is far (EmulatorFixture.quickRetries): under load the first
        // request alone once took over 10 s, and a near budget then ended the retry after one attempt.
        do {
            let caller = try await client.caller()
            #expect(retryAfter && caller.userRecordName == "_d")
        } catch {
            #expect(!retryAfter)
            #expect(error == .service(code: .internalError, httpStatus: 500, reason: "An internal error occurred", retryAfter: nil))
        }
        #expect(server.requests.count == (retryAfter ? 2 : 1))
    }
}
