import Foundation
import Testing
import TribeBoardDomain
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardProvisioning

@Suite("Provisioner: re-runs")
struct ProvisionerRerunTests {
    static let csv = """
        external_id,family_name,admin_display_name,admin_apple_user_id_hash
        E1,Alpha,Ann,\(CSVFixtures.hexHash(1))
        E2,Beta,Bob,
        E3,Gamma,,

        """
    static let tables = ["families", "user_profiles", "memberships", "creation_log"]

    @Test func secondRunOfTheSameFileCreatesNothing() throws {
        let workspace = try ProvisionWorkspace()
        let first = try workspace.run(Self.csv)
        #expect((first.rows, first.created, first.existing, first.failed) == (3, 3, 0, 0))
        #expect(first.qrCodesWritten == 3)
        let firstManifest = try workspace.manifest()
        let counts = try Self.tables.map(workspace.count)
        #expect(try workspace.count("families") == 3)

        let second = try workspace.run(Self.csv)
        #expect((second.rows, second.created, second.existing, second.failed) == (3, 0, 3, 0))
        #expect(second.qrCodesWritten == 0)
        #expect(try Self.tables.map(workspace.count) == counts)

        let secondManifest = try workspace.manifest()
        #expect(secondManifest.map(\.status) == ["existing", "existing", "existing"])
        #expect(secondManifest.map(\.code) == firstManifest.map(\.code))
        #expect(secondManifest.map(\.familyId) == firstManifest.map(\.familyId))
        #expect(firstManifest.allSatisfy { $0.code.count == FamilyCodeGenerator.defaultLength })
    }

    /// The same text is the same family: a file imported in NFC and re-exported in NFD (as macOS
    /// tools write "Zoë": e + U+0308) is recognised, by external id and by name alike.
    @Test func aFileReExportedInNFDIsTheSameFamilies() throws {
        let workspace = try ProvisionWorkspace()
        let composed = "external_id,family_name\nAndr\u{E9}-1,Zo\u{EB} Family\n,M\u{FC}ller Family\n"
        let decomposed = "external_id,family_name\nAndre\u{301}-1,Zoe\u{308} Family\n,Mu\u{308}ller Family\n"
        #expect(Array(composed.utf8) != Array(decomposed.utf8), "two different files")
        let first = try workspace.run(composed, file: "nfc.csv")
        #expect((first.created, first.failed) == (2, 0))

        let second = try workspace.run(decomposed, file: "nfd.csv")
        #expect((second.created, second.existing, second.failed) == (0, 2, 0), "\(second.failures)")
        #expect(try workspace.count("families") == 2)
        // What the store keeps is NFC, byte for byte (read as hex by SQLite, not as Swift strings).
        let names = try workspace.inspector().rows("SELECT hex(name) AS name FROM families ORDER BY source_line").map { $0["name"] ?? "" }
        let expected = ["Zo\u{EB} Family", "M\u{FC}ller Family"].map { $0.utf8.map { String(format: "%02X", $0) }.joined() }
        #expect(names == expected)
    }

    @Test func rowsWithoutExternalIdAreRecognisedOnReRun() throws {
        let workspace = try ProvisionWorkspace()
        let csv = "family_name,admin_display_name\nAlpha,Ann\nBeta,\n"
        try workspace.run(csv)
        let codes = try workspace.codesByName()
        let second = try workspace.run(csv)
        #expect((second.created, second.existing, second.failed) == (0, 2, 0))
        #expect(try workspace.codesByName() == codes)
    }

    @Test func deletedPNGIsRewrittenOnReRun() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let rows = try workspace.manifest()
        let deleted = workspace.qrPath(rows[1])
        let original = try Data(contentsOf: URL(fileURLWithPath: deleted))
        try FileManager.default.removeItem(atPath: deleted)

        let second = try workspace.run(Self.csv)
        #expect(second.qrCodesWritten == 1)
        #expect(second.existing == 3)
        // The same code gives the same image.
        #expect(try Data(contentsOf: URL(fileURLWithPath: deleted)) == original)
        #expect(ProvisionWorkspace.permissions(of: deleted) == 0o600)
    }

    @Test func dryRunWritesNothing() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run(Self.csv, dryRun: true)
        #expect(report.dryRun)
        #expect((report.rows, report.created, report.existing, report.failed) == (3, 3, 0, 0))
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
        #expect(left == ["families.csv"])
    }

    @Test func dryRunAgainstAnExistingStoreReportsExistingAndChangesNothing() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let storeBefore = try Data(contentsOf: URL(fileURLWithPath: workspace.storePath))
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: workspace.manifestPath))

        let more = Self.csv + "E4,Delta,Dee,\n"
        let report = try workspace.run(more, dryRun: true)
        #expect((report.rows, report.created, report.existing, report.failed) == (4, 1, 3, 0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.storePath)) == storeBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.manifestPath)) == manifestBefore)
        #expect(try workspace.count("families") == 3)
    }
}
