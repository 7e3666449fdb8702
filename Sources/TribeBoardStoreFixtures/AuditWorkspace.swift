import Foundation
import GRDB
import TribeBoardCloudFixtures
import TribeBoardTestSupport

/// A provisioned store and a remote snapshot (the audit tests run the audit on them).
package struct AuditWorkspace {
    package let provision: ProvisionWorkspace
    package var snapshot = SnapshotFixture()
    package var snapshotPath: String { provision.folder.file("remote.jsonl") }

    package init(families: Int) throws {
        provision = try ProvisionWorkspace()
        try provision.run(CSVFixtures.families(count: families))
    }

    /// Families by name (CSVFixtures names them "Family B", "Family C"...), oldest first.
    package func families() throws -> [(id: String, name: String, code: String)] {
        try provision.inspector().rows("SELECT id, name, code FROM families ORDER BY source_line")
            .map { ($0["id"] ?? "", $0["name"] ?? "", $0["code"] ?? "") }
    }

    /// Writes to the store as a hand edit or an older build would, bypassing the toolkit.
    package func edit(_ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: provision.storePath)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }
}
