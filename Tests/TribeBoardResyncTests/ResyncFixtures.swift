import Foundation
import GRDB
import Logging
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardTestSupport

/// Stores to resync and a resync run in-process against a scripted server, as the command runs it.
package enum ResyncFixtures {
    /// A store with three families, Alpha, Bravo and Charlie, pending; their ids in that order.
    package static func threeFamilies() throws -> (workspace: ProvisionWorkspace, ids: [String]) {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name\nAlpha\nBravo\nCharlie\n")
        return (workspace, try workspace.inspector().strings("SELECT id FROM families ORDER BY source_line"))
    }

    /// One row of every table resync uploads, provisioned the ordinary way and then given every
    /// optional column: what the mapping tests turn into records.
    package static func everyTableFilled() throws -> [(table: SyncTable, row: Row)] {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,admin_display_name,admin_apple_user_id_hash\nOkafor,Ada,\(CSVFixtures.hexHash(1))\n")
        return try DatabaseQueue(path: workspace.storePath).write { db in
            try db.execute(sql: """
                UPDATE user_profiles SET avatar_url = 'https://example.com/a.png';
                UPDATE memberships SET last_role_change_at = joined_at;
                """)
            return try SyncTable.allCases.compactMap { table in
                try Row.fetchOne(db, sql: "SELECT * FROM \(table.rawValue)").map { (table, $0) }
            }
        }
    }

    /// One resync of the store at `storePath` against a server following `script`, as the
    /// command runs it (`ResyncRun`: the store checked, the lock taken), on a pipeline thread.
    package static func resync(_ storePath: String, _ script: ScriptedCloudKitServer.Script,
                               onProgress: @escaping @Sendable (WorkProgress) -> Void = { _ in }) async throws -> ResyncReport {
        let server = try await ScriptedCloudKitServer.start(script)
        defer { Task { await server.stop() } }
        var run = ResyncRun(storePath: storePath, client: client(server.baseURL), logger: TestLogger.quiet)
        run.onProgress = onProgress
        return try await PipelineThread.run { try await run.run() }
    }

    /// A client of the server at `baseURL` (unsigned, quick retries, quiet).
    package static func client(_ baseURL: String) -> CloudKitClient {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = baseURL
        return CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries,
                              logger: TestLogger.quiet)
    }
}
