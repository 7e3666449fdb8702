import Foundation
import TribeBoardCSV
import TribeBoardDomain

enum ProvisionStatus: String, Sendable, Codable {
    case created
    case existing
    case failed
    case skipped
}

/// What happened to one row: a line of the manifest.
struct ProvisionRowResult: Sendable, Equatable {
    package let line: Int
    package let externalId: String?
    package let familyId: FamilyID?
    package let familyName: String
    package var code: String?
    package var status: ProvisionStatus
    package var error: String?
    /// Set when the row's QR PNG must be written, or checked and rewritten if it is stale.
    var needsQRCode: Bool
    /// The family existed and a PNG may be there already: it is kept only if it encodes the
    /// family's current code (an audit repair may have changed the code since it was written).
    var checkExistingQRCode = false
    /// For a created family: whether CloudKit was asked and had no family with this code.
    var codeVerifiedRemotely: Bool? = nil
    /// The code came from the CSV (kept or the row fails), not from the generator.
    var codePreassigned = false
    /// Whether CloudKit holds the claim of the row's code for its family (nil: no code).
    var claim: ClaimMark? = nil
    /// The code is not claimed while a remote is configured: the manifest leaves it out.
    var codeWithheld = false
    /// A created or skipped row that matches another family on name and admin.
    var possibleDuplicate: PossibleDuplicate? = nil
}

/// The manifest's `claim` column: a code printed before CloudKit holds its claim can be taken by
/// whoever holds the card, so `sheets` asks before printing an `unclaimed` one.
enum ClaimMark: String, Sendable, Codable {
    case claimed
    case unclaimed
}
