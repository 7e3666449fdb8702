import Foundation
import TribeBoardDomain
import TribeBoardStore

/// Two families of one parent registered twice (two rows of two forms): the same folded name
/// and the same admin, by folded name or by Apple account hash. The older one is kept.
struct RegisteredTwice: Sendable, Equatable {
    let kept: AuditFamily
    let duplicate: AuditFamily
}

extension LocalAuditQueries {
    /// One pass over the families with an admin, oldest first, through a scratch index on disk
    /// (provision's: memory stays flat at a million families).
    func familiesRegisteredTwice() throws -> [RegisteredTwice] {
        let index = try NameAndAdminIndex()
        var pairs: [RegisteredTwice] = []
        var reported = Set<FamilyID>()
        var chunk: [NameAndAdminIndex.Candidate] = []
        func flush() throws {
            let holders = try index.firstHolders(of: chunk, keepMatched: true)
            for (candidate, holder) in zip(chunk, holders) {
                // A family with two admins meets itself; a family found twice is reported once.
                guard let kept = holder?.familyID, let duplicate = candidate.holder.familyID, kept != duplicate,
                      reported.insert(duplicate).inserted else { continue }
                pairs.append(RegisteredTwice(kept: AuditFamily(id: kept.rawValue, name: holder?.name, location: .local),
                                             duplicate: AuditFamily(id: duplicate.rawValue, name: candidate.holder.name, location: .local)))
            }
            chunk.removeAll(keepingCapacity: true)
        }
        try store.forEachFamilyWithAdmin(oldestFirst: true) { family in
            let keys = NameFold.registrationKeys(name: family.name, adminName: family.adminName,
                                                 adminHash: family.adminHash)
            chunk.append(.init(keys: keys,
                               holder: .init(familyID: family.familyID, line: nil, externalId: nil,
                                             name: family.name, importKey: family.importKey)))
            if chunk.count >= 4096 { try flush() }
        }
        try flush()
        return pairs
    }
}
