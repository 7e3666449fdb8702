import Foundation
import TribeBoardCloudKit
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
            guard item.outcome.isInPlace, item.copy.recordType == item.kind.currentType else { return nil }
            let copy = item.copy
            let created = createdAt(item)
            switch item.kind {
            case .family:
                guard let name = copy.string("name"), let code = copy.string("code") else { return nil }
                return .family(id: FamilyID(rawValue: copy.recordName), name: name, code: code, createdByUserID: copy.string("createdByUserId") ?? "",
                               createdAt: created, codeChange: item.recode.map {
                                   TribeBoardStore.MigratedCodeChange(oldCode: $0.oldCode, newCode: $0.newCode, keptBy: $0.keptBy, reason: $0.reason)
                               })
            case .userProfile:
                guard let displayName = copy.string("displayName") else { return nil }
                return .userProfile(id: UserID(rawValue: copy.recordName), displayName: displayName, appleUserIdHash: copy.string("appleUserIdHash"),
                                    avatarURL: copy.string("avatarUrl"), createdAt: created)
            case .membership:
                guard let family = reference(copy, "family"), let user = reference(copy, "user") else { return nil }
                return .membership(id: MembershipID(rawValue: copy.recordName), family: FamilyID(rawValue: family), user: UserID(rawValue: user),
                                   role: copy.string("role") ?? MembershipRole.kid.rawValue, status: copy.string("status") ?? "",
                                   joinedAt: copy.fields?["joinedAt"]?.value.number.flatMap(date(milliseconds:)) ?? created,
                                   lastRoleChangeAt: copy.fields?["lastRoleChangeAt"]?.value.number.flatMap(date(milliseconds:)))
            }
        }
    }

    static func reference(_ record: CloudKitRecord, _ field: String) -> String? {
        record.fields?[field]?.value.object?["recordName"]?.string
    }

    /// `createdAt`, else the server's creation stamp, else now: a date outside 1970 to 9999 is no date.
    static func createdAt(_ item: MigrationItem) -> Date {
        if let date = item.copy.fields?["createdAt"]?.value.number.flatMap(date(milliseconds:)) { return date }
        if let stamp = item.source.created?.timestamp, let date = date(milliseconds: Double(stamp)) { return date }
        return Date()
    }

    static func date(milliseconds: Double) -> Date? {
        guard milliseconds.isFinite, (0...253_402_300_799_000).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
