import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardSupport

/// The app's rules for the current types (app-data-model.md), checked on every source record
/// before it is copied: a record that breaks them is not copied (`invalid`), since the app, the
/// store and the audit would each read it differently (a 1e300 `createdAt` became 1970 in the
/// store). A family code outside the wire format is not a problem here: it is given a new code like
/// a conflicting one (see `MigrationCodes`).
enum MigrationValidation {
    /// Dates a TribeBoard record can hold: from 2000 (long before the app) to 2100. Inside the
    /// audit's 1970...9999 range, so a migrated date never reads as unknown there.
    static let plausibleMilliseconds: ClosedRange<Double> = 946_684_800_000...4_102_444_800_000

    /// What is wrong with a record, one sentence per field; empty when it may be copied. Values
    /// are described by type and size, never quoted for `code`.
    static func problems(_ record: CloudKitRecord, kind: MigratedKind) -> [String] {
        let fields = record.fields ?? [:]
        var problems: [String] = []
        // The field names are the Remote module's (`FamilyField`…), those `RecordMapping` writes.
        func check<Name: RawRepresentable<String>>(_ key: Name, _ rule: (CloudKitRecord.Field) -> String?, optional: Bool = false) {
            let name = key.rawValue
            guard let field = fields[name] else {
                if !optional { problems.append("\(name) is missing") }
                return
            }
            if let problem = rule(field) { problems.append("\(name) \(problem)") }
        }
        switch kind {
        case .family:
            check(FamilyField.name) { text($0) { _ = try FieldRules.familyName($0, column: "") } }
            check(FamilyField.code) { text($0, quote: false) { _ in } }
            check(FamilyField.createdByUserId) {
                text($0) {
                    if UUID(uuidString: $0.trimmingCharacters(in: .whitespaces)) == nil {
                        throw RowError(column: nil, "is not a UUID")
                    }
                }
            }
            check(FamilyField.createdAt, timestamp)
        case .userProfile:
            check(ProfileField.displayName) { text($0) { _ = try FieldRules.displayName($0, column: "") } }
            // What the app's validators accepted (10 characters or more), not provision's strict
            // SHA-256 rule: a profile the app wrote must not be lost to a migration.
            check(ProfileField.appleUserIdHash, {
                text($0) {
                    if $0.trimmingCharacters(in: .whitespaces).count < 10 {
                        throw RowError(column: nil, "is shorter than the 10 characters the app accepts")
                    }
                }
            }, optional: true)
            check(ProfileField.avatarUrl, { text($0) { if URL(string: $0) == nil { throw RowError(column: nil, "is not a URL") } } }, optional: true)
            check(ProfileField.createdAt, timestamp)
        case .membership:
            check(MembershipField.role) {
                text($0) {
                    if MembershipRole(rawValue: $0) == nil {
                        throw RowError(column: nil, "is not one of \(MembershipRole.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                }
            }
            check(MembershipField.status) {
                text($0) {
                    if MembershipStatus(rawValue: $0) == nil {
                        throw RowError(column: nil, "is not one of \(MembershipStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                }
            }
            check(MembershipField.joinedAt, timestamp)
            check(MembershipField.lastRoleChangeAt, timestamp, optional: true)
            check(MembershipField.family, reference)
            check(MembershipField.user, reference)
        }
        return problems
    }

    private static func typeProblem(_ field: CloudKitRecord.Field, expected: String) -> String? {
        guard let type = field.type, type != expected else { return nil }
        return "is a \(type), not a \(expected)"
    }

    /// A STRING the rule accepts; the value quoted (shortened) unless it is a secret.
    private static func text(
        _ field: CloudKitRecord.Field, quote: Bool = true, _ rule: (String) throws -> Void
    ) -> String? {
        if let problem = typeProblem(field, expected: "STRING") { return problem }
        guard let value = field.value.string else { return "is not a STRING" }
        do {
            try rule(value)
            return nil
        } catch let error as RowError {
            let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
            return (quote ? "\"\(shown)\" " : "") + error.message
        } catch {
            return error.readableDescription
        }
    }

    private static func timestamp(_ field: CloudKitRecord.Field) -> String? {
        if let problem = typeProblem(field, expected: "TIMESTAMP") { return problem }
        guard let number = field.value.number, number.isFinite else {
            return "is not a TIMESTAMP (not a number)"
        }
        guard plausibleMilliseconds.contains(number) else {
            return "is out of range (\(number) ms; 2000 to 2100 accepted)"
        }
        return nil
    }

    private static func reference(_ field: CloudKitRecord.Field) -> String? {
        if let problem = typeProblem(field, expected: "REFERENCE") { return problem }
        guard let name = field.value.object?["recordName"]?.string, !name.isEmpty else {
            return "is not a REFERENCE (no recordName)"
        }
        return nil
    }
}
