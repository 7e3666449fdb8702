import TribeBoardDomain
import TribeBoardStore

/// Families whose code the store holds no claim of, as `SheetsRequest.refuseUnclaimed` refuses
/// them.
struct UnclaimedCodes {
    /// Every claim the store remembers, read before the invitations (which are read inside
    /// a store read that cannot be re-entered); nil when nothing is refused.
    private let claimed: Set<TribeBoardStore.ClaimedCode>?
    private let refuse: Bool
    private(set) var ids: [String] = []
    private(set) var count = 0
    /// Printed all the same (no remote configured, or --include-unclaimed): the report says so.
    private(set) var printed = 0
    /// The store read, for the advice (`resync` claims the codes).
    private let storePath: String

    init(store: (any StoreReading)?, refuse: Bool) throws(InvitationReadError) {
        storePath = store?.path ?? ""
        self.refuse = refuse
        guard let store else {
            claimed = nil
            return
        }
        var all = Set<TribeBoardStore.ClaimedCode>()
        var after = ""
        do {
            while true {
                let page = try store.rememberedClaims(after: after, limit: 10_000)
                guard let last = page.last else { break }
                all.formUnion(page)
                after = last.code
            }
        } catch {
            throw .store(error)
        }
        claimed = all
    }

    /// Whether `invitation` may be printed; an unclaimed one is counted instead.
    mutating func admits(_ invitation: Invitation) -> Bool {
        guard let claimed else { return true }
        let id = invitation.familyId
        if claimed.contains(
            .init(familyID: id, code: FamilyCode.normalised(invitation.code) ?? invitation.code))
        {
            return true
        }
        guard refuse else {
            printed += 1
            return true
        }
        count += 1
        if ids.count < 20 { ids.append(id.rawValue) }
        return false
    }

    var error: SheetError? {
        count == 0 ? nil : .unclaimed(familyIds: ids, count: count, store: storePath)
    }
}
