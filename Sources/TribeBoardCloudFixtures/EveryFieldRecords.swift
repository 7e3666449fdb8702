import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote

/// One record of each type as `RecordMapping` writes it with every optional field given: what the
/// field tests read (`RecordFieldsTests`, `MigrationFieldsTests`, `MigratedFieldsStoredTests`), so
/// that a field the mapping gains is given here once and checked by all of them.
package enum EveryFieldRecords {
    package static let created = Timestamp(milliseconds: 1_764_000_000_123)
    package static let familyID = FamilyID(rawValue: "F1E1D000-0000-4000-8000-000000000001")
    package static let userID = UserID(rawValue: "F1E1D000-0000-4000-8000-000000000002")
    package static let membershipID = MembershipID(rawValue: "F1E1D000-0000-4000-8000-000000000003")

    package static let family = RecordMapping.family(id: familyID, name: "Okafor", code: "QX7K2M",
                                                     createdByUserId: userID, createdAt: created)
    package static let profile = RecordMapping.userProfile(id: userID, displayName: "Ada",
                                                           appleUserIdHash: "0123456789abcdef",
                                                           avatarUrl: "https://example.com/a.png", createdAt: created)
    package static let membership = RecordMapping.membership(id: membershipID, familyID: familyID, userID: userID,
                                                             role: .parentAdmin, status: .active, joinedAt: created,
                                                             lastRoleChangeAt: created)
}
