import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardDoctor

/// The doctor's check ids against what they must agree with and did not come from: the ids the
/// docs promise scripts.
@Suite struct CatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first cell of each row of docs/doctor.md's "Check ids" table, without backticks.
    static func documentedCheckIDs() throws -> [String] {
        let text = try String(contentsOfFile: root.appendingPathComponent("docs/doctor.md").path, encoding: .utf8)
        guard let start = text.range(of: "## Check ids") else { return [] }
        let section = text[start.upperBound...].prefix { $0 != "#" }
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `") else { return nil }
            return line.split(separator: "`").dropFirst().first.map(String.init)
        }
    }

    @Test func everyCheckIDIsDocumentedInChecklistOrder() throws {
        let documented = try Self.documentedCheckIDs()
        #expect(documented == DoctorCheckID.allCases.map(\.rawValue))
    }

    /// Probe ids keep the `remote.schema.TYPE.FIELD` form scripts were given before the catalogue.
    @Test func schemaProbesAreNamedAfterTheirQuery() {
        for probe in RemoteSchemaChecks.probes {
            #expect(probe.id.rawValue == "remote.schema.\(probe.recordType.name).\(probe.codeFilter ? "code" : "recordID")")
        }
        #expect(Set(RemoteSchemaChecks.probes.map(\.id)).count == RemoteSchemaChecks.probes.count)
    }
}
