import Foundation
import Testing
import TribeBoardCSV
import TribeBoardStoreFixtures
import TribeBoardTestSupport

/// Every column provision reads reaches the store. A column added to `FamilyCSVColumn` and
/// docs/provision.md but dropped on its way (`RowParser`, `ValidatedRow`, `ProvisioningWriter`,
/// the record's `CodingKeys`) would be accepted and then lost without a word: each column is
/// given a value of its own, and the store must hold it afterwards.
struct CSVColumnsStoredTests {
    /// A value provision accepts for the column, and the cell that holds it once stored. The
    /// switch is exhaustive: a new column does not compile until it has a sample here.
    static func sample(_ column: FamilyCSVColumn) -> (given: String, stored: String) {
        switch column {
        case .familyName: return ("Okafor-Lindqvist", "Okafor-Lindqvist")
        case .externalId: return ("CRM-4711", "ext:CRM-4711")
        case .adminDisplayName: return ("Ada Okafor", "Ada Okafor")
        case .adminAppleUserIdHash: return (CSVFixtures.hexHash(3), CSVFixtures.hexHash(3))
        case .code: return ("QX7K2M", "QX7K2M")
        }
    }

    /// Every cell of the tables a provisioned row writes.
    static func cells(_ workspace: ProvisionWorkspace) throws -> [String] {
        let inspector = try workspace.inspector()
        return try ["families", "user_profiles", "memberships"]
            .flatMap { try inspector.rows("SELECT * FROM \($0)") }.flatMap(\.values)
    }

    static func csv(_ columns: [FamilyCSVColumn]) -> String {
        columns.map(\.rawValue).joined(separator: ",") + "\n"
            + columns.map { sample($0).given }.joined(separator: ",") + "\n"
    }

    @Test func everyColumnGivenIsInTheStore() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run(Self.csv(FamilyCSVColumn.allCases))
        #expect(report.created == 1 && report.unknownColumns.isEmpty, "\(report.failures) \(report.unknownColumns)")
        let cells = try Self.cells(workspace)
        for column in FamilyCSVColumn.allCases {
            let sample = Self.sample(column)
            #expect(cells.contains(sample.stored), "\(column.rawValue): \"\(sample.given)\" given, not in the store")
        }
    }

    /// The check can fail: without the column, its value is nowhere in the store.
    @Test func aColumnLeftOutIsNotFound() throws {
        for column in FamilyCSVColumn.allCases where column != .familyName {
            let workspace = try ProvisionWorkspace()
            try workspace.run(Self.csv(FamilyCSVColumn.allCases.filter { $0 != column }))
            #expect(!(try Self.cells(workspace)).contains(Self.sample(column).stored), "\(column.rawValue)")
        }
    }
}
