import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// The `.ckdb` reader, against the toolkit's own schema file and Apple's grammar.
@Suite("CloudKit schema language")
struct SchemaParserTests {
    @Test func theToolkitsSchemaFileReadsAsItsTypesWithTheirIndexes() throws {
        let schema = try EmulatorHarness.templateSchema()
        #expect(Set(schema.types.keys) == ["Family", "UserProfile", "Membership", "FamilyCodeClaim", "CKFamily", "CKUserProfile", "CKMembership"])
        // The legacy types are read whole (audit, migrate) and their codes checked.
        for legacy in ["CKFamily", "CKUserProfile", "CKMembership"] {
            #expect(schema.types[legacy]?.fields["___recordID"]?.queryable == true, "\(legacy)")
        }
        #expect(schema.types["CKFamily"]?.fields["code"]?.queryable == true)
        // Claims are read by name only: not one index, so nobody can list them.
        #expect(schema.types["FamilyCodeClaim"]?.fields.values.allSatisfy { !$0.queryable && !$0.sortable && !$0.searchable } == true)
        #expect(schema.types["FamilyCodeClaim"]?.grants == ["_icloud": [.read, .create], "_creator": [.write]])
        let family = try #require(schema.types["Family"])
        #expect(family.fields["code"] == SchemaField(type: "STRING", queryable: true))
        #expect(family.fields["name"] == SchemaField(type: "STRING"))
        #expect(family.fields["createdAt"] == SchemaField(type: "TIMESTAMP", queryable: true, sortable: true))
        #expect(family.fields["___recordID"]?.queryable == true)
        #expect(family.grants == ["_world": [.read], "_icloud": [.create], "_creator": [.write]])
        #expect(schema.types["Membership"]?.fields["family"] == SchemaField(type: "REFERENCE", queryable: true))
    }

    @Test func listsRolesEncryptedAndNumberTypesFollowAppleGrammar() throws {
        let schema = try SchemaParser.parse("""
            DEFINE SCHEMA
                CREATE ROLE Admins;
                RECORD TYPE Note (
                    tags  LIST<STRING> QUERYABLE,
                    body  ENCRYPTED STRING,
                    count NUMBER PREFERRED AS INT64 SORTABLE,
                    GRANT READ, WRITE TO "Admins",
                    GRANT CREATE TO "_icloud"
                );
            """)
        let note = try #require(schema.types["Note"])
        #expect(note.fields["tags"] == SchemaField(type: "STRING_LIST", queryable: true))
        #expect(note.fields["body"]?.type == "STRING")
        #expect(note.fields["count"] == SchemaField(type: "INT64", sortable: true))
        #expect(note.grants == ["Admins": [.read, .write], "_icloud": [.create]])
        // System fields exist whether or not the file names them, without indexes.
        #expect(note.fields["___recordID"] == SchemaField(type: "REFERENCE"))
    }

    @Test(arguments: [
        ("RECORD TYPE A ( x STRING );", 1, "DEFINE"),
        ("DEFINE SCHEMA\nRECORD TYPE A (\n  x STRNG\n);", 3, "unknown field type STRNG"),
        ("DEFINE SCHEMA\nRECORD TYPE A ( x STRING, x INT64 );", 2, "defined twice"),
        ("DEFINE SCHEMA\nRECORD TYPE A ( GRANT READ TO \"Nobody\" );", 2, "not defined"),
        ("DEFINE SCHEMA\nRECORD TYPE A ( x STRING )", 2, "expected ;"),
    ])
    func aBrokenFileNamesTheLineAndTheProblem(text: String, line: Int, message: String) {
        do {
            _ = try SchemaParser.parse(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func emptyMeansAContainerWithoutTypes() throws {
        #expect(try EmulatorSetup.schema("empty") == .empty)
        #expect(throws: EmulatorError.self) { try EmulatorSetup.schema("/nonexistent/schema.ckdb") }
    }

    /// Apple's grammar allows block comments; one never closed is named with its line.
    @Test func blockCommentsAreSkippedEvenAcrossLines() throws {
        let schema = try SchemaParser.parse("""
            DEFINE SCHEMA /* the toolkit's types */
            RECORD TYPE Family (
                /* a comment
                   over lines */ code STRING QUERYABLE, -- and a line comment
                name STRING /* inline */ SORTABLE
            );
            """)
        #expect(schema.types["Family"]?.fields["code"] == SchemaField(type: "STRING", queryable: true))
        #expect(schema.types["Family"]?.fields["name"] == SchemaField(type: "STRING", sortable: true))
        #expect(throws: SchemaParser.Failure.self) { try SchemaParser.parse("DEFINE SCHEMA\nRECORD TYPE Family ( /* never closed\n code STRING );") }
        do {
            _ = try SchemaParser.parse("DEFINE SCHEMA\n\nRECORD TYPE /* never closed")
            Issue.record("an unclosed comment was accepted")
        } catch {
            #expect(error.line == 3, "\(error)")
        }
    }
}
