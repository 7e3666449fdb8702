import Foundation
import Logging
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit

/// A running emulator with a fresh registered key, and clients for it.
package struct EmulatorFixture: Sendable {
    package let emulator: CloudKitEmulator
    package let keyID: String
    package let privateKeyPEM: [UInt8]
    package let folder: TemporaryDirectory
    package let keyFile: String

    package static func start(_ options: CloudKitEmulator.Options = CloudKitEmulator.Options()) async throws -> EmulatorFixture {
        let folder = try TemporaryDirectory("emulator")
        let keyFile = folder.file("eckey.pem")
        let made = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile])
        guard made.status == 0, let pem = FileManager.default.contents(atPath: keyFile) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl could not make a key (make deps): \(made.stderr)"])
        }
        chmod(keyFile, 0o600)
        let emulator = try await CloudKitEmulator.start(options)
        let keyID = "fixture-\(UUID().uuidString.prefix(8))"
        if let publicKey = CloudKitSignatureVerifier.publicKeyPEM(ofPrivateKey: Array(pem)) {
            await emulator.registerKey(id: keyID, publicKeyPEM: publicKey)
        }
        return EmulatorFixture(emulator: emulator, keyID: keyID, privateKeyPEM: Array(pem), folder: folder, keyFile: keyFile)
    }

    package var configuration: CloudKitConfiguration {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = emulator.baseURL
        configuration.keyID = keyID
        configuration.keyFile = keyFile
        return configuration
    }

    /// The command-line options that point a tribeboard command at this emulator.
    package var remoteArguments: [String] {
        ["--key-id", keyID, "--key-file", keyFile, "--ck-base-url", emulator.baseURL]
    }

    /// Retries fast enough for tests, still bounded.
    package static let quickRetries = RetryPolicy(maxAttempts: 6, baseDelay: 0.01, maxDelay: 0.2, maxTotalSeconds: 10)

    package func client(policy: RetryPolicy = quickRetries, keyID: String? = nil, privateKeyPEM: [UInt8]? = nil) throws -> CloudKitClient {
        let signer = try CloudKitSigner(keyID: keyID ?? self.keyID, privateKeyPEM: privateKeyPEM ?? self.privateKeyPEM)
        return CloudKitClient(configuration: configuration, signer: signer, policy: policy,
                              logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
    }
}
