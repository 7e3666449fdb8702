import Foundation
import Testing
import TribeBoardTestSupport

/// The seed's reliability cases at the process level: kill -9 mid-batch, and two runs at once.
@Suite(.serialized) struct CrashAndConcurrencyTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    @Test func killedRunThenRerunLeavesExactlyOneFamilyPerRow() throws {
        let rows = 6_000
        let directory = try TemporaryDirectory("crash")
        try directory.write("in.csv", CSVFixtures.families(count: rows))
        let arguments = ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"]

        let victim = try ProcessRunner.start(tribeboard, arguments, in: directory.path)
        // Kill once some families are committed but long before the run could finish.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let count = try? StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families"), count >= 300 { break }
            usleep(5_000)
        }
        victim.killHard()
        _ = victim.wait()
        let committed = try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families")
        #expect(committed > 0 && committed < rows, "the kill must land mid-run to test anything (got \(committed))")

        let rerun = try ProcessRunner.run(tribeboard, arguments, in: directory.path)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        try expectCompleteProvisioning(directory, rows: rows)
    }

    @Test func twoRunsOfTheSameFileAtOnceNeverDuplicate() throws {
        let rows = 2_000
        let directory = try TemporaryDirectory("concurrent-same")
        try directory.write("in.csv", CSVFixtures.families(count: rows))
        let arguments = ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"]
        let first = try ProcessRunner.start(tribeboard, arguments, in: directory.path)
        let second = try ProcessRunner.start(tribeboard, arguments, in: directory.path)
        let results = [first.wait(), second.wait()]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        try expectCompleteProvisioning(directory, rows: rows)
    }

    @Test func twoRunsOfDifferentFilesAtOnceKeepCodesUnique() throws {
        let directory = try TemporaryDirectory("concurrent-different")
        try directory.write("a.csv", CSVFixtures.families(count: 1_500, idPrefix: "A"))
        try directory.write("b.csv", CSVFixtures.families(count: 1_500, idPrefix: "B"))
        let first = try ProcessRunner.start(tribeboard, ["provision", "a.csv", "--store", "s.sqlite", "--out", "out-a"], in: directory.path)
        let second = try ProcessRunner.start(tribeboard, ["provision", "b.csv", "--store", "s.sqlite", "--out", "out-b"], in: directory.path)
        let results = [first.wait(), second.wait()]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families") == 3_000)
        #expect(try store.count("SELECT COUNT(DISTINCT code) FROM families") == 3_000)
    }

    /// Exactly one family per row, unique codes, one PNG per family that decodes to its code,
    /// every family with its admin membership, nothing half-made.
    private func expectCompleteProvisioning(_ directory: TemporaryDirectory, rows: Int) throws {
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM families") == rows)
        #expect(try store.count("SELECT COUNT(DISTINCT code) FROM families") == rows)
        #expect(try store.count("SELECT COUNT(DISTINCT import_key) FROM families") == rows)
        #expect(try store.count("SELECT COUNT(*) FROM families f WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.family_id = f.id AND m.role = 'parent_admin')") == 0)
        #expect(try store.count("SELECT COUNT(*) FROM families f WHERE NOT EXISTS (SELECT 1 FROM creation_log l WHERE l.family_id = f.id AND l.state = 'completed')") == 0)

        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(manifest.count == rows)
        #expect(manifest.allSatisfy { $0.status == "created" || $0.status == "existing" })
        let pngs = try FileManager.default.contentsOfDirectory(atPath: directory.file("out/qr"))
        #expect(pngs.filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.count == rows)
        #expect(pngs.filter { $0.hasPrefix(".tmp-") }.isEmpty)
        for row in manifest {
            #expect(FileManager.default.fileExists(atPath: directory.file("out/\(row.qrFile)")))
        }
        // Decoding all would take minutes; a spread sample through zbarimg proves they scan.
        let sample = stride(from: 0, to: manifest.count, by: max(manifest.count / 60, 1)).map { manifest[$0] }
        #expect(try QRReader.decode(sample.map { directory.file("out/\($0.qrFile)") }) == sample.map(\.code))
    }
}
