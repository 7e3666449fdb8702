import TribeBoardCloudKit
import TribeBoardDomain

/// Who holds a claim's record name when it is not ours. A claim is ours only when all three hold:
/// its type is `FamilyCodeClaim`, its `family` names our family, and its creator is our caller
/// (users/caller). The public database lets any iCloud user create records of the claim type, and
/// only a record's creator may change or delete it: a claim someone else made can be repointed or
/// deleted by them at any time, so it never counts as ours, whatever family it names.
package enum ClaimHolder: Sendable, Equatable, Hashable {
    /// A claim our caller made for another family: that family holds the code.
    case family(String)
    /// A claim another CloudKit user (an app user, another developer's key) made; `family` is the
    /// family it names (ours, another, or none), `creator` its `created.userRecordName`.
    case foreign(family: String?, creator: String?)
    /// A record of another type holds the claim's name (names are unique per zone across types).
    case squatter(recordType: String?, creator: String?)

    /// Reads a record found under a claim's name: nil when it is ours (`familyID`'s, by `caller`).
    package static func of(_ record: CloudKitRecord, familyID: FamilyID, caller: String)
        -> ClaimHolder?
    {
        let holder = reading(record, caller: caller)
        return holder == .family(familyID.rawValue) ? nil : holder
    }

    /// Reads a record found under a claim's name, whoever's it is (`.family` only when our
    /// caller made it).
    package static func reading(_ record: CloudKitRecord, caller: String) -> ClaimHolder {
        let creator = record.created?.userRecordName
        guard record.recordType == CodeClaim.recordType else {
            return .squatter(recordType: record.recordType, creator: creator)
        }
        let family = CodeClaim.holder(in: record)
        guard let creator, creator == caller, let family else {
            return .foreign(family: family, creator: creator)
        }
        return .family(family)
    }

    /// The family the holding record names, if it is a claim that names one.
    package var familyID: String? {
        switch self {
        case .family(let id): return id
        case .foreign(let family, _): return family
        case .squatter: return nil
        }
    }

    /// Whether someone other than our caller holds the name (an attack, or another developer).
    package var isForeign: Bool {
        if case .family = self { return false }
        return true
    }

    /// `family`, `foreign` or `squatter`, for reports.
    package var kind: String {
        switch self {
        case .family: return "family"
        case .foreign: return "foreign"
        case .squatter: return "squatter"
        }
    }

    /// Who holds it, in words (the record names in it are CloudKit's, escaped by the reports).
    package var sentence: String {
        switch self {
        case .family(let id): return "family \(id)"
        case .foreign(let family, let creator):
            let names = family.map { "naming family \($0)" } ?? "naming no family"
            return "a claim \(names) made by another CloudKit user (\(creator ?? "creator unknown")), not by this key"
        case .squatter(let type, let creator):
            return "a \(type ?? "typeless") record of \(creator ?? "an unknown creator") squatting the claim's name"
        }
    }

    /// What an operator can do about it, for the family `familyID` of `store` that wanted the
    /// code, with the advising run's remote (`adviceFlags`).
    package func advice(for familyID: FamilyID, store: String, remote: [String]) -> String {
        // recode clears the family's conflict: the next resync claims and uploads the new code.
        let recode =
            "`\(Advice.recode(familyID: familyID, store: store, remote: remote).command)`, "
            + "then `\(Advice.resync(store: store, remote: remote).command)`"
        switch self {
        case .family: return "give it a new code: \(recode)"
        case .foreign, .squatter:
            return "only its creator can change or delete that record, so it is never taken as this family's claim: give the family a new code ("
                + recode + ") and remove the record in the CloudKit Console if it is an attack"
        }
    }
}
