import Foundation
import Logging
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// Claims the codes of a batch's families in CloudKit (`CodeClaim`) after the batch is in the
/// store and before its QR codes, manifest lines or sheets are written, so that nothing printed
/// carries a code another store or device holds.
///
/// - Claimed now, or found naming the family (a killed run): the family goes on as it was.
/// - Claimed by another family: a code this run generated is replaced by a new one, claimed in
///   turn (up to `rounds` times); a preassigned code makes the row fail and its family, which
///   never left the store, is removed (as a preassigned code the `code` query finds taken does);
///   a family of an earlier run (`existing`) is set aside as a conflict, as resync would.
/// - No answer (CloudKit down, throttled): the code stays unclaimed, as offline; resync claims it.
struct ClaimStage {
    static let rounds = 3

    let remote: RemoteCodeCheck
    let store: TribeBoardStore
    let generator: FamilyCodeGenerator
    let reservations: RowTracker?
    let logger: Logger

    struct Tally {
        var claimed = 0
        var recoded = 0
        var unclaimed = 0
    }

    func claim(_ batch: [ProvisionRowResult], tally: inout Tally) async throws -> [ProvisionRowResult] {
        var results = batch
        let candidates = results.indices.filter { results[$0].status != .failed && results[$0].familyId != nil && results[$0].code != nil }
        var held = try store.claimedCodes(familyIDs: candidates.compactMap { results[$0].familyId?.rawValue })
        var waiting = candidates.filter { index in
            guard let id = results[index].familyId?.rawValue, let code = results[index].code else { return false }
            return !held.contains(.init(familyID: id, code: CodeClaim.normalise(code)))
        }
        for _ in 0..<Self.rounds where !waiting.isEmpty && remote.isAvailable {
            var claims: [Int: CodeClaim] = [:]
            for index in waiting {
                guard let id = results[index].familyId?.rawValue, let code = results[index].code,
                      let claim = try? CodeClaim(code: code, familyID: id) else { continue }
                claims[index] = claim
            }
            let sent = Array(claims.values)
            let claimer = remote.claimer
            // Awaited from the pipeline's thread, between its SQLite steps.
            let asked = await claimer.claimResult(sent)
            guard case .success(let answer) = asked else {
                if case .failure(let error) = asked {
                    remote.trip(error)
                    logger.warning("CloudKit cannot claim codes; the rest of the run works offline and its codes stay unclaimed until resync",
                                   metadata: ["error": "\(error.localizedDescription)", "kind": "\(error.category.rawValue)"])
                }
                break
            }
            var confirmed: [TribeBoardStore.ClaimedCode] = []
            var taken: [Int] = []
            for index in waiting {
                guard let claim = claims[index] else { continue }
                switch answer.outcomes[claim.recordName] {
                case .claimed?: confirmed.append(.init(familyID: claim.familyID, code: claim.code))
                case .heldBy(let holder)?: try settleTaken(&results[index], holder: holder, retry: &taken, index: index)
                case .failed?, nil: continue
                }
            }
            try store.recordClaims(confirmed)
            held.formUnion(confirmed)
            tally.claimed += confirmed.count
            waiting = try recode(taken, in: &results, tally: &tally)
        }
        // What the store held before and what this batch claimed: no second read of the store.
        tally.unclaimed += candidates.filter { index in
            guard results[index].status != .failed, let id = results[index].familyId?.rawValue, let code = results[index].code else { return false }
            return !held.contains(.init(familyID: id, code: CodeClaim.normalise(code)))
        }.count
        return results
    }

    /// A code another family holds: what becomes of the row (see the type's comment).
    private func settleTaken(_ result: inout ProvisionRowResult, holder: String?, retry: inout [Int], index: Int) throws {
        guard let id = result.familyId?.rawValue, let code = result.code else { return }
        let who = holder.map { "family \($0)" } ?? "a claim record that names no family"
        if result.status == .created && !result.codePreassigned {
            retry.append(index)
            return
        }
        if result.status == .created {
            let reason = "is already claimed in CloudKit by \(who)"
            _ = try store.discardUnsentFamily(id: id, importKey: nil, line: result.line, reason: "code \(reason)")
            result = ProvisionRowResult(line: result.line, externalId: result.externalId, familyId: nil, familyName: result.familyName,
                                        code: nil, status: .failed, error: RowError(column: FamilyCSVColumn.code.rawValue, reason).localizedDescription, needsQRCode: false)
            return
        }
        let reason = "its code is claimed in CloudKit by \(who): set aside (`tribeboard resync --list`); give it a new code with `tribeboard audit --repair --apply`"
        try store.setAsideCodeConflict(familyID: id, holder: holder, reason: "\(who) holds this code's claim in CloudKit")
        logger.warning("code claimed by another family", metadata: ["family": "\(id)", "code": "\(FamilyCode.mask(code))", "holder": "\(holder ?? "none")"])
        result.status = .failed
        result.error = reason
        result.needsQRCode = false
    }

    /// New codes for the families this run generated a taken code for; returns those to claim again.
    private func recode(_ indices: [Int], in results: inout [ProvisionRowResult], tally: inout Tally) throws -> [Int] {
        var again: [Int] = []
        var avoid = Set<String>()
        for index in indices {
            guard let id = results[index].familyId?.rawValue, let old = results[index].code else { continue }
            avoid.insert(old)
            let fresh = try store.withFamilyLookups { lookups in
                try generator.generateFree(avoiding: avoid, lookups: lookups, reservations: reservations)
            }
            avoid.insert(fresh.value)
            guard try store.recodeUnsentFamily(id: id, from: old, to: fresh.value) else { continue }
            results[index].code = fresh.value
            results[index].codeVerifiedRemotely = false
            tally.recoded += 1
            again.append(index)
        }
        return again
    }
}
