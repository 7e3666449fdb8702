import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// The code claims of migrated families (`CodeClaim`): a family's copy is created at the
/// destination only once the claim of its code (kept or new) names the copy. The full read of the
/// destination's families decided who keeps a code by the audit's rule; the claim covers what that
/// read could not see (a family another store wrote seconds ago, missing from the query index).
enum MigrationClaims {
    /// Claims the codes of `items` (families about to be created); a claim another family holds
    /// makes the item a code conflict, a refused or unanswered one a retryable failure.
    static func claim(
        _ items: inout [MigrationItem], at destination: CloudKitClient, store: TribeBoardStore
    ) async throws -> Int {
        var claims: [Int: CodeClaim] = [:]
        // Copies of the legacy type (a container copy) claim nothing yet: the claim is the
        // Family's, named after the record legacy-types makes of them later.
        for index in items.indices
        where items[index].kind == .family && items[index].outcome == .wouldCopy
            && items[index].copy.recordType == RecordMapping.familyType
        {
            guard let code = items[index].copy.string(FamilyField.code),
                let claim = try? CodeClaim(
                    code: code, familyID: FamilyID(rawValue: items[index].destinationName))
            else { continue }
            claims[index] = claim
        }
        guard !claims.isEmpty else { return 0 }
        let answer = try await CodeClaimer(client: destination).claim(Array(claims.values))
        var confirmed: [TribeBoardStore.ClaimedCode] = []
        for (index, claim) in claims {
            switch answer.outcomes[claim.recordName] {
            case .claimed?:
                confirmed.append(.init(familyID: claim.familyID, code: claim.code))
            case .heldBy(let holder)?:
                items[index].outcome = .codeConflict
                items[index].reason = "its code is claimed at the destination by \(holder.sentence)"
                    + " (\(CodeClaim.recordType)), which the destination's query index did not show yet; run migrate again to apply the audit's rule"
            case .failed(let error)?:
                items[index].outcome = .failed
                items[index].retryable = true
                items[index].reason = "its code could not be claimed: \(error.serverErrorCode) \(error.reason ?? ""); run migrate again"
            case nil:
                items[index].outcome = .failed
                items[index].retryable = true
                items[index].reason =
                    "CloudKit's answer had no result for its code claim; run migrate again"
            }
        }
        try store.recordClaims(confirmed)
        return confirmed.count
    }
}
