import Foundation
import TribeBoardAudit
import TribeBoardStoreFixtures
import TribeBoardSupport
import TribeBoardTestSupport

/// The workspace's store and snapshot audited in-process, as the command audits them.
extension AuditWorkspace {
    package func audit(remote: Bool = true, configure: (inout AuditRequest) -> Void = { _ in }) async throws -> AuditReport {
        if remote { try snapshot.write(to: snapshotPath) }
        var request = AuditRequest(storePath: provision.storePath, remote: remote ? .snapshot(path: snapshotPath) : nil)
        configure(&request)
        return try await Self.run(request)
    }

    /// As the command runs it: on a thread of its own.
    package static func run(_ request: AuditRequest) async throws(AuditError) -> AuditReport {
        try await PipelineThread.run { () async throws(AuditError) in try await Auditor(request: request, logger: TestLogger.quiet).run() }
    }
}

extension AuditReport {
    package func findings(_ category: AuditFinding.Category) -> [AuditFinding] { findings.filter { $0.category == category } }
    package var categories: [String: Int] { Dictionary(findings.map { ($0.category.rawValue, 1) }, uniquingKeysWith: +) }
}

