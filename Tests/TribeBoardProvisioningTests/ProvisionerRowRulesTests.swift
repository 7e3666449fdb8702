import Foundation
import Testing
import TribeBoardDomain
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardProvisioning

@Suite("Provisioner: duplicate rows and preassigned codes")
struct ProvisionerRowRulesTests {
    @Test func repeatedExternalIdFailsNamingTheFirstLine() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run("external_id,family_name\nE1,Alpha\nE2,Beta\nE1,Gamma\n")
        #expect((report.created, report.failed) == (2, 1))
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["created", "created", "failed"])
        #expect(rows[2].error.contains("\"E1\""))
        #expect(rows[2].error.contains("line 2"))
        #expect(report.failures == [.init(line: 4, row: 4, externalId: "E1", error: rows[2].error)])
        #expect(try workspace.codesByName().keys.sorted() == ["Alpha", "Beta"])
    }

    @Test func identicalRowsWithoutExternalIdFailAsRepeats() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,admin_display_name\nAlpha,Ann\nAlpha,Bob\nAlpha,Ann\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["created", "created", "failed"])
        #expect(rows[2].error.contains("repeats line 2"))
        #expect(try workspace.count("families") == 2)
    }

    @Test func preassignedCodeIsKeptExactly() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,code\nAlpha, k7q0o1i \nBeta,\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["created", "created"])
        #expect(rows[0].code == "K7Q0O1I")
        #expect(try workspace.codesByName()["Alpha"] == "K7Q0O1I")
        #expect(rows[1].code.count == FamilyCodeGenerator.defaultLength)
    }

    @Test func invalidPreassignedCodeFailsTheRow() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,code\nAlpha,AB-123\nBeta,ABC\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["failed", "failed"])
        #expect(rows[0].error.hasPrefix("code: "))
        #expect(rows[1].error.contains("has 3"))
        #expect(try workspace.count("families") == 0)
    }

    @Test func preassignedCodeAlreadyInTheStoreFailsTheRow() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name,code\nE1,Alpha,K7Q0O1\n", file: "first.csv")
        let alphaID = try #require(try workspace.manifest().first?.familyId)

        let report = try workspace.run("external_id,family_name,code\nE2,Beta,K7Q0O1\n", file: "second.csv")
        #expect((report.created, report.failed) == (0, 1))
        let row = try #require(try workspace.manifest().first)
        #expect(row.status == "failed")
        #expect(row.error.contains("already used by family \(alphaID)"))
        #expect(row.code == "")
        #expect(try workspace.codesByName() == ["Alpha": "K7Q0O1"])
    }

    @Test func sameCodeOnTwoLinesFailsTheLaterLine() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,code\nAlpha,K7Q0O1\nBeta,k7q0o1\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["created", "failed"])
        #expect(rows[1].error.hasPrefix("code: "))
        #expect(rows[1].code.isEmpty)
        #expect(try workspace.codesByName() == ["Alpha": "K7Q0O1"])
    }

    @Test func codeGivenOnTwoLinesBelongsToTheEarlierLineEvenWhileItFails() throws {
        let workspace = try ProvisionWorkspace()
        // Line 2 is invalid (one-letter name): line 3 may still not take its code.
        try workspace.run("external_id,family_name,code\nE1,A,K7Q0O1\nE2,Beta,K7Q0O1\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["failed", "failed"])
        #expect(rows[1].error.contains("also given on line 2"))
        // Once line 2 is fixed, it gets its code.
        try workspace.run("external_id,family_name,code\nE1,Al,K7Q0O1\n")
        #expect(try workspace.codesByName() == ["Al": "K7Q0O1"])
    }

    @Test func hashWithoutAdminNameAndOtherProblemsAreAllReported() throws {
        let workspace = try ProvisionWorkspace()
        let hash = CSVFixtures.hexHash(1)
        try workspace.run("family_name,admin_display_name,admin_apple_user_id_hash\nAlpha,,\(hash)\nFam!ly,Ann,xyz\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["failed", "failed"])
        #expect(rows[0].error.hasPrefix("admin_display_name: "))
        #expect(rows[1].error.contains("family_name: "))
        #expect(rows[1].error.contains("admin_apple_user_id_hash: "))
    }

    @Test func codeReservedOnALaterLineIsNeverGenerated() throws {
        let workspace = try ProvisionWorkspace()
        // The generator's first candidate is the code line 3 keeps; its second is free.
        let source = ScriptedRandomSource([ScriptedRandomSource.code("CCCCCC"), ScriptedRandomSource.code("DDDDDD")])
        try workspace.run("family_name,code\nAlpha,\nBeta,CCCCCC\n", source: source)
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["created", "created"])
        #expect(rows.map(\.code) == ["DDDDDD", "CCCCCC"])
        #expect(try workspace.codesByName() == ["Alpha": "DDDDDD", "Beta": "CCCCCC"])
    }

    @Test func generatedCodeNeverRepeatsACodeInTheStore() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("family_name,code\nAlpha,EEEEEE\n", file: "first.csv")
        let source = ScriptedRandomSource([ScriptedRandomSource.code("EEEEEE"), ScriptedRandomSource.code("FFFFFF")])
        try workspace.run("family_name\nBeta\n", file: "second.csv", source: source)
        #expect(try workspace.codesByName() == ["Alpha": "EEEEEE", "Beta": "FFFFFF"])
    }

    @Test func failingRandomSourceFailsRowsWithACodeGenerationError() throws {
        let workspace = try ProvisionWorkspace()
        // The provisioner retries with its own delays (350 ms per row in all): keep the file short.
        let source = ScriptedRandomSource([], afterScript: .failure("getrandom refused"))
        let report = try workspace.run("external_id,family_name\nE1,Alpha\nE2,Beta\n", source: source)
        #expect((report.created, report.failed) == (0, 2))
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["failed", "failed"])
        for row in rows {
            #expect(row.error.contains("code generation failed"))
            #expect(row.error.contains("getrandom refused"))
        }
        #expect(try workspace.count("families") == 0)
        #expect(try workspace.count("memberships") == 0)
        let inspector = try workspace.inspector()
        #expect(try inspector.count("SELECT COUNT(*) FROM creation_log WHERE state = 'failed'") == 2)
        let states = try inspector.strings("SELECT state FROM creation_log WHERE import_key = 'ext:E1' ORDER BY id")
        #expect(states == ["idle", "validating", "generatingCode", "failed"])
        #expect(try inspector.count("SELECT COUNT(*) FROM creation_log WHERE state = 'failed' AND error LIKE '%code generation failed%'") == 2)
    }

    @Test func invalidRowsAreLoggedAndOthersStillCreated() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name\nE1,Fam!ly\nE2,Beta\nE3,Gamma,extra\n")
        let rows = try workspace.manifest()
        #expect(rows.map(\.status) == ["failed", "created", "failed"])
        #expect(rows[0].error.contains("\"!\""))
        #expect(rows[2].error.contains("3 fields"))
        let states = try workspace.inspector().strings("SELECT state FROM creation_log WHERE source_line = 2 ORDER BY id")
        #expect(states == ["idle", "validating", "failed"])
    }
}
