import Foundation
import TribeBoardCloudKitEmulator

/// An emulator started with `options` and one key registered for `container` (nil: every container).
struct EmulatorHarness {
    let emulator: CloudKitEmulator
    let client: RawCloudKit
    let publicFile: String

    static func start(_ options: CloudKitEmulator.Options = .init(), container: String? = nil) async throws -> EmulatorHarness {
        let key = try OpenSSL.keyPair()
        let emulator = try await CloudKitEmulator.start(options)
        let keyID = "key-\(UUID().uuidString.prefix(8))"
        await emulator.registerKey(id: keyID, publicKeyPEM: key.publicPEM, container: container)
        var client = RawCloudKit(baseURL: emulator.baseURL, keyID: keyID, keyFile: key.privateFile)
        if let container { client.container = container }
        return EmulatorHarness(emulator: emulator, client: client, publicFile: key.publicFile)
    }

    /// The toolkit's schema file, as an operator imports it.
    static func templateSchema() throws -> ContainerSchema {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates/cloudkit-schema.ckdb").path
        return try EmulatorSetup.schema(path)
    }

    static func enforced(development: ContainerSchema, production: ContainerSchema = .empty) -> CloudKitEmulator.Options {
        var options = CloudKitEmulator.Options()
        options.schema = .enforced(development: development, production: production)
        return options
    }
}
