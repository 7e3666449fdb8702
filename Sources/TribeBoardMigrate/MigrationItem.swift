import Foundation
import TribeBoardDomain
import TribeBoardCloudKit
import TribeBoardRemote

/// What happened (or, in a plan, would happen) to one source record.
package enum MigrationOutcome: String, Sendable, Encodable, CaseIterable {
    /// Plan: would be copied.
    case wouldCopy = "would-copy"
    case copied
    /// The destination already held an identical record (a rerun, or a copy made by hand).
    case identical
    /// An earlier run of the same migration copied it (the store's checkpoint says so).
    case checkpointed
    /// A different record holds its name at the destination: reported, never overwritten.
    case conflict
    /// Its code is held by another family at the destination and it was not migrated.
    case codeConflict = "code-conflict"
    /// It breaks the app's rules for the current type (the reason names the field): not copied.
    case invalid
    /// Not migrated because a record it references was not (or is not in the source).
    case skipped
    /// CloudKit refused this record.
    case failed
    /// The verification found the destination's copy different from the source.
    case mismatch

    /// At the destination as it should be.
    var isInPlace: Bool { [.copied, .identical, .checkpointed].contains(self) }
    /// What makes the run exit 1.
    package var isProblem: Bool {
        [.conflict, .codeConflict, .invalid, .skipped, .failed, .mismatch].contains(self)
    }
}

/// A family that got a new code because an older family holds its old one, or its old one is not
/// in the wire format.
package struct MigrationRecode: Sendable, Encodable, Equatable {
    package var oldCode: String
    package var newCode: String
    /// The family (record name at the destination, or store id) that keeps the old code; empty
    /// when nobody does (a code outside the wire format).
    package var keptBy: String
    /// The `code_repairs` reason: `migrate-code-conflict` or `migrate-invalid-code`.
    package var reason: String

    init(oldCode: String, newCode: String, keptBy: String, reason: String? = nil) {
        self.oldCode = oldCode
        self.newCode = newCode
        self.keptBy = keptBy
        self.reason =
            reason
            ?? (FamilyCode.isWireFormat(oldCode) ? Self.conflictReason : Self.invalidCodeReason)
    }

    static let conflictReason = "migrate-code-conflict"
    static let invalidCodeReason = "migrate-invalid-code"
}

/// One source record on its way: its copy, and what became of it.
struct MigrationItem: Sendable {
    let source: CloudKitRecord
    let kind: MigratedKind
    var copy: CloudKitRecord
    var outcome: MigrationOutcome
    var reason: String?
    var recode: MigrationRecode?
    /// Set when a per-record failure is worth another run later (THROTTLED and friends).
    var retryable = false
    var deleted = false
    /// Why `--delete-source` leaves this legacy record where it is (`--keep-source`), if it does.
    var kept: String?

    var sourceName: String { source.recordName }
    var destinationName: String { copy.recordName }
}

extension MigrationItem {
    /// Who wrote the record found under the copy's name at the destination, when it was not this
    /// key (`caller`, users/caller): anyone may create a record under a name they know, and only
    /// its creator may change or delete it, so another creator's record is never this copy in
    /// place, however alike (nor a source to delete for it). Nil for this key's own.
    static func otherCreator(of found: CloudKitRecord, caller: String) -> String? {
        let creator = found.created?.userRecordName
        return creator == caller ? nil : creator ?? "a creator CloudKit does not name"
    }

    /// A conflict with a record another creator wrote under the copy's name.
    mutating func heldByAnotherCreator(_ creator: String) {
        outcome = .conflict
        reason = "a record another creator (\(creator)) wrote holds \(destinationName) at the destination: this key may "
            + "neither change nor delete it, so it is not this copy, and it is never overwritten"
    }

    /// The destination's copy differs only in the code of a family this run would re-code: an
    /// earlier run re-coded it (with a store whose checkpoint is not this one). It is the same
    /// family; its code there stands, since choosing another would make a conflict of our own copy.
    mutating func adoptEarlierCode(from found: CloudKitRecord) -> Bool {
        guard kind == .family, recode != nil,
            MigrationTranslation.differingFields(copy, found) == [FamilyField.code.rawValue],
            let code = found.string(FamilyField.code)
        else { return false }
        copy[field: FamilyField.code] = .string(code)
        recode?.newCode = code
        return true
    }

    /// Settles the copy against the record the destination holds under its name: another
    /// creator's (a conflict it names), or this copy in place (identical, an earlier code adopted).
    /// False when it is neither: a conflict whose reason the caller gives.
    mutating func settle(against found: CloudKitRecord, caller: String) -> Bool {
        if let creator = Self.otherCreator(of: found, caller: caller) {
            heldByAnotherCreator(creator)
        } else if MigrationTranslation.same(copy, found) || adoptEarlierCode(from: found) {
            outcome = .identical
        } else {
            return false
        }
        return true
    }
}
