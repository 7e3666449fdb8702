import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
@testable import TribeBoardDoctor

/// Every query the commands make has its index in Templates/cloudkit-schema.ckdb, read by the
/// emulator's own parser (written from Apple's schema language, not from the client). Doctor's
/// probes are the commands' queries, so they are the list. (Every written field: SchemaMappingTests,
/// beside what resync uploads.)
@Suite("Queried indexes against the schema file")
struct SchemaIndexTests {
    /// Every type and field the client queries (legacy types are only read, from containers that
    /// still have them: not in the file).
    static var queried: [(type: String, field: String, neededBy: String)] {
        RemoteSchemaChecks.probes.filter { !$0.recordType.isLegacy }
            .map { ($0.recordType.name, $0.codeFilter ? "code" : "___recordID", $0.neededBy) }
    }

    /// The queries the schema has no index for; empty when the file holds every one.
    static func problems(_ schema: ContainerSchema) -> [String] {
        queried.filter { schema.types[$0.type]?.fields[$0.field]?.queryable != true }
            .map { "\($0.type).\($0.field) is queried (\($0.neededBy)) but not QUERYABLE" }
    }

    static func template() throws -> String {
        try String(contentsOfFile: CloudKitEmulator.Options.templateSchemaPath, encoding: .utf8)
    }

    @Test func theSchemaFileHasAnIndexForEveryQuery() throws {
        #expect(Self.queried.count >= 4, "the code check and an unfiltered read of each type")
        #expect(Self.problems(try SchemaParser.parse(try Self.template())).isEmpty)
    }

    /// The check can fail: a copy of the file without the code index, or without a type, is
    /// caught and named.
    @Test func aSchemaMissingAnIndexOrATypeIsCaught() throws {
        let text = try Self.template()
        let withoutCodeIndex = text.replacingOccurrences(of: "code            STRING QUERYABLE", with: "code            STRING")
        #expect(withoutCodeIndex != text)
        #expect(Self.problems(try SchemaParser.parse(withoutCodeIndex))
                == ["Family.code is queried (provision and resync (code check), doctor family) but not QUERYABLE"])
        let withoutMembership = text.replacingOccurrences(of: "RECORD TYPE Membership (", with: "RECORD TYPE Member (")
        #expect(Self.problems(try SchemaParser.parse(withoutMembership)).contains { $0.hasPrefix("Membership.___recordID ") })
    }
}
