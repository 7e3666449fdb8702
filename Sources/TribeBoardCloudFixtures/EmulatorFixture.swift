import Foundation
import TribeBoardTestSupport
import Logging
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit

/// A running emulator with a fresh registered key, app users signed in, and clients for them.
package struct EmulatorFixture: Sendable {
    package let emulator: CloudKitEmulator
    package let keyID: String
    package let privateKeyPEM: [UInt8]
    package let folder: TemporaryDirectory
    package let keyFile: String
    /// App users' record names to their web auth tokens.
    package private(set) var userTokens: [String: String] = [:]

    /// The API token the fixture's app users send (the emulator accepts any).
    package static let apiToken = "fixture-api-token"

    /// An emulator with a key and, for each of `users` (record names such as `_app_user_1`), a
    /// signed-in app user whose web auth token holds `+`, `/` and `=` (the client must encode
    /// them).
    package static func start(_ options: CloudKitEmulator.Options = CloudKitEmulator.Options(),
                              users: [String]) async throws -> EmulatorFixture {
        var fixture = try await start(options)
        for user in users { try await fixture.signIn(user) }
        return fixture
    }

    /// Signs `user` in (a record name such as `_app_user_2`) with a fresh web auth token.
    package mutating func signIn(_ user: String) async throws {
        let token = "\(UUID().uuidString)+/=\(user.utf8.count)=="
        await emulator.registerUser(user, webAuthToken: token)
        userTokens[user] = token
    }

    package static func start(_ options: CloudKitEmulator.Options = CloudKitEmulator.Options())
        async throws -> EmulatorFixture
    {
        let folder = try TemporaryDirectory("emulator")
        let keyFile = folder.file("eckey.pem")
        let made = try ProcessRunner.run(
            "/usr/bin/openssl",
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile])
        guard made.status == 0, let pem = FileManager.default.contents(atPath: keyFile) else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "openssl could not make a key (make deps): \(made.stderr)"
                ])
        }
        chmod(keyFile, 0o600)
        let emulator = try await CloudKitEmulator.start(options)
        let keyID = "fixture-\(UUID().uuidString.prefix(8))"
        if let publicKey = CloudKitSignatureVerifier.publicKeyPEM(ofPrivateKey: Array(pem)) {
            await emulator.registerKey(id: keyID, publicKeyPEM: publicKey)
        }
        return EmulatorFixture(
            emulator: emulator, keyID: keyID, privateKeyPEM: Array(pem), folder: folder,
            keyFile: keyFile)
    }

    package var configuration: CloudKitConfiguration {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = emulator.baseURL
        configuration.keyID = keyID
        configuration.keyFile = keyFile
        return configuration
    }

    /// The user record the fixture's key acts as (its developer's; users/caller answers it).
    package var developerRecordName: String { CloudKitEmulator.developerRecordName(keyID: keyID) }

    /// The configuration of an app user signed in with `start(users:)` or `signIn`: its tokens
    /// instead of a key.
    package func configuration(user: String) throws -> CloudKitConfiguration {
        guard let token = userTokens[user] else {
            throw CocoaError(
                .featureUnsupported,
                userInfo: [NSLocalizedDescriptionKey: "\(user) is not signed in to the fixture"])
        }
        return Self.configuration(baseURL: emulator.baseURL, webAuthToken: token)
    }

    /// An app user's configuration for any emulator (a `--user NAME=TOKEN` one run as a command).
    package static func configuration(baseURL: String, webAuthToken: String)
        -> CloudKitConfiguration
    {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = baseURL
        configuration.appUser = AppUserCredentials(apiToken: apiToken, webAuthToken: webAuthToken)
        return configuration
    }

    /// A client acting as the app user `user` (unsigned; tokens in the URL).
    package func client(user: String, policy: RetryPolicy = quickRetries) throws -> CloudKitClient {
        Self.client(configuration: try configuration(user: user), policy: policy)
    }

    /// A client with `configuration` and no key, logging nowhere.
    package static func client(
        configuration: CloudKitConfiguration, policy: RetryPolicy = quickRetries
    ) -> CloudKitClient {
        CloudKitClient(
            configuration: configuration, signer: nil, policy: policy,
            logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
    }

    /// A client with a fresh key of its own, registered like the fixture's: another developer
    /// (a distinct `_creator`), for rehearsing what one developer's key may do to another's
    /// records.
    package func anotherDeveloper(policy: RetryPolicy = quickRetries) async throws -> (
        client: CloudKitClient, keyID: String
    ) {
        let keyFile = folder.file("eckey-\(UUID().uuidString.prefix(8)).pem")
        let made = try ProcessRunner.run(
            "/usr/bin/openssl",
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile])
        guard made.status == 0, let pem = FileManager.default.contents(atPath: keyFile),
            let publicKey = CloudKitSignatureVerifier.publicKeyPEM(ofPrivateKey: Array(pem))
        else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey: "openssl could not make a key: \(made.stderr)"
                ])
        }
        let otherKeyID = "other-\(UUID().uuidString.prefix(8))"
        await emulator.registerKey(id: otherKeyID, publicKeyPEM: publicKey)
        return (
            try client(policy: policy, keyID: otherKeyID, privateKeyPEM: Array(pem)), otherKeyID
        )
    }

    /// The command-line options that point a tribeboard command at this emulator.
    package var remoteArguments: [String] {
        ["--key-id", keyID, "--key-file", keyFile, "--ck-base-url", emulator.baseURL]
    }

    /// Retries fast enough for tests, bounded by attempts: the time budget is far, so a loaded
    /// machine (a first request of over 10 s in the parallel run) does not end retries a test
    /// counts.
    package static let quickRetries = RetryPolicy(
        maxAttempts: 6, baseDelay: 0.01, maxDelay: 0.2, maxTotalSeconds: 600)

    package func client(
        policy: RetryPolicy = quickRetries, keyID: String? = nil, privateKeyPEM: [UInt8]? = nil
    ) throws -> CloudKitClient {
        let signer = try CloudKitSigner(
            keyID: keyID ?? self.keyID, privateKeyPEM: privateKeyPEM ?? self.privateKeyPEM)
        return CloudKitClient(
            configuration: configuration, signer: signer, policy: policy,
            logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
    }
}
