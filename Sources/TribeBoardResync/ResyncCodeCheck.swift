import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore

extension Resyncer {
    /// Codes never checked remotely are looked up first. Returns the families set aside as
    /// conflicts.
    func checkCodes(_ families: [DueFamily], bookkeeping: SyncBookkeeping,
                    report: inout ResyncReport) async throws -> Result<Set<String>, CloudKitError> {
        let unverified = families.filter { $0.family.codeVerifiedRemotelyAt == nil }
        guard !unverified.isEmpty else { return .success([]) }
        let codes = unverified.map(\.family.code)
        // One query per record type (Family, legacy CKFamily) per 200 codes.
        report.requests += 2 * ((codes.count + RemoteCodeCheck.codesPerQuery - 1) / RemoteCodeCheck.codesPerQuery)
        let check = RemoteCodeCheck(client: client, logger: logger)
        guard let holders = await check.holders(of: codes) else {
            return .failure(check.failure ?? .network(reason: "CloudKit could not be asked"))
        }
        var conflicted = Set<String>()
        var verified: [PendingRow] = []
        for due in unverified {
            let (family, read) = (due.family, due.read)
            let code = family.code
            if let holder = holders[code], holder != read.id {
                conflicted.insert(read.id)
                report.failed += 1
                try bookkeeping.record(
                    .conflict(
                        with: holder, error: "family \(holder) in CloudKit already has this code"),
                    row: read, at: .now)
                logger.warning(
                    "code conflict: not uploaded",
                    metadata: [
                        "family": "\(read.id)", "code": "\(FamilyCode.mask(code))",
                        "remote": "\(holder)"
                    ])
            } else {
                verified.append(read)
            }
        }
        try bookkeeping.queue.markVerified(verified, at: .now)
        return .success(conflicted)
    }
}
