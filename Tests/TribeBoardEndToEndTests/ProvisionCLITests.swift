import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `tribeboard provision` run as an operator runs it: the real binary, real files, real exit codes.
@Suite struct ProvisionCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    let sampleCSV = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Templates/families.csv").standardized.path

    @Test func sampleFileProvisionsEveryRowWithScannableQRCodes() throws {
        let directory = try TemporaryDirectory("cli-sample")
        let result = try ProcessRunner.run(tribeboard, ["provision", sampleCSV, "--store", "store.sqlite", "--out", "out"],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        let dataRows = try String(contentsOfFile: sampleCSV, encoding: .utf8).split(separator: "\n").count - 1
        #expect(manifest.count == dataRows)
        #expect(manifest.allSatisfy { $0.status == "created" })
        #expect(Set(manifest.map(\.code)).count == manifest.count)

        let decoded = try QRReader.decode(manifest.map { directory.file("out/\($0.qrFile)") })
        #expect(decoded == manifest.map(\.code))

        // The preassigned code of the sample is kept, not replaced.
        #expect(manifest.first { $0.externalId == "TB-0036" }?.code == "HJK4MN")
        #expect(result.stdout.contains("Waiting for resync"))
    }

    @Test func generatedCodesAvoidLookAlikesAndHaveTheRequestedLength() throws {
        let directory = try TemporaryDirectory("cli-length")
        try directory.write("in.csv", CSVFixtures.families(count: 200))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--code-length", "8"],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let codes = try ManifestFile.read(directory.file("out/manifest.csv")).map(\.code)
        #expect(codes.count == 200)
        #expect(codes.allSatisfy { $0.count == 8 && $0.range(of: "^[A-HJ-NP-Z2-9]{8}$", options: .regularExpression) != nil })
    }

    /// Scale 8 writes whole bytes per module; other scales take the bit-by-bit path.
    @Test(arguments: ["3", "8", "13"])
    func everyQRScaleScans(scale: String) throws {
        let directory = try TemporaryDirectory("cli-scale")
        try directory.write("in.csv", CSVFixtures.families(count: 4))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--qr-scale", scale],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(try QRReader.decode(manifest.map { directory.file("out/\($0.qrFile)") }) == manifest.map(\.code))
    }

    @Test func outputIsOwnerOnly() throws {
        let directory = try TemporaryDirectory("cli-perms")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try permissions(directory.file("out")) == 0o700)
        #expect(try permissions(directory.file("out/qr")) == 0o700)
        #expect(try permissions(directory.file("out/manifest.csv")) == 0o600)
        let pngs = try FileManager.default.contentsOfDirectory(atPath: directory.file("out/qr"))
        #expect(pngs.count == 3)
        for png in pngs { #expect(try permissions(directory.file("out/qr/\(png)")) == 0o600) }
    }

    @Test func rerunReportsExistingAndRestoresAMissingPNG() throws {
        let directory = try TemporaryDirectory("cli-rerun")
        try directory.write("in.csv", CSVFixtures.families(count: 10))
        let arguments = ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"]
        let first = try ProcessRunner.run(tribeboard, arguments, in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try ManifestFile.read(directory.file("out/manifest.csv"))
        try FileManager.default.removeItem(atPath: directory.file("out/\(before[4].qrFile)"))

        let second = try ProcessRunner.run(tribeboard, arguments, in: directory.path)
        #expect(second.status == 0, "\(second.stderr)")
        let summary = try second.report(ProvisionReportMirror.self)
        #expect(summary.created == 0)
        #expect(summary.existing == 10)
        #expect(summary.qrCodesWritten == 1)
        let after = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(after.map(\.code) == before.map(\.code))
        #expect(after.allSatisfy { $0.status == "existing" })
        #expect(try QRReader.decode([directory.file("out/\(before[4].qrFile)")]) == [before[4].code])
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 10)
    }

    @Test func badRowsFailAloneWithLineAndColumnAndExitOne() throws {
        let directory = try TemporaryDirectory("cli-badrows")
        try directory.write("in.csv", """
            external_id,family_name,code
            A,Good Family,
            B,X,
            C,Another Family,abc
            A,Repeat Of A,
            D,"Quoted, Family",

            """)
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(result.status == 1)
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(manifest.map(\.status) == ["created", "failed", "failed", "failed", "created"])
        #expect(manifest[1].line == 3 && manifest[1].error.contains("family_name"))
        #expect(manifest[2].error.contains("code"))
        #expect(manifest[3].error.contains("line 2"))
        #expect(result.stderr.contains("line=3"))
    }

    /// The status, and with --json the error document's kind (nil: refused by the parser, no document).
    @Test(arguments: [
        (["provision", "missing.csv"], Int32(66), "csv.cannotOpen"),
        (["provision", "."], Int32(66), "csv.cannotOpen"),
        (["provision", "nofamily.csv"], Int32(65), "csv.missingColumn"),
        (["provision", "unterminated.csv"], Int32(65), "csv.unterminatedQuote"),
        (["provision", "ok.csv", "--code-length", "5"], Int32(64), nil),
        (["provision", "ok.csv", "--store", "no/such/folder/s.sqlite"], Int32(74), "store.cannotOpen"),
        (["provision", "ok.csv", "--store", "notastore.sqlite"], Int32(74), "store.notAStore"),
        (["provision", "ok.csv", "--out", "afile"], Int32(74), "file.failed"),
        (["frobnicate"], Int32(64), nil),
    ] as [([String], Int32, String?)])
    func exitStatusNamesTheProblem(arguments: [String], expected: Int32, kind: String?) throws {
        let directory = try TemporaryDirectory("cli-exit")
        try directory.write("ok.csv", CSVFixtures.families(count: 2))
        try directory.write("nofamily.csv", "name,external_id\nX,1\n")
        try directory.write("unterminated.csv", "family_name\n\"Open Quote\n")
        try directory.write("notastore.sqlite", String(repeating: "not sqlite ", count: 200))
        try directory.write("afile", "x")
        let result = try ProcessRunner.run(tribeboard, arguments + (kind == nil ? [] : ["--json"]), in: directory.path)
        #expect(result.status == expected, "stderr: \(result.stderr)")
        #expect(!result.stderr.isEmpty)
        #expect(!result.stderr.contains("Fatal error"))
        if let kind { #expect(try ErrorDocument(result).kind == kind) }
    }

    @Test func dryRunWritesNothing() throws {
        let directory = try TemporaryDirectory("cli-dry")
        try directory.write("in.csv", CSVFixtures.families(count: 5) + "X6,!,,\n")
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--dry-run", "--json"],
                                           in: directory.path)
        #expect(result.status == 1)
        let summary = try result.report(ProvisionReportMirror.self)
        #expect(summary.created == 5)
        #expect(summary.failed == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")))
    }

    @Test func quietPrintsNothingOnSuccessAndTheStandaloneExecutableWorks() throws {
        let directory = try TemporaryDirectory("cli-quiet")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard-provision"),
                                           ["in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 3)
    }

    @Test func logsNeverShowAFullCode() throws {
        let directory = try TemporaryDirectory("cli-mask")
        try directory.write("in.csv", "family_name,code\nKept Code,QWERTY\nKept Again,QWERTY\n")
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-v"], in: directory.path)
        #expect(result.status == 1)
        #expect(!result.stderr.contains("QWERTY"))
    }

    private func permissions(_ path: String) throws -> Int { FileMode.of(path) ?? -1 }
}
