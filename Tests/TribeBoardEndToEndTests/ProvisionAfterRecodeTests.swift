import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A CSV that gave a family its code, run again after `recode` changed that code: the row is the
/// same family, re-coded since, and stays `existing` with the code the store holds now.
@Suite struct ProvisionAfterRecodeTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path)
    }

    @Test func aRecodedRowStaysExistingWithTheStoresCodeOnEveryRerun() async throws {
        let directory = try TemporaryDirectory("provision-after-recode")
        try directory.write("in.csv", "external_id,family_name,code\nR1,Family Alpha,ALPH23\nR2,Family Beta,BETA23\n")
        let first = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory)
        try #require(first.status == 0, "\(first.stderr)")
        let recode = try await run(["recode", "ALPH23", "--apply", "--out", "out", "--manifest", "out/manifest.csv",
                                    "--store", "s.sqlite", "--json"], in: directory)
        try #require(recode.status == 0, "\(recode.stderr)")
        let newCode = try #require(try StoreInspector(path: directory.file("s.sqlite"))
            .rows("SELECT code FROM families WHERE import_key = 'ext:R1'").first?["code"])
        #expect(newCode != "ALPH23")

        for _ in 0..<2 {
            let again = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory)
            #expect(again.status == 0, "\(again.stderr)")
            let report = try again.report(ProvisionReportMirror.self)
            #expect(report.failed == 0)
            #expect(report.existing == 2)
            let line = try #require(try ManifestFile.read(directory.file("out/manifest.csv")).first { $0.externalId == "R1" })
            #expect(line.status == "existing")
            #expect(line.code == newCode)
        }
        // A code the family never held is still refused: the row asks for another family's code.
        try directory.write("in.csv", "external_id,family_name,code\nR1,Family Alpha,ZZZZ23\n")
        let other = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory)
        #expect(other.status != 0)
        #expect(try other.report(ProvisionReportMirror.self).failed == 1)
    }
}
