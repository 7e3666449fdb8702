import Foundation

/// `remove --json`: each outcome counted, the first families listed.
package struct RemoveReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let remote: Bool
    package let asked: Int
    package let removed: Int
    package let alreadyRemoved: Int
    package let planned: Int
    package let refused: Int
    package let notFound: Int
    package let unfinished: Int
    package let notOurs: Int
    package let heldByMembers: Int
    package let requests: Int
    package let families: [Family]
    package let codes: String
    package var nextStep: String?

    package struct Family: Decodable {
        package let query: String
        package var familyId: String?
        package var familyName: String?
        package let outcome: String
        package let unfinishedCreation: Bool
        package let members: [Member]
        package let remoteMembershipsDeleted: Int
        package let remoteFamilyDeleted: Bool
        package let claimsReleased: Int
        package var problem: String?
        package let anotherCreator: Bool
        package let membershipsNotOurs: Int
        package var mergedInto: String?
    }

    package struct Member: Decodable {
        package let membershipId: String
        package let userId: String
        package let displayName: String
        package let role: String
        package let profile: String
    }
}
