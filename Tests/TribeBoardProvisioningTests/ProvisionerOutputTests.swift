import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardProvisioning

@Suite("Provisioner: manifest and QR files")
struct ProvisionerOutputTests {
    static let csv = """
        external_id,family_name,admin_display_name
        E1,Alpha,Ann
        E2,B,Bob
        E3,"Gamma, Sr.",Cy
        E1,Delta,Dee
        E5,Epsilon,
        E6,Zeta,
        E7,Eta,

        """

    @Test func manifestHasOneRowPerDataRowInInputOrder() throws {
        let workspace = try ProvisionWorkspace()
        // Small batches: results come back from several QR batches and must stay in input order.
        let report = try workspace.run(Self.csv, batchSize: 2)
        let rows = try workspace.manifest()
        #expect(rows.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
        #expect(rows.map(\.externalId) == ["E1", "E2", "E3", "E1", "E5", "E6", "E7"])
        #expect(rows.map(\.status) == ["created", "failed", "created", "failed", "created", "created", "created"])
        #expect(rows.map(\.familyName) == ["Alpha", "B", "Gamma, Sr.", "Delta", "Epsilon", "Zeta", "Eta"])
        #expect((report.rows, report.created, report.failed) == (7, 5, 2))
        #expect(report.manifest == workspace.manifestPath)

        let storeCodes = try workspace.codesByName()
        for row in rows where row.status == "created" {
            #expect(row.code == storeCodes[row.familyName])
            #expect(row.qrFile == "qr/\(row.familyId).png")
            #expect(FileManager.default.fileExists(atPath: workspace.qrPath(row)))
            #expect(row.error.isEmpty)
        }
        for row in rows where row.status == "failed" {
            #expect(row.code.isEmpty && row.qrFile.isEmpty && row.familyId.isEmpty)
            #expect(!row.error.isEmpty)
        }
        #expect(Set(rows.map(\.code).filter { !$0.isEmpty }).count == 5)
    }

    @Test func aQRImageIsWrittenForEveryCreatedFamily() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let created = try workspace.manifest().filter { $0.status == "created" }
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(workspace.outputPath)/qr")
        #expect(!created.isEmpty && files.sorted() == created.map { "\($0.familyId).png" }.sorted())
    }

    /// Read back by an independent decoder; without zbarimg the test is reported skipped, not passed.
    @Test(.enabled(if: QRReader.zbarimgPath != nil, "zbarimg is not installed (make deps: zbar-tools)"))
    func qrImagesHoldTheirFamilysCode() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let created = try workspace.manifest().filter { $0.status == "created" }
        try #require(!created.isEmpty)
        #expect(try QRReader.decode(created.map(workspace.qrPath)) == created.map(\.code))
    }

    @Test func outputIsOwnerOnly() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        #expect(ProvisionWorkspace.permissions(of: "\(workspace.outputPath)/qr") == 0o700)
        #expect(ProvisionWorkspace.permissions(of: workspace.manifestPath) == 0o600)
        let created = try workspace.manifest().filter { $0.status == "created" }
        try #require(!created.isEmpty)
        for row in created {
            #expect(ProvisionWorkspace.permissions(of: workspace.qrPath(row)) == 0o600, "\(row.qrFile)")
        }
    }

    @Test func existingOpenQRFolderIsTightened() throws {
        let workspace = try ProvisionWorkspace()
        let qr = "\(workspace.outputPath)/qr"
        try FileManager.default.createDirectory(atPath: qr, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        #expect(ProvisionWorkspace.permissions(of: qr) == 0o755)
        try workspace.run(Self.csv)
        #expect(ProvisionWorkspace.permissions(of: qr) == 0o700)
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let out = try FileManager.default.contentsOfDirectory(atPath: workspace.outputPath)
        let qr = try FileManager.default.contentsOfDirectory(atPath: "\(workspace.outputPath)/qr")
        #expect(out.sorted() == ["manifest.csv", "qr"])
        #expect(qr.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") })
    }

    @Test func codeLengthIsConfigurable() throws {
        let workspace = try ProvisionWorkspace()
        var request = ProvisionRequest(csvPath: try workspace.folder.write("f.csv", "family_name\nAlpha\nBeta\n"),
                                       storePath: workspace.storePath, outputDirectory: workspace.outputPath)
        request.codeLength = 8
        _ = try ProvisionWorkspace.waitFor { [request] () async throws(ProvisionError) in try await Provisioner(request: request, logger: TestLogger.quiet).run() }
        #expect(try workspace.manifest().map(\.code.count) == [8, 8])

        request.codeLength = 9
        do {
            _ = try ProvisionWorkspace.waitFor { [request] () async throws(ProvisionError) in try await Provisioner(request: request, logger: TestLogger.quiet).run() }
            Issue.record("code length 9 was accepted")
        } catch {
            guard case .configuration = error else { Issue.record("unexpected \(error)"); return }
        }
    }

    /// A hostile header of thousands of columns is a count and the first few names in --json, as
    /// in the warning: the report does not grow with the header.
    @Test func unknownColumnsAreACountAndTheFirstFew() throws {
        let workspace = try ProvisionWorkspace()
        let unknown = (1...5_000).map { "extra_\($0)_" + String(repeating: "x", count: $0 == 2 ? 500 : 3) }
        let report = try workspace.run("family_name," + unknown.joined(separator: ",") + "\nSmith\n")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["unknownColumnCount"] as? Int == 5_000)
        let listed = try #require(json["unknownColumns"] as? [String])
        #expect(listed.count == 5)
        #expect(listed.first == unknown[0])
        #expect(listed[1].count == 65 && listed[1].hasPrefix("extra_2_xxx") && listed[1].hasSuffix("…"), "cut at 64 characters")
        #expect(report.rows == 1)
    }
}

