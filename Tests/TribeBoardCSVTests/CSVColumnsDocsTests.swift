import Foundation
import Testing
@testable import TribeBoardCSV

/// docs/provision.md's column table is what operators build their files from: every column
/// provisioning reads is in it, and it names no other.
struct CSVColumnsDocsTests {
    @Test func theColumnTableIsTheColumnsProvisionReads() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/provision.md")
        let lines = try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| column | required | meaning |") })
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| `") }
        let documented = Set(rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) })
        #expect(documented == Set(FamilyCSVColumn.allCases.map(\.rawValue)))
    }
}
