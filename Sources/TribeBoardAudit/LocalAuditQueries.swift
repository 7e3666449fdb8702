import Foundation
import TribeBoardDomain
import TribeBoardStore

/// What an audit reads from the local store, through the store's read API. Read-only: an audit
/// never migrates or writes.
struct LocalAuditQueries: Sendable {
    let store: ReadOnlyStore

    /// Every family's id, code and whether it is marked uploaded, in one pass.
    func scanFamilies() throws -> LocalFamilyIndex {
        var index = LocalFamilyIndex(expectedCount: 0)
        try store.scanFamilyCodes(expected: { index = LocalFamilyIndex(expectedCount: $0) }) { id, code, uploaded in
            index.add(id: id.rawValue, code: code, uploaded: uploaded)
        }
        return index
    }

    /// Families with no parent admin, active or awaiting: the app left them half created.
    func familiesWithoutAdmin() throws -> [AuditFamily] {
        try store.familiesWithoutParentAdmin(limit: nil).sample.map(Self.family)
    }

    /// How many families await their invited admin (no admin in the app until that person
    /// joins): expected after provisioning, so a count, not a finding.
    func familiesAwaitingInvitedAdmin() throws -> Int {
        try store.familiesAwaitingInvitedAdmin(limit: 0).count
    }

    /// Families waiting for sync since before `cutoff`: how many, and the oldest `limit` of them
    /// (all when nil).
    func stalePendingFamilies(before cutoff: Date, limit: Int?) throws -> (count: Int, sample: [AuditFamily]) {
        let pending = try store.familiesPending(since: Timestamp(cutoff), limit: limit)
        return (pending.count, pending.sample.map(Self.family))
    }

    /// Names and creation dates of the families a finding names.
    func details(of ids: [String]) throws -> [String: FamilyDetails] {
        Dictionary(uniqueKeysWithValues: try store.familyDetails(of: ids.map(FamilyID.init(rawValue:))).map { ($0.key.rawValue, $0.value) })
    }

    /// Codes each family had before a repair changed them: their CloudKit copies keep the old
    /// code until resync uploads the new one.
    func repairedCodes() throws -> [String: Set<String>] {
        Dictionary(uniqueKeysWithValues: try store.replacedCodes().map { ($0.key.rawValue, $0.value) })
    }

    private static func family(_ summary: FamilySummary) -> AuditFamily {
        AuditFamily(id: summary.id.rawValue, name: summary.name, location: .local, createdAt: summary.createdAt?.text)
    }
}
