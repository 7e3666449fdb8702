import Foundation
import Testing
@testable import TribeBoardRemote

/// The record types the toolkit names (`RecordType`) against the schema file operators import.
struct RecordTypeCatalogueTests {
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

    /// Every type the toolkit names, legacy ones included: a container (or the emulator's
    /// --schema) set up from the file can hold the legacy records audit and migrate read.
    @Test func theRecordTypesAreTheSchemaFilesTypes() throws {
        let types = try Self.schemaTypes()
        #expect(types.count >= 4, "the schema file's types were not read")
        #expect(Set(RecordType.allCases.map(\.name)) == Set(types))
        #expect(types.count == Set(types).count, "a type defined twice: \(types)")
    }
}
