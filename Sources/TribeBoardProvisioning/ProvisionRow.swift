import Foundation
import TribeBoardDomain

/// A CSV row that passed validation, ready to be written.
public struct ValidatedRow: Sendable, Equatable {
    public let line: Int
    /// What makes a re-run recognise the row: `ext:` + external id, or `row:` + its normalized content.
    public let importKey: String
    public let externalId: String?
    public let familyName: String
    public let admin: AdminSpec?
    public let preassignedCode: FamilyCode?
}

/// One row of input on its way through a batch: valid, or already failed.
public enum BatchEntry: Sendable {
    case valid(ValidatedRow)
    case invalid(line: Int, externalId: String?, familyName: String, importKey: String?, error: RowError)
}

public enum ProvisionStatus: String, Sendable, Codable {
    case created
    case existing
    case failed
}

/// What happened to one row: a line of the manifest.
public struct ProvisionRowResult: Sendable, Equatable {
    public let line: Int
    public let externalId: String?
    public let familyId: RecordID?
    public let familyName: String
    public let code: String?
    public var status: ProvisionStatus
    public var error: String?
    /// Set when the row's QR PNG must be written, or checked and rewritten if it is stale.
    public var needsQRCode: Bool
    /// The family existed and a PNG may be there already: it is kept only if it encodes the
    /// family's current code (an audit repair may have changed the code since it was written).
    public var checkExistingQRCode = false
    /// For a created family: whether CloudKit was asked and had no family with this code.
    public var codeVerifiedRemotely: Bool? = nil
}
