import Foundation
import TribeBoardCloudKit
import TribeBoardRemote

/// Section 4, continued: the container can hold code claims (`CodeClaim`, docs/code-claims.md),
/// and nobody can list them. One query on the claim type, filtered on its `family` field, which
/// must fail: with "not marked queryable" (or "not marked indexable") the type exists without an
/// index, as the schema file defines it; an answer means claims can be listed, and with them the
/// hashes of every code (six characters are found from a hash in minutes).
struct ClaimSchemaCheck {
    static let id = DoctorCheckID.remoteSchemaFamilyCodeClaim
    let client: CloudKitClient

    func run() async -> DoctorCheck {
        let checked = "\(CodeClaim.recordType) exists and cannot be listed"
        let query = CloudKitQuery(recordType: CodeClaim.recordType, filterBy: [.equals(CodeClaim.familyField, "")])
        do {
            _ = try await client.query(query, resultsLimit: 1)
            return DoctorCheck(Self.id, .remote, .warning, checked: checked,
                               found: "claims can be queried by `\(CodeClaim.familyField)`: whoever can query can list them, and the codes behind their names",
                               action: "remove the QUERYABLE index from \(CodeClaim.recordType) in the CloudKit Console (Schema > Indexes); the toolkit reads claims by name only")
        } catch {
            return verdict(error, checked: checked)
        }
    }

    private func verdict(_ error: CloudKitError, checked: String) -> DoctorCheck {
        let text = error.localizedDescription
        if case .schema(.missingType, _) = error {
            guard client.configuration.environment == .production else {
                return DoctorCheck(Self.id, .remote, .warning, checked: checked,
                                   found: "no \(CodeClaim.recordType) type yet: development creates it on the first claim, with default security roles",
                                   action: "import Templates/cloudkit-schema.ckdb so the type has the roles the app needs (`_icloud` reads and creates)")
            }
            return DoctorCheck(Self.id, .remote, .failure, checked: checked, found: text,
                               action: "deploy \(CodeClaim.recordType) to production (import Templates/cloudkit-schema.ckdb into development, then Schema > Deploy Schema Changes): without it no family can go up")
        }
        switch error {
        case .schema(.notQueryable, _), .schema(.notIndexable, _):
            return DoctorCheck(Self.id, .remote, .ok, checked: checked, found: "yes (no index: claims are read by name only)")
        default: break
        }
        if error.category == .configuration {
            return DoctorCheck(Self.id, .remote, .failure, checked: checked, found: text, action: "the found text names the fix")
        }
        return DoctorCheck(Self.id, .remote, .warning, checked: checked, found: "not checked: \(text)", action: "run doctor again later")
    }
}
