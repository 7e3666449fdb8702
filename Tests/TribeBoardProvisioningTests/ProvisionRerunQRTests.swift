import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
import TribeBoardQR
import TribeBoardDomain

/// A PNG handed to a family always encodes the family's current code, whatever changed it.
@Suite("Provision: QR codes on a re-run")
struct ProvisionRerunQRTests {
    func pngs(_ workspace: AuditWorkspace, _ families: [(id: String, name: String, code: String)]) -> [String] {
        families.map { "\(workspace.provision.outputPath)/\(QRCodeFiles.relativePath(for: FamilyID(rawValue: $0.id)))" }
    }

    @Test("a re-run leaves correct PNGs untouched and replaces a damaged one")
    func rerunKeepsCorrectFiles() throws {
        let workspace = try AuditWorkspace(families: 2)
        let families = try workspace.families()
        let paths = pngs(workspace, families)
        let inode = try FileManager.default.attributesOfItem(atPath: paths[0])[.systemFileNumber] as? Int
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: paths[1]))
        let report = try workspace.provision.run(CSVFixtures.families(count: 2))
        #expect(report.qrCodesWritten == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: paths[0])[.systemFileNumber] as? Int == inode)
        #expect(try QRReader.decode(paths) == families.map(\.code))
    }

    /// Something planted where a family's PNG goes is not a PNG: the re-run neither counts it as
    /// written nor follows it, and says so (the command ends 74 on `qrWriteFailures`).
    @Test("a re-run where qr/ID.png is a FIFO, a symbolic link or a folder fails that PNG, follows nothing",
          arguments: ["fifo", "symlink", "folder"])
    func plantedInsteadOfAPNG(kind: String) throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(CSVFixtures.families(count: 3))
        let rows = try workspace.manifest()
        let planted = workspace.qrPath(rows[1])
        try FileManager.default.removeItem(atPath: planted)
        // The link points at another family's valid PNG: following it would count a PNG of the wrong code.
        let victim = workspace.qrPath(rows[0])
        let victimBytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        switch kind {
        case "fifo": try #require(mkfifo(planted, 0o600) == 0)
        case "symlink": try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        default: try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
        }

        let report = try workspace.run(CSVFixtures.families(count: 3))
        #expect(report.qrCodesWritten == 0)
        #expect(report.qrWriteFailures == 1)
        #expect(report.failures.map(\.line) == [3], "\(report.failures)")
        #expect(report.failures.first?.error.contains("remove it") == true, "\(report.failures)")
        var status = stat()
        #expect(lstat(planted, &status) == 0 && status.st_mode & S_IFMT != S_IFREG, "left as it was, for the operator to remove")
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == victimBytes)
        #expect(try QRReader.decode([victim]) == [rows[0].code])
    }
}

