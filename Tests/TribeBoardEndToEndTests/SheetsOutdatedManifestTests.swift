import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A card printed from a manifest older than an audit repair would carry a code that now belongs
/// to another family in CloudKit. Driven as an operator does it (provision, resync,
/// the repair, resync, then sheets from the old manifest) and read back from the PDF: the text
/// with pdftotext, the QR code with zbarimg.
@Suite struct SheetsOutdatedManifestTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    @Test func aManifestOlderThanARepairPrintsTheStoresCodeOrIsRefused() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("sheets-outdated")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let oldManifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        let synced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        try #require(synced.status == 0, "\(synced.stderr)")
        // A family made in the app long ago holds the code the toolkit gave family 2: the repair
        // gives family 2 a new code, and its old one stays with the app's family.
        let recoded = oldManifest[1]
        await fixture.emulator.seed([SnapshotFixture.family(code: recoded.code, name: "Older Family",
                                                            createdAt: Date(timeIntervalSince1970: 1_600_000_000))], container: container)
        let repaired = try await run(["audit", "--store", "s.sqlite", "--repair", "--apply", "--out", "fix", "--json"] + fixture.remoteArguments,
                                     in: directory)
        #expect(repaired.status == 1, "the audit reports the duplicate it repaired: \(repaired.stderr)")
        let uploaded = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        #expect(uploaded.status == 0, "\(uploaded.stderr)")
        let current = try #require(try StoreInspector(path: directory.file("s.sqlite"))
            .rows("SELECT code FROM families WHERE id = '\(recoded.familyId)'").first?["code"])
        try #require(current != recoded.code, "the repair gave the family a new code")
        let remote = await fixture.emulator.records(container: container)
        #expect(remote.first { $0.recordName == recoded.familyId }?.string("code") == current)

        // The store named: its code is printed, in the text and in the QR code, and the manifest is named.
        let named = try await run(["sheets", "--manifest", "out/manifest.csv", "--store", "s.sqlite", "--out", "inv.pdf", "--json"], in: directory)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.contains("out/manifest.csv is older than the store") && named.stderr.contains(recoded.familyId), "\(named.stderr)")
        let check = try named.report(SheetsReportMirror.self).manifestCheck
        #expect(check?.outdated == 1 && check?.first.first?.familyId == recoded.familyId,
                "\(String(describing: check))")
        let pdf = directory.file("inv.pdf")
        let codes = try PDFReader.qrCodes(pdf)
        #expect(codes.contains(current) && !codes.contains(recoded.code), "\(codes)")
        #expect(codes.sorted() == [oldManifest[0].code, current, oldManifest[2].code].sorted())
        let text = try PDFReader.text(pdf)
        #expect(text.contains(current) && !text.contains(recoded.code))

        // Only the default store found (not named): the disagreement stops the run, nothing written.
        let copy = try TemporaryDirectory("sheets-outdated-default")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("s.sqlite") {
            try FileManager.default.copyItem(atPath: directory.file(name), toPath: copy.file(name.replacingOccurrences(of: "s.sqlite", with: "tribeboard.sqlite")))
        }
        try FileManager.default.copyItem(atPath: directory.file("out/manifest.csv"), toPath: copy.file("manifest.csv"))
        let refused = try await run(["sheets", "--manifest", "manifest.csv", "--out", "inv.pdf", "--json"], in: copy)
        #expect(refused.status == 65, "\(refused.stderr)")
        let error = try ErrorDocument(refused)
        #expect(error.kind == "sheets.outdatedManifest" && error.recordIds == [recoded.familyId] && error.path == "manifest.csv", "\(error)")
        #expect(refused.stderr.contains("given a new code by audit --repair or recode"))
        #expect(!FileManager.default.fileExists(atPath: copy.file("inv.pdf")))
    }
}
