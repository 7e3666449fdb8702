import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// Step 1b of an applied repair with a live remote: each new code is claimed in CloudKit for its
/// family (`CodeClaim`) before its QR code is made and the store changes, so a repaired family is
/// never handed a code another store or device holds. The old code's claim, if this store made
/// one, is released by resync once the family's record shows the new code: released earlier,
/// another family could take the code while CloudKit still shows it on this one.
extension CodeRepairApplier {
    static let claimRounds = 3

    func claim(_ planned: [CodeRepairReport.Change], store: TribeBoardStore, client: CloudKitClient?,
               avoiding knownCodes: Set<String>) async throws -> [CodeRepairReport.Change] {
        guard let client else { return planned }
        var changes = planned
        var taken = knownCodes.union(changes.compactMap(\.assignedCode))
        var waiting = changes.indices.filter { changes[$0].assignedCode != nil }
        let claimer = CodeClaimer(client: client)
        for _ in 0..<Self.claimRounds where !waiting.isEmpty {
            var claims: [Int: CodeClaim] = [:]
            for index in waiting {
                guard let code = changes[index].assignedCode else { continue }
                claims[index] = try CodeClaim(code: code, familyID: FamilyID(rawValue: changes[index].familyId))
            }
            let answer = try await claimer.claim(Array(claims.values))
            var confirmed: [TribeBoardStore.ClaimedCode] = []
            var again: [Int] = []
            for index in waiting {
                guard let claim = claims[index] else { continue }
                switch answer.outcomes[claim.recordName] {
                case .claimed?:
                    confirmed.append(.init(familyID: claim.familyID, code: claim.code))
                case .heldBy?:
                    taken.insert(claim.code)
                    let fresh = try store.freeCode(avoiding: taken).value
                    taken.insert(fresh)
                    changes[index].assignedCode = fresh
                    again.append(index)
                case .failed(let error)?:
                    changes[index].assignedCode = nil
                    changes[index].skipped = "its new code could not be claimed in CloudKit (\(error.serverErrorCode)); run the repair again"
                case nil:
                    changes[index].assignedCode = nil
                    changes[index].skipped = "CloudKit's answer had no result for its new code's claim; run the repair again"
                }
            }
            try store.recordClaims(confirmed)
            waiting = again
        }
        for index in waiting {
            changes[index].assignedCode = nil
            changes[index].skipped = "every new code tried was claimed by another family; run the repair again"
        }
        return changes
    }

}
