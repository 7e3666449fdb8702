import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// `tribeboard recode` as an operator runs it, after the audit and `doctor family` agreed on who
/// keeps a shared code.
@Suite struct RecodeCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let container = CloudKitConfiguration.defaultContainer

    typealias Report = RecodeReportMirror

    struct ErrorReport: Decodable {
        struct Detail: Decodable { let kind: String }
        let error: Detail
    }

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    func families(_ directory: TemporaryDirectory) throws -> [(id: String, code: String)] {
        try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT id, code FROM families ORDER BY source_line")
            .map { ($0["id"] ?? "", $0["code"] ?? "") }
    }

    @Test func theNewerHolderOfASharedCodeIsRecodedClaimedPrintedAndUploaded() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("recode")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let synced = try await run(["resync", "--store", "s.sqlite"] + fixture.remoteArguments, in: directory)
        try #require(synced.status == 0, "\(synced.stderr)")
        let before = try families(directory)
        let target = before[1]
        // A family created in the app years ago holds the code the toolkit gave family 2.
        let older = SnapshotFixture.family(code: target.code, name: "Older Family", createdAt: Date(timeIntervalSince1970: 1_600_000_000))
        await fixture.emulator.seed([older], container: container)

        // One rule in both places: the older app family keeps the code, this one must change.
        let doctor = try await run(["doctor", "family", target.id, "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        struct FamilyReport: Decodable {
            struct Check: Decodable { let id: String; let action: String? }
            let findings: [Check]
        }
        let doctorAction = try #require(try JSONDecoder().decode(FamilyReport.self, from: Data(doctor.stdout.utf8)).findings
            .first { $0.id == "family.remote" }?.action, "\(doctor.stdout)")
        #expect(doctorAction.contains("\(older.recordName) (oldest) keeps the code"), "\(doctorAction)")
        #expect(doctorAction.contains("tribeboard recode \(target.id)"), "\(doctorAction)")
        let audit = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(audit.stdout.contains("\(older.recordName) (oldest) keeps the code"), "\(audit.stdout)")

        let dry = try await run(["recode", target.id, "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try JSONDecoder().decode(Report.self, from: Data(dry.stdout.utf8)).applied == false)
        #expect(try families(directory)[1].code == target.code, "a dry run changes nothing")

        let applied = try await run(["recode", target.id, "--store", "s.sqlite", "--apply", "--out", "out", "--json", "--show-codes"]
                                    + fixture.remoteArguments, in: directory)
        #expect(applied.status == 0, "\(applied.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(applied.stdout.utf8))
        let newCode = try families(directory)[1].code
        #expect(report.applied && report.claimed)
        #expect(newCode != target.code && report.newCode == newCode)
        #expect(report.reprintCommand == "tribeboard sheets --store s.sqlite --family-id \(target.id) --out \(target.id).pdf")
        #expect(report.warning.contains("stops working"))
        let png = directory.file("out/qr/\(target.id).png")
        #expect(try QRReader.decode([png]) == [newCode])
        #expect(FileMode.of(png) == 0o600)
        // provision's manifest: the family's own row now holds the new code, the others are untouched.
        let manifest = try String(contentsOfFile: directory.file("out/manifest.csv"), encoding: .utf8)
        let rows = manifest.split(separator: "\n").filter { $0.contains(target.id) }
        #expect(rows.count == 1 && rows.first?.contains(",\(newCode),qr/\(target.id).png,recoded,") == true, "\(manifest)")
        #expect(manifest.contains(before[0].code) && manifest.contains(before[2].code))
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count(
            "SELECT COUNT(*) FROM code_repairs WHERE family_id = '\(target.id)' AND reason = 'recode' AND new_code = '\(newCode)'") == 1)

        // The upload as printed: the store and the remote are in it, the shell holds neither.
        #expect(report.uploadCommand.hasPrefix("tribeboard resync --store s.sqlite --container"), "\(report.uploadCommand)")
        let uploaded = try await AsPrinted.run(report.uploadCommand, in: directory.path)
        #expect(uploaded.status == 0, "\(uploaded.stderr)")
        #expect(await fixture.emulator.records(container: container).first { $0.recordName == target.id }?.string("code") == newCode)
        let claims = await fixture.emulator.claims(container: container)
        #expect(claims[try CodeClaim.recordName(forCode: newCode)] == target.id)
        #expect(claims[try CodeClaim.recordName(forCode: target.code)] != target.id, "the old code's claim is released")
        let clean = try await run(["audit", "--store", "s.sqlite", "--json"] + fixture.remoteArguments, in: directory)
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
    }

    /// A manifest saved by a spreadsheet in most of Europe: BOM, `;`, CRLF. Only the family's row changes.
    @Test func aSpreadsheetManifestKeepsItsDialect() async throws {
        let directory = try TemporaryDirectory("recode-dialect")
        try directory.write("in.csv", CSVFixtures.families(count: 2))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let family = try families(directory)
        let second = try #require(try StoreInspector(path: directory.file("s.sqlite"))
            .rows("SELECT name, substr(import_key, 5) AS external FROM families WHERE id = '\(family[1].id)'").first)
        let (name, external) = (second["name"] ?? "", second["external"] ?? "")
        let lines = ["line;external_id;family_id;family_name;code;qr_file;status;error",
                     "2;A-1;\(family[0].id);\"Dupont; Martin\";\(family[0].code);qr/\(family[0].id).png;created;",
                     "3;\(external);\(family[1].id);\(name);\(family[1].code);qr/\(family[1].id).png;created;"]
        let original = [0xEF, 0xBB, 0xBF] + Array(lines.joined(separator: "\r\n").utf8) + [0x0D, 0x0A]
        try Data(original).write(to: URL(fileURLWithPath: directory.file("office.csv")))

        let result = try await run(["recode", family[1].id, "--store", "s.sqlite", "--apply", "--out", "fix", "--manifest", "office.csv", "--local-only"],
                                   in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let newCode = try families(directory)[1].code
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("office.csv"))))
        let expectedRow = "3;\(external);\(family[1].id);\(name);\(newCode);\(directory.file("fix/qr/\(family[1].id).png"));recoded;"
        let expected = [0xEF, 0xBB, 0xBF] + Array((lines.prefix(2) + [expectedRow]).joined(separator: "\r\n").utf8) + [0x0D, 0x0A]
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        #expect(FileMode.of(directory.file("office.csv")) == 0o600)
    }

    @Test func anUnknownFamilyIsAUsageErrorThatDoesNotEchoTheQuery() async throws {
        let directory = try TemporaryDirectory("recode-unknown")
        try directory.write("in.csv", CSVFixtures.families(count: 1))
        let provisioned = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let result = try await run(["recode", "ZZZ999", "--store", "s.sqlite", "--json"], in: directory)
        #expect(result.status == 64)
        #expect(try JSONDecoder().decode(ErrorReport.self, from: Data(result.stdout.utf8)).error.kind == "recode.noSuchFamily", "\(result.stdout)")
        #expect(!result.stderr.contains("ZZZ999"))
        let usage = try await run(["recode", "ZZZ999", "--store", "s.sqlite", "--apply"], in: directory)
        #expect(usage.status == 64 && usage.stderr.contains("--out"))
        // A mistyped store path is an error, and no empty store is left behind.
        let typo = try await run(["recode", "ZZZ999", "--store", "typo.sqlite", "--apply", "--out", "fix"], in: directory)
        #expect(typo.status == 74, "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("typo.sqlite")))
    }
}
