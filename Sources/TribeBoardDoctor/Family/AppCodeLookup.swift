import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardJoinKit
import TribeBoardRemote

/// What the app finds for a code, through the join kit's own lookup (`CodeLookup`): the claim,
/// the family it names, its admin and members, or the step where the lookup stops.
package struct AppLookupReport: Sendable, Codable, Equatable {
    package struct Member: Sendable, Codable, Equatable {
        package let membershipID: String
        package let userID: String
        package var displayName: String?
        package let role: String
        package let status: String
    }

    /// The code as the kit normalised it; nil when it is no code.
    package var code: String?
    package var claimRecordName: String?
    /// The record type and creator of whatever holds the claim's name.
    package var claimRecordType: String?
    package var claimCreator: String?
    package var claimFamily: String?
    package var familyID: String?
    package var familyName: String?
    package var familyCreator: String?
    /// Active `parent_admin` members: the app's "admin".
    package var admins: [Member] = []
    package var members: [Member] = []
    /// Where the lookup stopped (`noClaim`, `familyGone`, `foreignClaim`…); nil when the app finds
    /// the family.
    package var stoppedAt: String?
    package var detail: String

    package var appFindsFamily: Bool { stoppedAt == nil }
}

enum AppCodeLookup {
    /// The lookup, or where CloudKit stopped answering it.
    static func report(_ typed: String, client: CloudKitClient) async -> AppLookupReport {
        do {
            return try await run(typed, client: client)
        } catch {
            return AppLookupReport(
                stoppedAt: "unavailable",
                detail: "CloudKit did not answer the app's lookup: \(error.localizedDescription)")
        }
    }

    static func run(_ typed: String, client: CloudKitClient) async throws -> AppLookupReport {
        let database = WebServicesJoinDatabase(client: client)
        let lookup = try await CodeLookup.run(typed, in: database)
        var report = AppLookupReport(
            code: lookup.code, claimRecordName: lookup.claimName,
            claimRecordType: lookup.claim?.type,
            claimCreator: lookup.claim?.creator,
            claimFamily: lookup.claim?.string(CodeClaim.familyField),
            familyID: lookup.familyRecord?.name,
            familyName: lookup.familyRecord?.string(FamilyField.name.rawValue),
            familyCreator: lookup.familyRecord?.creator, detail: "")
        if let stop = lookup.stop {
            (report.stoppedAt, report.detail) = describe(stop, lookup: lookup)
            return report
        }
        guard let family = lookup.family else { return report }
        let memberships = try await database.memberships(ofFamily: family.id.uuidString).compactMap(
            MembershipRecord.init)
        let profiles = try await database.fetch(Array(Set(memberships.map(\.userID.uuidString))))
        let members = memberships.map { membership in
            AppLookupReport.Member(
                membershipID: membership.id.uuidString, userID: membership.userID.uuidString,
                displayName: profiles[membership.userID.uuidString].flatMap(ProfileRecord.init)?
                    .displayName,
                role: membership.role.rawValue, status: membership.status.rawValue)
        }
        report.admins = zip(memberships, members).filter { $0.0.isActiveAdmin }.map(\.1)
        report.members = members
        report.detail =
            "the app finds \(family.name) (\(family.id.uuidString)): "
            + (report.admins.isEmpty
                ? "no active admin yet: its invited admin activates through the join kit"
                : "admin \(report.admins.map { $0.displayName ?? $0.userID }.joined(separator: ", "))")
            + ", \(members.count) membership(s) listed (the index may lag a few seconds)"
        return report
    }

    private static func describe(_ stop: CodeLookup.Stop, lookup: CodeLookup) -> (String, String) {
        let claim = lookup.claimName ?? "?"
        switch stop {
        case .invalidCode(let error):
            return ("invalidCode", "the app refuses what was typed: \(error)")
        case .noClaim:
            return (
                "noClaim",
                "no FamilyCodeClaim named \(claim): nobody claimed this code, the app finds nothing"
            )
        case .notAClaim(let type):
            return (
                "notAClaim", "the claim's name \(claim) is held by a \(type) record, not a claim"
            )
        case .claimWithoutFamily:
            return ("claimWithoutFamily", "the claim \(claim) names no family")
        case .familyGone(let name):
            return (
                "familyGone", "the claim \(claim) names family \(name), which is not in CloudKit"
            )
        case .familyUnreadable(let name):
            return ("familyUnreadable", "family \(name) is there but the app's decoder refuses it")
        case .foreignClaim(let claimCreator, let familyCreator):
            return (
                "foreignClaim",
                "the claim was created by \(claimCreator ?? "nobody known"), the family by "
                    + "\(familyCreator ?? "nobody known"): the app does not follow a claim its family's creator did not make"
            )
        case .staleClaim(let code):
            return (
                "staleClaim", "the claim names a family whose code is now \(FamilyCode.mask(code))"
            )
        }
    }
}
