import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardTestSupport
@testable import TribeBoardDoctor
import TribeBoardRemote

/// The typed catalogues (record types, doctor check ids) against what they must agree with and
/// did not come from: the schema file operators import, and the ids the docs promise scripts.
@Suite struct CatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `RECORD TYPE Name (` lines of Templates/cloudkit-schema.ckdb.
    static func schemaTypes() throws -> [String] {
        let text = try String(contentsOfFile: root.appendingPathComponent("Templates/cloudkit-schema.ckdb").path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 3, words[0] == "RECORD", words[1] == "TYPE" else { return nil }
            return String(words[2])
        }
    }

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

    /// Every type the toolkit names, legacy ones included: a container (or the emulator's
    /// --schema) set up from the file can hold the legacy records audit and migrate read.
    @Test func theRecordTypesAreTheSchemaFilesTypes() throws {
        let types = try Self.schemaTypes()
        #expect(types.count >= 4, "the schema file's types were not read")
        #expect(Set(RecordType.allCases.map(\.name)) == Set(types))
        #expect(types.count == Set(types).count, "a type defined twice: \(types)")
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
