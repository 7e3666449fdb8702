import Foundation
import GRDB
import TribeBoardAudit
import TribeBoardSupport

/// A provisioned store and a remote snapshot, audited in-process as the command audits them.
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
        try provision.inspector().rows("SELECT id, name, code FROM families ORDER BY source_line").map { ($0["id"] ?? "", $0["name"] ?? "", $0["code"] ?? "") }
    }

    /// Writes to the store as a hand edit or an older build would, bypassing the toolkit.
    package func edit(_ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: provision.storePath)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    package func audit(remote: Bool = true, configure: (inout AuditRequest) -> Void = { _ in }) async throws -> AuditReport {
        if remote { try snapshot.write(to: snapshotPath) }
        var request = AuditRequest(storePath: provision.storePath, remote: remote ? .snapshot(path: snapshotPath) : nil)
        configure(&request)
        return try await Self.run(request)
    }

    /// As the command runs it: on a thread of its own.
    package static func run(_ request: AuditRequest) async throws(AuditError) -> AuditReport {
        try await PipelineThread.run { () async throws(AuditError) in try await Auditor(request: request, logger: ProvisionWorkspace.quietLogger).run() }
    }
}

extension AuditReport {
    package func findings(_ category: AuditFinding.Category) -> [AuditFinding] { findings.filter { $0.category == category } }
    package var categories: [String: Int] { Dictionary(findings.map { ($0.category.rawValue, 1) }, uniquingKeysWith: +) }
}

