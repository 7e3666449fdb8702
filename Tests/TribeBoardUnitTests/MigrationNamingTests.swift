import Foundation
import Testing
import TribeBoardMigrate
import TribeBoardCloudKit

/// The names `migrate legacy-types` gives copies: what lets a rerun find its own copies.
@Suite struct MigrationNamingTests {
    @Test func aCopyNameIsTheAppsUUIDFormDerivedOnlyFromTheOldName() throws {
        let name = LegacyCopyName.of("3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(name == LegacyCopyName.of("3F2504E0-4F89-11D3-9A0C-0305E82C3301"), "same old name, same copy name")
        let uuid = try #require(UUID(uuidString: name))
        #expect(uuid.uuidString == name, "uppercase and hyphenated, as the app writes ids")
        #expect(name.dropFirst(14).first == "8", "version 8 (RFC 9562 custom)")
        #expect(name != "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        let names = Set((0..<10_000).map { LegacyCopyName.of("L\($0)") })
        #expect(names.count == 10_000, "no two old names share a copy name")
    }
}
