import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardJoinKit

/// A family code claimed in CloudKit: a `FamilyCodeClaim` record whose name is derived from the
/// code, holding the family that holds the code.
///
/// Why a record: CloudKit's query index lags ("Query indexes update asynchronously so they aren't
/// always current"), so "query the code, then write the family" cannot keep a code unique across
/// stores and hosts. A record name is unique in its zone when it is written: of any number of
/// creates of one name, exactly one succeeds, and records/lookup by name reads the latest write.
/// So a family goes up only once the claim of its code was created, or found to be its own.
///
/// The name is the lowercase hex SHA-256 of `tribeboard-family-code-claim:v1:` and the code as the
/// join kit normalises it (`JoinNames.claim`): it does not show the code, whoever knows the code
/// can look it up, and nobody can list the claims while the type has no QUERYABLE index
/// (docs/code-claims.md).
package struct CodeClaim: Sendable, Equatable {
    package static let recordType = RecordType.familyCodeClaim.name
    /// The record name of the `Family` that holds the code (STRING, not REFERENCE: the claim is
    /// written before its family, which a validated reference would refuse).
    package static let familyField = "family"
    package static let namePrefix = JoinNames.claimPrefix

    /// The normalised code.
    package let code: String
    package let familyID: FamilyID
    package let recordName: String

    package init(code: String, familyID: FamilyID) throws(CodeClaimError) {
        let normalised = Self.normalise(code)
        self.code = normalised
        self.familyID = familyID
        self.recordName = try Self.recordName(forNormalised: normalised)
    }

    /// The join kit's normalisation of a typed code; text that is no code stays as it is (no
    /// typed code can reach its claim).
    package static func normalise(_ code: String) -> String {
        FamilyCode.normalised(code) ?? code
    }

    package static func recordName(forCode code: String) throws(CodeClaimError) -> String {
        try recordName(forNormalised: normalise(code))
    }

    /// The join kit's name, so the app and the toolkit cannot derive two names for one code.
    private static func recordName(forNormalised code: String) throws(CodeClaimError) -> String {
        JoinNames.claim(forCode: code)
    }

    /// The record to create.
    package var record: CloudKitRecord {
        CloudKitRecord(
            recordName: recordName, recordType: Self.recordType,
            fields: [Self.familyField: .string(familyID.rawValue)])
    }

    /// The family a claim record names; nil when the record holds no usable name.
    package static func holder(in record: CloudKitRecord) -> String? {
        guard let family = record.string(familyField), !family.isEmpty else { return nil }
        return family
    }
}

package enum CodeClaimError: Error, Sendable, Equatable, LocalizedError {
    case hashUnavailable

    package var errorDescription: String? {
        switch self {
        case .hashUnavailable: return "libcrypto could not compute SHA-256, which names code claims"
        }
    }
}
