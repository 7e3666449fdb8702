import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote

/// `migrate claims`: gives every `Family` already in the container (uploaded before claims existed,
/// or written by a claim-unaware app) the claim of its code (`CodeClaim`), so that the guarantee
/// covers the whole container. Of families sharing a code, the oldest keeps it (the audit's rule:
/// creation date, then record name); the others are reported as duplicates to repair. A claim that
/// is already there is never overwritten: one naming another family than the keeper is reported.
/// A claim is ours only when our caller made it (`ClaimHolder`): one another CloudKit user made,
/// or a record of another type under the claim's name, is reported as `foreign`/`squatter`,
/// never counted as claimed, whatever family it names. A plan by default; `apply` creates the
/// missing claims. Resumable and idempotent: a rerun finds its claims and changes nothing.
package struct ClaimBackfill: Sendable {
    let client: CloudKitClient
    let apply: Bool
    let showCodes: Bool

    package init(client: CloudKitClient, apply: Bool, showCodes: Bool = false) {
        self.client = client
        self.apply = apply
        self.showCodes = showCodes
    }

    package func run() async throws(CloudKitError) -> ClaimBackfillReport {
        var report = ClaimBackfillReport(applied: apply)
        // Each family as its name, code and date as its page arrives, not the whole record.
        let families = try await MigrationTransfer.readAll(
            types: [RecordMapping.familyType], from: client
        ) { record in
            let family = RemoteFamily(record)
            return Holder(
                recordName: family.recordName, code: family.code.map(CodeClaim.normalise) ?? "",
                created: family.created.timestamp)
        }
        report.familiesRead = families.count
        let (keepers, groups) = try keeperClaims(of: families, report: &report)
        if apply {
            try await claim(keepers, groups: groups, report: &report)
        } else {
            try await plan(keepers, groups: groups, report: &report)
        }
        return report
    }

    /// Each code's claim, named after its oldest family (as the audit orders), and the families
    /// sharing each claim's code, oldest first.
    private func keeperClaims(of families: [Holder], report: inout ClaimBackfillReport)
        throws(CloudKitError) -> (keepers: [CodeClaim], groups: [String: [Holder]]) {
        var byCode: [String: [Holder]] = [:]
        for family in families {
            guard !family.code.isEmpty else {
                report.withoutCode.append(family.recordName)
                continue
            }
            byCode[family.code, default: []].append(family)
        }
        report.codes = byCode.count
        // Oldest first, as the audit orders: the keeper is each group's first.
        var keepers: [CodeClaim] = []
        var groups: [String: [Holder]] = [:]
        for (code, holders) in byCode.sorted(by: { $0.key < $1.key }) {
            let ordered = holders.sorted {
                MigrationCodes.older($0.created, $0.recordName, than: $1.created, $1.recordName)
            }
            guard let keeper = ordered.first else { continue }
            do throws(CodeClaimError) {
                let claim = try CodeClaim(
                    code: code, familyID: FamilyID(rawValue: keeper.recordName))
                keepers.append(claim)
                groups[claim.recordName] = ordered
            } catch {
                throw .unexpectedResponse(httpStatus: 0, detail: error.localizedDescription)
            }
            if ordered.count > 1 {
                report.duplicates.append(.init(code: display(code), keptBy: keeper.recordName,
                                               others: ordered.dropFirst().map(\.recordName)))
            }
        }
        return (keepers, groups)
    }

    /// --apply: the claims created (or found already the keeper's).
    private func claim(_ keepers: [CodeClaim], groups: [String: [Holder]],
                       report: inout ClaimBackfillReport) async throws(CloudKitError) {
        let answer = try await CodeClaimer(client: client).claim(keepers)
        report.requests += answer.requests
        report.problem = answer.problem
        for claim in keepers {
            switch answer.outcomes[claim.recordName] {
            case .claimed?: report.claimed += 1
            case .heldBy(let holder)?:
                report.heldByOthers.append(held(claim, holder: holder, groups: groups))
            case .failed(let error)?:
                let reason = "\(error.serverErrorCode) \(error.reason ?? "")"
                report.failed.append(.init(family: claim.familyID.rawValue, reason: reason))
            case nil:
                report.failed.append(
                    .init(family: claim.familyID.rawValue, reason: "no result for its claim"))
            }
        }
    }

    /// A plan reads the claims that exist (a lookup per 200 codes) and creates none.
    private func plan(_ keepers: [CodeClaim], groups: [String: [Holder]],
                      report: inout ClaimBackfillReport) async throws(CloudKitError) {
        let answer = try await CodeClaimer(client: client).standing(keepers)
        report.requests += answer.requests
        report.problem = answer.problem
        for claim in keepers {
            switch answer.outcomes[claim.recordName] {
            case .held(let holder)? where holder == .family(claim.familyID.rawValue):
                report.claimed += 1
            case .held(let holder)?:
                report.heldByOthers.append(held(claim, holder: holder, groups: groups))
            case .absent?: report.toClaim += 1
            case .failed(let error)?:
                let reason = "\(error.serverErrorCode) \(error.reason ?? "")"
                report.failed.append(.init(family: claim.familyID.rawValue, reason: reason))
            case nil: continue
            }
        }
    }

    /// What the backfill keeps of a family: enough to order its code's holders.
    struct Holder {
        let recordName: String
        /// Normalised as claims are named; empty when the family has none.
        let code: String
        let created: Timestamp?
    }

    private func held(_ claim: CodeClaim, holder: ClaimHolder, groups: [String: [Holder]])
        -> ClaimBackfillReport.Held
    {
        let sharing = groups[claim.recordName]?.map(\.recordName) ?? []
        var creator: String?
        switch holder {
        case .family: creator = nil
        case .foreign(_, let who), .squatter(_, let who): creator = who
        }
        return .init(
            code: display(claim.code), oldest: claim.familyID.rawValue, claimedBy: holder.familyID,
            holderHasTheCode: holder.familyID.map(sharing.contains) ?? false, holder: holder.kind,
            creator: creator)
    }

    private func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}

/// What `migrate claims` found and did. JSON keys are a stable interface.
package struct ClaimBackfillReport: Encodable, Sendable {
    package struct Duplicate: Encodable, Sendable, Equatable {
        package let code: String
        package let keptBy: String
        package let others: [String]
    }

    package struct Held: Encodable, Sendable, Equatable {
        package let code: String
        /// The oldest family with the code, which the audit's rule gives it to.
        package let oldest: String
        /// The family the existing claim names (nil: it names none).
        package let claimedBy: String?
        /// Whether that family is among those that hold the code (a newer one), or elsewhere
        /// (not in the container yet: a store that claimed it has not uploaded it).
        package let holderHasTheCode: Bool
        /// `family` (a claim this key made), `foreign` (another CloudKit user's claim: it can be
        /// repointed or deleted by them at any time, so it is not the family's) or `squatter` (a
        /// record of another type holds the claim's name).
        package let holder: String
        /// The foreign claim's or squatter's creator (`created.userRecordName`).
        package let creator: String?
    }

    package struct Failure: Encodable, Sendable, Equatable {
        package let family: String
        package let reason: String
    }

    package var command = "migrate claims"
    package var applied: Bool
    package var familiesRead = 0
    package var codes = 0
    /// Claims naming their code's oldest family: made now (--apply) or found in place.
    package var claimed = 0
    /// A plan: claims --apply would create.
    package var toClaim = 0
    package var duplicates: [Duplicate] = []
    package var heldByOthers: [Held] = []
    package var withoutCode: [String] = []
    package var failed: [Failure] = []
    package var requests = 0
    /// CloudKit's answers that did not match the request.
    package var problem: String?

    init(applied: Bool) { self.applied = applied }

    package enum ExitKind: String, CaseIterable, Encodable, Sendable {
        case success, problems, tryLater
    }

    /// 1 when a person must act (duplicates, claims held by others or foreign, families without a
    /// code); 75 when claims were refused or unanswered (run it again).
    package var exitKind: ExitKind {
        if !failed.isEmpty || problem != nil { return .tryLater }
        if !duplicates.isEmpty || !heldByOthers.isEmpty || !withoutCode.isEmpty { return .problems }
        return .success
    }

    enum CodingKeys: String, CodingKey {
        case command, applied, familiesRead, codes, claimed, toClaim, duplicates, heldByOthers, withoutCode, failed, requests, problem, exitKind
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(command, forKey: .command)
        try container.encode(applied, forKey: .applied)
        try container.encode(familiesRead, forKey: .familiesRead)
        try container.encode(codes, forKey: .codes)
        try container.encode(claimed, forKey: .claimed)
        try container.encode(toClaim, forKey: .toClaim)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(heldByOthers, forKey: .heldByOthers)
        try container.encode(withoutCode, forKey: .withoutCode)
        try container.encode(failed, forKey: .failed)
        try container.encode(requests, forKey: .requests)
        try container.encodeIfPresent(problem, forKey: .problem)
        try container.encode(exitKind, forKey: .exitKind)
    }
}
