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
/// - Refused (EXISTS, CONFLICT, ACCESS_DENIED): looked up and decided per record by the claimer;
///   throttled: sent again after `retryAfter`. Neither stops the run's other claims.
/// - Still unclaimed (CloudKit down, throttled throughout): nothing printable carries the code (no
///   QR file, the manifest's code cell left empty and the row marked `unclaimed`) and the run
///   does not end 0; resync claims it, and provision run again prints it.
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

    func claim(_ batch: [ProvisionRowResult], tally: inout Tally) async throws
        -> [ProvisionRowResult]
    {
        var results = batch
        let candidates = results.indices.filter {
            results[$0].status != .failed && results[$0].familyId != nil && results[$0].code != nil
        }
        var held = try store.claimedCodes(familyIDs: candidates.compactMap { results[$0].familyId })
        var waiting = candidates.filter { index in
            guard let id = results[index].familyId, let code = results[index].code else {
                return false
            }
            return !held.contains(.init(familyID: id, code: CodeClaim.normalise(code)))
        }
        for _ in 0..<Self.rounds where !waiting.isEmpty && remote.isAvailable {
            var claims: [Int: CodeClaim] = [:]
            for index in waiting {
                guard let id = results[index].familyId, let code = results[index].code,
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
                case .heldBy(let holder)?:
                    try settleTaken(&results[index], holder: holder, retry: &taken, index: index)
                case .failed(let error)?:
                    logger.info(
                        "code claim refused for now",
                        metadata: [
                            "family": "\(claim.familyID)", "error": "\(error.serverErrorCode)"
                        ])
                case nil: continue
                }
            }
            try store.recordClaims(confirmed)
            held.formUnion(confirmed)
            tally.claimed += confirmed.count
            waiting = try recode(taken, in: &results, tally: &tally)
        }
        // What the store held before and what this batch claimed: no second read of the store.
        tally.unclaimed += Self.mark(&results, at: candidates, held: held, withholdUnclaimed: true)
        return results
    }

    /// Marks each row's code claimed or not; with `withholdUnclaimed` (a remote is configured) an
    /// unclaimed code gets no QR file and no manifest code. Returns how many are unclaimed.
    static func mark(
        _ results: inout [ProvisionRowResult], at indices: [Int],
        held: Set<TribeBoardStore.ClaimedCode>,
        withholdUnclaimed: Bool
    ) -> Int {
        var unclaimed = 0
        for index in indices where results[index].status != .failed {
            guard let id = results[index].familyId, let code = results[index].code else { continue }
            guard !held.contains(.init(familyID: id, code: CodeClaim.normalise(code))) else {
                results[index].claim = .claimed
                continue
            }
            unclaimed += 1
            results[index].claim = .unclaimed
            guard withholdUnclaimed else { continue }
            results[index].needsQRCode = false
            results[index].checkExistingQRCode = false
            results[index].codeWithheld = true
        }
        return unclaimed
    }

    /// Without a remote (local-only work): every row is marked from the store's claims; the codes
    /// are printed as they are.
    static func markLocal(_ results: inout [ProvisionRowResult], store: TribeBoardStore) throws
        -> Int
    {
        let indices = results.indices.filter {
            results[$0].familyId != nil && results[$0].code != nil
        }
        let held = try store.claimedCodes(familyIDs: indices.compactMap { results[$0].familyId })
        return mark(&results, at: indices, held: held, withholdUnclaimed: false)
    }

    /// A code another family holds: what becomes of the row (see the type's comment).
    private func settleTaken(
        _ result: inout ProvisionRowResult, holder: ClaimHolder, retry: inout [Int], index: Int
    ) throws {
        guard let id = result.familyId, let code = result.code else { return }
        let who = holder.sentence
        if result.status == .created && !result.codePreassigned {
            retry.append(index)
            return
        }
        if result.status == .created {
            let reason = "is already claimed in CloudKit by \(who)"
            _ = try store.discardUnsentFamily(
                id: id, importKey: nil, line: result.line, reason: "code \(reason)")
            let error = RowError(column: FamilyCSVColumn.code.rawValue, reason).localizedDescription
            result = ProvisionRowResult(
                line: result.line, externalId: result.externalId, familyId: nil,
                familyName: result.familyName, code: nil, status: .failed, error: error,
                needsQRCode: false)
            return
        }
        let reason = "its code is claimed in CloudKit by \(who): set aside (`\(Advice.resyncList(store: store.path).command)`); "
            + holder.advice(for: id, store: store.path, remote: remote.adviceFlags)
        guard
            try store.setAsideCodeConflict(
                familyID: id, holder: holder.familyID,
                reason: "\(who) holds this code's claim in CloudKit")
        else {
            // Another run removed the family meanwhile (its own claim was refused): nothing to set
            // aside.
            result.status = .failed
            result.error = "its family was removed by another run meanwhile: its code is claimed in CloudKit by \(who)"
            result.needsQRCode = false
            return
        }
        logger.warning(
            "code claimed by someone else",
            metadata: [
                "family": "\(id)", "code": "\(FamilyCode.mask(code))",
                "holder": "\(holder.familyID ?? "none")", "kind": "\(holder.kind)"
            ])
        result.status = .failed
        result.error = reason
        result.needsQRCode = false
    }

    /// New codes for the families this run generated a taken code for; returns those to claim
    /// again.
    private func recode(
        _ indices: [Int], in results: inout [ProvisionRowResult], tally: inout Tally
    ) throws -> [Int] {
        var again: [Int] = []
        var avoid = Set<String>()
        for index in indices {
            guard let id = results[index].familyId, let old = results[index].code else { continue }
            avoid.insert(old)
            let fresh = try store.withFamilyLookups { lookups in
                try generator.generateFree(
                    avoiding: avoid, lookups: lookups, reservations: reservations)
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
