import Foundation
import TribeBoardDomain

/// A CSV row that passed validation, ready to be written.
package struct ValidatedRow: Sendable, Equatable {
    package let line: Int
    /// What makes a re-run recognise the row: `ext:` + external id, or `row:` + its normalized content.
    package let importKey: String
    package let externalId: String?
    package let familyName: String
    package let admin: AdminSpec?
    let preassignedCode: FamilyCode?
    /// Another family with the same name and admin, found before the row is written.
    var possibleDuplicate: PossibleDuplicate? = nil
    /// Left out as a possible duplicate (`--skip-possible-duplicates`): nothing is written for it.
    var skipped: Bool { possibleDuplicate?.skipped == true }
}

/// One row of input on its way through a batch: valid, or already failed.
package enum BatchEntry: Sendable {
    case valid(ValidatedRow)
    case invalid(line: Int, externalId: String?, familyName: String, importKey: String?, error: RowError)
}

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
    package let familyId: RecordID?
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
    /// A created or skipped row that matches another family on name and admin.
    var possibleDuplicate: PossibleDuplicate? = nil
}
