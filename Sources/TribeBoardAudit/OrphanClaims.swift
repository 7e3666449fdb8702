import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// A live audit's look at the code claims it can know of: those the store remembers making. Each
/// is looked up by name (`CodeClaimer.standing`): one of ours naming a family that is neither in
/// the store nor in CloudKit (looked up by record name, not the lagging query index) is an orphan,
/// keeping a code no family uses, and a join through it finds nothing; one now held by another
/// CloudKit user or a record of another type (deleted and re-made by someone else) is foreign.
/// With `--repair --apply` our orphans are released, with the change tag their lookup read.
struct OrphanClaims {
    struct Found {
        var orphans: [TribeBoardStore.ClaimedCode] = []
        var foreign: [(claim: TribeBoardStore.ClaimedCode, holder: ClaimHolder)] = []
        var released = 0
    }

    let client: CloudKitClient
    let store: ReadOnlyStore
    /// The store opened for writing when the repair applies: our orphans are released.
    let releasing: TribeBoardStore?

    func run() async throws -> Found {
        var found = Found()
        let claimer = CodeClaimer(client: client)
        var after = ""
        while true {
            let page = try store.rememberedClaims(after: after, limit: CloudKitClient.maxOperationsPerRequest)
            guard let last = page.last else { break }
            after = last.code
            let claims = page.compactMap { try? CodeClaim(code: $0.code, familyID: $0.familyID) }
            let answer = try await claimer.standing(claims)
            var ours: [TribeBoardStore.ClaimedCode] = []
            for (claim, remembered) in zip(claims, page) {
                switch answer.outcomes[claim.recordName] {
                case .held(.family(let id))? where id == remembered.familyID.rawValue: ours.append(remembered)
                case .held(let holder)? where holder.isForeign: found.foreign.append((remembered, holder))
                case .held?, .absent?, .failed?, nil: continue
                }
            }
            let present = try store.presentFamilyIDs(ours.map(\.familyID))
            let gone = try await absentFromCloudKit(ours.filter { !present.contains($0.familyID) }.map(\.familyID.rawValue))
            found.orphans += ours.filter { gone.contains($0.familyID.rawValue) }
        }
        guard let releasing, !found.orphans.isEmpty else { return found }
        let released = try await claimer.release(found.orphans.compactMap { try? CodeClaim(code: $0.code, familyID: $0.familyID) })
        let done = found.orphans.filter { orphan in
            guard let name = try? CodeClaim.recordName(forCode: orphan.code) else { return false }
            return released.outcomes[name] == .released
        }
        try releasing.forgetClaims(done)
        found.released = done.count
        return found
    }

    /// Of these family record names, those CloudKit answers NOT_FOUND for.
    private func absentFromCloudKit(_ ids: [String]) async throws(CloudKitError) -> Set<String> {
        var gone = Set<String>()
        for chunk in ids.chunked(CloudKitClient.maxOperationsPerRequest) {
            let found = MatchedResults(asked: Array(chunk), results: try await client.lookup(recordNames: Array(chunk)),
                                       operation: "records/lookup (families of code claims)")
            for id in chunk {
                if case .failure(let error)? = found.byName[id], error.code == .notFound { gone.insert(id) }
            }
        }
        return gone
    }
}

extension FindingBuilder {
    func orphanClaims(_ found: OrphanClaims.Found) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        for orphan in found.orphans {
            let code = request.showCodes ? orphan.code : FamilyCode.mask(orphan.code)
            findings.append(AuditFinding(category: .orphanClaim, code: code,
                                         message: "the claim of code \(code) names family \(orphan.familyID), "
                                            + "which is neither in this store nor in CloudKit: the code is held "
                                            + "for nobody, and a join with it finds no family",
                                         action: found.released > 0 ? "released by this repair: the code is free again"
                                             : "`\(Advice.repairAll(store: request.storePath, remote: remoteFlags).command)` releases it "
                                                + "(claims this key made only)",
                                         families: [AuditFamily(id: orphan.familyID.rawValue, location: .remote, recordType: CodeClaim.recordType)]))
        }
        for (claim, holder) in found.foreign {
            let code = request.showCodes ? claim.code : FamilyCode.mask(claim.code)
            findings.append(AuditFinding(category: .foreignClaim, code: code,
                                         message: "this store claimed code \(code) for family \(claim.familyID); "
                                            + "the claim's name is now held by \(holder.sentence)",
                                         action: holder.advice(for: claim.familyID, store: request.storePath, remote: remoteFlags),
                                         families: [AuditFamily(id: claim.familyID.rawValue, location: .local)]))
        }
        return findings
    }
}
