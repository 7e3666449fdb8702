import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardTestSupport
@testable import TribeBoardMigrate

/// A record a migration copies is learned by the store with every field it carries. A field
/// `MigrationStoreImport` or `learnMigratedRecords` forgets is lost from the store while CloudKit
/// holds it, and the next upload of the row (a recode) would erase it there.
struct MigratedFieldsStoredTests {
    static func table(_ kind: MigratedKind) -> String {
        switch kind {
        case .family: return "families"
        case .userProfile: return "user_profiles"
        case .membership: return "memberships"
        }
    }

    /// How the store writes a field's value: text as it is, a reference as its record name, a
    /// date as the store's date text.
    static func stored(_ field: CloudKitRecord.Field) -> String? {
        if let text = field.value.string { return text }
        if let number = field.value.number { return Timestamp(milliseconds: Int64(number)).text }
        return field.value.object?["recordName"]?.string
    }

    @Test func everyFieldOfAMigratedRecordIsInTheStore() throws {
        let items = MigrationFieldsTests.records.map { kind, record in
            MigrationItem(source: record, kind: kind, copy: record, outcome: .copied)
        }
        let folder = try TemporaryDirectory("migrated-fields")
        let store = try TribeBoardStore.openOrCreate(at: folder.file("store.sqlite")).store
        let learned = try store.learnMigratedRecords(MigrationStoreImport.records(items), checkpoint: [], runKey: "fields")
        #expect(learned.families == 1 && learned.userProfiles == 1 && learned.memberships == 1, "\(learned)")
        let inspector = try StoreInspector(path: folder.file("store.sqlite"))
        for (kind, record) in MigrationFieldsTests.records {
            let rows = try inspector.rows("SELECT * FROM \(Self.table(kind)) WHERE id = '\(record.recordName)'")
            let cells = Set(try #require(rows.first, "\(kind) not learned").values)
            for (name, field) in (record.fields ?? [:]).sorted(by: { $0.key < $1.key }) {
                let value = try #require(Self.stored(field), "\(kind).\(name): no value")
                #expect(cells.contains(value), "\(kind).\(name) = \(value) is not in the store's row")
            }
        }
    }
}
