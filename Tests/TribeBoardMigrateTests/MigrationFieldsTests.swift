import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardDomain
@testable import TribeBoardMigrate
@testable import TribeBoardRemote

/// Every field of every record type is checked before a record is copied: a field the mapping
/// writes but `MigrationValidation` forgets would be copied whatever it holds.
struct MigrationFieldsTests {
    /// Each kind's record as the mapping writes it, with every optional field given.
    static let records: [(MigratedKind, CloudKitRecord)] = [
        (.family, EveryFieldRecords.family), (.userProfile, EveryFieldRecords.profile),
        (.membership, EveryFieldRecords.membership),
    ]

    /// The records above carry every field of their type's catalogue, so that a field the mapping
    /// gains is checked here and stored (`MigratedFieldsStoredTests`) without another edit.
    @Test func theRecordsCarryEveryFieldOfTheirCatalogue() {
        for (kind, record) in Self.records {
            let catalogue = switch kind {
            case .family: FamilyField.allCases.map(\.rawValue)
            case .userProfile: ProfileField.allCases.map(\.rawValue)
            case .membership: MembershipField.allCases.map(\.rawValue)
            }
            #expect(Set((record.fields ?? [:]).keys) == Set(catalogue), "\(kind): give every field")
        }
    }

    @Test func aFieldOfTheWrongTypeIsAProblemNamingIt() {
        for (kind, record) in Self.records {
            #expect(MigrationValidation.problems(record, kind: kind) == [], "\(kind): the record as written is valid")
            for (name, field) in record.fields ?? [:] {
                var broken = record
                broken.fields?[name] = field.type == "STRING" ? .timestamp(milliseconds: 1_764_000_000_000) : .string("x")
                let problems = MigrationValidation.problems(broken, kind: kind)
                #expect(problems.contains { $0.hasPrefix(name + " ") }, "\(kind).\(name) is not checked: \(problems)")
            }
        }
    }
}
