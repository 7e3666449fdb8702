import Foundation
import Synchronization
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
import TribeBoardCSV
@testable import TribeBoardDomain
@testable import TribeBoardProvisioning

/// Problems a code review found, each pinned by the behaviour a user would have seen.
@Suite("Review regressions")
struct ReviewRegressionTests {
    /// A run stopped by a store error used to die with SIGILL: the CSV prefetcher's semaphore was
    /// released below its initial count.
    @Test func prefetcherStoppedEarlyIsReleasedQuietly() async throws {
        let folder = try TemporaryDirectory("prefetch")
        let path = try folder.write("f.csv", "family_name\nAlpha\n")
        for _ in 0..<20 {
            let produced = Atomic(0)
            let reader = try FamilyCSVReader(path: path)
            let prefetcher = BatchPrefetcher(reader: reader, depth: 2) { _ in
                let count = produced.add(1, ordering: .relaxed).newValue
                return count > 50 ? nil : []
            }
            #expect(try await prefetcher.next() != nil)
            // Let it read ahead and hold both permits (a crash here was the bug), then stop it.
            for _ in 0..<400 where produced.load(ordering: .relaxed) < 3 { usleep(500) }
            prefetcher.cancel()
            #expect(produced.load(ordering: .relaxed) < 50, "cancel stops the producer before the input ends")
        }
    }

    @Test func controlCharactersInExternalIdFailTheRow() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name\n\"A\u{0}B\",Good Name\n\"A\u{1B}[2J\",Other Name\nC,Third Name\n")
        let manifest = try workspace.manifest()
        #expect(manifest.map(\.status) == ["failed", "failed", "created"])
        #expect(manifest[0].error.contains("external_id"))
        #expect(try workspace.count("families") == 1)
    }

    @Test func aRerunAskingForAnotherCodeFailsAndKeepsTheOldOne() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name,code\ne2,Valid Name,ZZZ999\n")
        let report = try workspace.run("external_id,family_name,code\ne2,Valid Name,NEW111\n")
        #expect(report.failed == 1)
        let row = try #require(try workspace.manifest().first)
        #expect(row.status == "failed" && row.error.contains("never replaced"))
        #expect(try workspace.codesByName()["Valid Name"] == "ZZZ999")
        let dry = try workspace.run("external_id,family_name,code\ne2,Valid Name,NEW111\n", dryRun: true)
        #expect(dry.failed == 1)
    }

    /// The join kit's normalisation (docs/code-claims.md): ß is refused rather than spelt SS, and a
    /// Turkish keyboard's dotless ı folds to I, so the code typed there finds the same claim.
    @Test func nonASCIILettersThatUpperCaseToASCIIAreRefusedOrFoldedAsTheKitSays() throws {
        #expect(throws: FamilyCodeFormatError.invalidCharacter("ß")) { try FamilyCode(validating: "abcdeß") }
        #expect(try FamilyCode(validating: "abcdeı").value == "ABCDEI")
    }

    @Test func logLinesEscapeControlCharacters() throws {
        let folder = try TemporaryDirectory("escape")
        try folder.write("in.csv", "external_id,family_name\nE1,\"Bad\u{1B}]0;pwned\u{7}Name\"\n")
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"),
                                           ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: folder.path)
        #expect(result.status == 1)
        #expect(!result.stderr.contains("\u{1B}"))
    }
}
