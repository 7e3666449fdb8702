import Foundation
import GRDB
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardResync
@testable import TribeBoardStore
@testable import TribeBoardRemote

/// What resync uploads held against Templates/cloudkit-schema.ckdb, read by the emulator's own
/// parser (written from Apple's schema language, not from the client): every field the toolkit
/// writes is declared with the type it is sent as. (Every query's index: SchemaIndexTests,
/// beside doctor's probes.)
@Suite("Record mapping against the schema file")
struct SchemaMappingTests {
    /// What resync uploads: one store row of every table it syncs, provisioned the ordinary way
    /// and then given every optional column, turned into records by the client's own encoding.
    static func writtenRecords() throws -> [CloudKitRecord] {
        let rows = try ResyncFixtures.everyTableFilled()
        #expect(rows.map(\.table) == SyncTable.allCases, "a row of every table")
        return try rows.map { table, row in
            for column in PendingRow.uploadedColumns(table) {
                #expect(!(row[column] as DatabaseValue).isNull, "\(table.rawValue).\(column) is empty: its field would not be checked")
            }
            return try StoreRecord.decoded(table, row: row).get().appRecord.get()
        }
    }

    /// What the schema lacks for the mapping; empty when the file holds everything.
    static func problems(_ schema: ContainerSchema, written: [CloudKitRecord]) -> [String] {
        var problems: [String] = []
        for record in written {
            let typeName = record.recordType ?? "(no type)"
            guard let type = schema.types[typeName] else {
                problems.append("record type \(typeName) is not in the schema")
                continue
            }
            for (name, field) in (record.fields ?? [:]).sorted(by: { $0.key < $1.key }) where type.fields[name]?.type != field.type {
                problems.append("\(typeName).\(name) is written as \(field.type ?? "?") but the schema has \(type.fields[name]?.type ?? "no such field")")
            }
        }
        return problems
    }

    static func template() throws -> String {
        try String(contentsOfFile: CloudKitEmulator.Options.templateSchemaPath, encoding: .utf8)
    }

    @Test func theSchemaFileHoldsEveryWrittenFieldWithItsType() throws {
        let written = try Self.writtenRecords()
        #expect(Set(written.map(\.recordType)) == [RecordMapping.familyType, RecordMapping.userProfileType, RecordMapping.membershipType])
        #expect(written.allSatisfy { ($0.fields ?? [:]).count >= 4 }, "every record carries its fields")
        let problems = Self.problems(try SchemaParser.parse(try Self.template()), written: written)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The check can fail: a copy of the file without any one written field, or with another
    /// type, is caught and named.
    @Test func aSchemaMissingAFieldOrATypeIsCaught() throws {
        let written = try Self.writtenRecords()
        let text = try Self.template()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var mutations = 0
        for record in written {
            let typeName = record.recordType ?? "(no type)"
            for name in (record.fields ?? [:]).keys {
                // The field's declaration line inside its RECORD TYPE block.
                guard let start = lines.firstIndex(where: { $0.contains("RECORD TYPE \(typeName) (") }),
                      let line = lines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }) else {
                    Issue.record("\(typeName).\(name) not found in the file")
                    continue
                }
                var removed = lines
                removed.remove(at: line)
                #expect(Self.problems(try SchemaParser.parse(removed.joined(separator: "\n")), written: written)
                    .contains { $0.hasPrefix("\(typeName).\(name) ") }, "removing \(typeName).\(name) goes unnoticed")
                var retyped = lines
                let type = record.fields?[name]?.type ?? ""
                retyped[line] = retyped[line].replacingOccurrences(of: " \(type)", with: type == "STRING" ? " INT64" : " STRING")
                #expect(Self.problems(try SchemaParser.parse(retyped.joined(separator: "\n")), written: written)
                    .contains { $0.hasPrefix("\(typeName).\(name) ") }, "retyping \(typeName).\(name) goes unnoticed")
                mutations += 1
            }
        }
        #expect(mutations >= 14, "4 Family, 4 UserProfile and 6 Membership fields")
        let withoutMembership = text.replacingOccurrences(of: "RECORD TYPE Membership (", with: "RECORD TYPE Member (")
        #expect(Self.problems(try SchemaParser.parse(withoutMembership), written: written).contains("record type Membership is not in the schema"))
    }
}
