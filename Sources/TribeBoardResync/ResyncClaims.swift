import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// Code claims in resync: a family goes up only once CloudKit holds the claim of its code for it
/// (created now, or found to be its own), and a claim a re-coded family gave up is released once
/// the family's new code is up. See `CodeClaim` for why the claim, not the `code` query, is what
/// keeps a code unique across stores and hosts.
extension Resyncer {
    /// What the claim step of one page decided.
    struct ClaimStep {
        /// Families that must not go up this time: held by another family, refused, unanswered.
        var blocked = Set<String>()
        var problem: String?
    }

    /// Claims the codes of these families. A claim the store remembers is trusted only once the
    /// family is up: before its first upload it is claimed again (created, or found ours by
    /// lookup), since the claim may have been deleted in CloudKit since. Families are keyed by
    /// family, never by claim name: two families whose codes differ only in case have one claim
    /// name, and only the one the claim names goes up.
    func claimCodes(_ families: [DueFamily], bookkeeping: SyncBookkeeping,
                    report: inout ResyncReport) async throws -> Result<ClaimStep, CloudKitError> {
        var step = ClaimStep()
        let held = try store.claimedCodes(familyIDs: families.map { FamilyID(rawValue: $0.read.id) })
        var claims: [(claim: CodeClaim, family: DueFamily)] = []
        for family in families {
            let id = FamilyID(rawValue: family.read.id)
            let remembered = held.contains(.init(familyID: id, code: CodeClaim.normalise(family.family.code)))
            guard !remembered || family.family.ckRecordID == nil else { continue }
            do throws(CodeClaimError) {
                claims.append((try CodeClaim(code: family.family.code, familyID: id), family))
            } catch {
                step.blocked.insert(id.rawValue)
                try bookkeeping.record(.retry(error: error.localizedDescription, backoff: backoff), row: family.read, at: .now)
                report.failed += 1
            }
        }
        guard !claims.isEmpty else { return .success(step) }
        let answer: CodeClaimer.Answer<CodeClaimer.Outcome>
        do throws(CloudKitError) {
            answer = try await CodeClaimer(client: client).claim(claims.map(\.claim))
        } catch {
            return .failure(error)
        }
        report.requests += answer.requests
        step.problem = answer.problem
        var confirmed: [TribeBoardStore.ClaimedCode] = []
        let now = Timestamp.now
        for (claim, family) in claims {
            let read = family.read
            // The claimer sends the first claim of a name; a twin's outcome is for the first one.
            let outcome = claims.first { $0.claim.recordName == claim.recordName }?.claim.familyID.rawValue == read.id
                ? answer.outcomes[claim.recordName] : Self.twinOutcome(answer.outcomes[claim.recordName], first: claims, of: claim)
            switch outcome {
            case .claimed?:
                confirmed.append(.init(familyID: claim.familyID, code: claim.code))
            case .heldBy(let holder)?:
                step.blocked.insert(read.id)
                report.failed += 1
                let advice = holder.advice(for: FamilyID(rawValue: read.id), store: store.path, remote: client.configuration.adviceFlags)
                try bookkeeping.record(.conflict(with: holder.familyID ?? "",
                                                 error: "\(holder.sentence) holds this code's claim in CloudKit "
                                                    + "(\(CodeClaim.recordType) \(claim.recordName)); \(advice)"),
                                       row: read, at: now)
                logger.warning("code claimed by someone else: not uploaded",
                               metadata: ["family": "\(read.id)", "code": "\(FamilyCode.mask(claim.code))",
                                          "holder": "\(holder.familyID ?? "none")", "kind": "\(holder.kind)"])
            case .failed(let error)?:
                step.blocked.insert(read.id)
                try settle(error, row: read, bookkeeping: bookkeeping, at: now)
                report.failed += 1
            case nil:
                // No usable answer for this claim: the family stays pending (the problem stops the run).
                step.blocked.insert(read.id)
            }
        }
        try store.recordClaims(confirmed, at: now)
        report.codesClaimed += confirmed.count
        return .success(step)
    }

    /// A family whose claim name an earlier family of the page already sent: if that family got
    /// the claim, this one is held by it; otherwise the same answer (held by whoever, or failed).
    static func twinOutcome(_ outcome: CodeClaimer.Outcome?, first claims: [(claim: CodeClaim, family: DueFamily)],
                            of claim: CodeClaim) -> CodeClaimer.Outcome? {
        guard case .claimed? = outcome, let first = claims.first(where: { $0.claim.recordName == claim.recordName }) else { return outcome }
        return .heldBy(.family(first.claim.familyID.rawValue))
    }

    /// Releases the claims of codes this store's families gave up (an audit repair gave one a new
    /// code), once that family's new code is up. Returns why the run must stop, if it must.
    func releaseGivenUpClaims(until deadline: ContinuousClock.Instant?, report: inout ResyncReport)
        async throws -> ResyncReport.Stop?
    {
        var after = ""
        while true {
            if let deadline, ContinuousClock.now >= deadline { return .deadline }
            let given = try store.claimsToRelease(
                after: after, limit: CloudKitClient.maxOperationsPerRequest)
            guard let last = given.last else { return nil }
            after = last.code
            var claims: [(CodeClaim, TribeBoardStore.ClaimedCode)] = []
            for pair in given {
                // A code the store holds cannot fail to hash; if libcrypto does, the claim stays
                // for a later run.
                guard let claim = try? CodeClaim(code: pair.code, familyID: pair.familyID) else {
                    continue
                }
                claims.append((claim, pair))
            }
            let answer: CodeClaimer.Answer<CodeClaimer.ReleaseOutcome>
            do throws(CloudKitError) {
                answer = try await CodeClaimer(client: client).release(claims.map(\.0))
            } catch {
                return ResyncReport.Stop(error)
            }
            report.requests += answer.requests
            var done: [TribeBoardStore.ClaimedCode] = []
            for (claim, pair) in claims {
                switch answer.outcomes[claim.recordName] {
                case .released?:
                    done.append(pair)
                    report.claimsReleased += 1
                case .notOurs?:
                    done.append(pair)  // someone else's now: nothing of ours to release
                case .failed?, nil:
                    continue  // tried again next run
                }
            }
            try store.forgetClaims(done)
            if let problem = answer.problem { return .unmatchedAnswer(problem) }
        }
    }
}
