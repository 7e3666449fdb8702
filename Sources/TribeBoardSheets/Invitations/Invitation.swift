import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

/// What a printed invitation says about one family: its name, its code and who administers it.
/// The code is the secret: `description` masks it.
package struct Invitation: Sendable, Equatable, CustomStringConvertible {
    package let familyId: FamilyID
    package let familyName: String
    package let code: String
    package let adminName: String?
    package let externalId: String?
    /// A manifest's other columns that the template names (`{class}`).
    package let columns: [String: String]

    package init(
        familyId: FamilyID, familyName: String, code: String, adminName: String?,
        externalId: String?,
        columns: [String: String] = [:]
    ) {
        self.columns = columns
        self.familyId = familyId
        self.familyName = familyName
        self.code = code
        self.adminName = adminName
        self.externalId = externalId
    }

    package var description: String { "\(familyId) \(FamilyCode.mask(code))" }
}

/// Which of the store's families get an invitation.
package enum InvitationSelection: Sendable, Equatable {
    case all
    /// The families provisioned from rows with these `external_id`s.
    case externalIds(Set<String>)
    /// The families provisioned from the rows of this import file, read with the `--map` provision
    /// was given (matched as provision matches a re-run).
    case importFile(path: String, mapping: HeaderMapping)
    /// Created within these bounds (inclusive; nil: open).
    case created(from: Timestamp?, to: Timestamp?)
    /// These families, by record id.
    case familyIds(Set<String>)
    /// The families holding these codes now.
    case codes(Set<String>)
}

/// The order of the cards from the store.
package enum InvitationOrder: String, CaseIterable, Sendable {
    /// As they were created (the import file's order within a run).
    case created
    /// By family name, case and accents aside (Émile between Dubois and Fabre), as an office files
    /// them.
    case name
    /// By the import file's external id (families without one first).
    case externalId = "external-id"
}

/// `rendering` carries the caller's error unchanged (a SheetError, or whatever its body threw);
/// errors are Sendable, so this is too.
package enum InvitationReadError: Error, Equatable, LocalizedError {
    case store(StoreError)
    case importFile(CSVImportError)
    case manifest(path: String, reason: String)
    case manifestMissing(path: String, reason: String)
    /// What the caller did with an invitation failed (it is passed through unchanged).
    case rendering(any Error)

    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.store(let a), .store(let b)): return a == b
        case (.importFile(let a), .importFile(let b)): return a == b
        case (.manifest(let a, let r), .manifest(let b, let s)),
            (.manifestMissing(let a, let r), .manifestMissing(let b, let s)):
            return a == b && r == s
        case (.rendering(let a), .rendering(let b)):
            return a.localizedDescription == b.localizedDescription
        default: return false
        }
    }

    package var errorDescription: String? {
        switch self {
        case .store(let error): return error.localizedDescription
        case .importFile(let error): return "the import file: \(error.localizedDescription)"
        case .manifest(let path, let reason):
            return "the manifest \(path) cannot be read: \(reason)"
        case .manifestMissing(let path, let reason):
            return "cannot open the manifest \(path): \(reason)"
        case .rendering(let error): return error.localizedDescription
        }
    }
}
