import Foundation
import TribeBoardCloudKit
import TribeBoardRemote
import TribeBoardDomain
import TribeBoardStore

/// The migrated records as the store learns them (`TribeBoardStore.learnMigratedRecords`): as
/// already in CloudKit, so doctor, audit and resync know them. A record the store already has
/// (same id, code or signed-in user) is left as it is.
package enum MigrationStoreImport {
    package struct Learned: Sendable, Encodable, Equatable {
        package var families = 0
        package var userProfiles = 0
        package var memberships = 0

        mutating func add(_ counts: TribeBoardStore.LearnedCounts) {
            families += counts.families
            userProfiles += counts.userProfiles
            memberships += counts.memberships
        }
    }

    /// The store's records of the items in place. A legacy record copied as it is (container copy)
    /// stays invisible to the app: the store learns it once `legacy-types` has made it current.
    static func records(_ items: [MigrationItem]) -> [TribeBoardStore.MigratedRecord] {
        items.compactMap { item -> TribeBoardStore.MigratedRecord? in
            guard item.outcome.isInPlace, item.copy.recordType == item.kind.currentType else {
                return nil
            }
            switch item.kind {
            case .family: return family(item)
            case .userProfile: return profile(item)
            case .membership: return membership(item)
            }
        }
    }

    /// The copy's `createdAt`, else the source's creation stamp (the copy is not saved yet), else
    /// now.
    static func createdAt(_ item: MigrationItem) -> Timestamp {
        RecordCreated(item.copy, serverStamp: item.source.created?.timestamp).timestamp ?? .now
    }

    private static func family(_ item: MigrationItem) -> TribeBoardStore.MigratedRecord? {
        let family = RemoteFamily(item.copy, serverStamp: item.source.created?.timestamp)
        guard let name = family.name, let code = family.code else { return nil }
        let change = item.recode.map {
            TribeBoardStore.MigratedCodeChange(
                oldCode: $0.oldCode, newCode: $0.newCode, keptBy: $0.keptBy, reason: $0.reason)
        }
        return .family(id: FamilyID(rawValue: family.recordName), name: name, code: code,
                       createdByUserID: UserID(rawValue: family.createdByUserId ?? ""),
                       createdAt: family.created.timestamp ?? .now, codeChange: change)
    }

    private static func profile(_ item: MigrationItem) -> TribeBoardStore.MigratedRecord? {
        let profile = RemoteProfile(item.copy, serverStamp: item.source.created?.timestamp)
        guard let displayName = profile.displayName else { return nil }
        return .userProfile(id: UserID(rawValue: profile.recordName), displayName: displayName,
                            appleUserIdHash: profile.appleUserIdHash, avatarURL: profile.avatarUrl,
                            createdAt: profile.created.timestamp ?? .now)
    }

    private static func membership(_ item: MigrationItem) -> TribeBoardStore.MigratedRecord? {
        let membership = RemoteMembership(item.copy)
        guard let family = membership.family, let user = membership.user else { return nil }
        return .membership(id: MembershipID(rawValue: membership.recordName), family: FamilyID(rawValue: family),
                           user: UserID(rawValue: user), role: membership.role ?? MembershipRole.kid.rawValue,
                           status: membership.status ?? "", joinedAt: membership.joinedAt ?? createdAt(item),
                           lastRoleChangeAt: membership.lastRoleChangeAt)
    }
}
