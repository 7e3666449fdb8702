import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore
import TribeBoardSupport

/// Stores to resync and a resync run in-process against a scripted server, as the command runs it.
package enum ResyncFixtures {
    /// A store with three families, Alpha, Bravo and Charlie, pending; their ids in that order.
    package static func threeFamilies() throws -> (workspace: ProvisionWorkspace, ids: [String]) {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name\nAlpha\nBravo\nCharlie\n")
        return (workspace, try workspace.inspector().strings("SELECT id FROM families ORDER BY source_line"))
    }

    /// One resync of the store at `storePath` against a server following `script`.
    package static func resync(_ storePath: String, _ script: ScriptedCloudKitServer.Script) async throws -> ResyncReport {
        let server = try await ScriptedCloudKitServer.start(script)
        defer { Task { await server.stop() } }
        var configuration = CloudKitConfiguration()
        configuration.baseURL = server.baseURL
        let logger = ProvisionWorkspace.quietLogger
        let client = CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries, logger: logger)
        let store = try TribeBoardStore.openOrCreate(at: storePath).store
        return try await PipelineThread.run { () async throws(StoreError) in try await Resyncer(store: store, client: client, logger: logger).run() }
    }
}
