import Foundation
import Testing
import TribeBoardTestSupport

/// `audit --repair --apply` killed with SIGKILL at several moments, then run again: no QR code in
/// the output ever names a code the store does not hold for that family, and the rerun finishes.
@Suite(.serialized) struct RepairKillTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// A store whose families pair up on shared codes: `families / 2` need a new code each.
    func duplicatedStore(families: Int) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("repair-kill")
        try directory.write("in.csv", CSVFixtures.families(count: families))
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let edit = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), """
            DROP INDEX families_code;
            UPDATE families SET code = (SELECT g.code FROM families g WHERE g.source_line = families.source_line - 1)
            WHERE source_line % 2 = 1;
            """])
        try #require(edit.status == 0, "\(edit.stderr)")
        return directory
    }

    /// Files the repair wrote so far: staged and in place.
    func written(_ out: String, inPlaceOnly: Bool = false) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        return names.filter { (!inPlaceOnly && $0.hasPrefix(".repair-staging-")) || $0 == "qr" }
            .reduce(0) { $0 + ((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/\($1)"))?.count ?? 0) }
    }

    /// Every PNG in `OUT/qr` decodes to the code the store holds for the family it is named after;
    /// returns how many were checked (none is legitimate mid-run, not once the repair is done).
    @discardableResult
    func expectEveryQRCodeIsCommitted(_ directory: TemporaryDirectory) throws -> Int {
        let qr = directory.file("rep/qr")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: qr)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
        guard !files.isEmpty else { return 0 }
        let decoded = try QRReader.decode(files.map { "\(qr)/\($0)" })
        let codes = Dictionary(uniqueKeysWithValues: try StoreInspector(path: directory.file("s.sqlite"))
            .rows("SELECT id, code FROM families").map { ($0["id"] ?? "", $0["code"] ?? "") })
        for (file, code) in zip(files, decoded) {
            #expect(codes[String(file.dropLast(4))] == code, "\(file) holds a code the store does not hold for that family")
        }
        return files.count
    }

    @Test func killedRepairsNeverLeaveUncommittedCodesAndARerunConverges() throws {
        let families = 1_200
        let directory = try duplicatedStore(families: families)
        let arguments = ["audit", "--store", "s.sqlite", "--local-only", "--repair", "--apply", "--out", "rep", "-q"]
        var killedMidRun = 0
        // While PNGs are staged (a few, most, all), then once some are in place (after the commit).
        for (threshold, inPlaceOnly) in [(50, false), (300, false), (599, false), (1, true)] {
            let victim = try ProcessRunner.start(tribeboard, arguments, in: directory.path)
            let deadline = Date().addingTimeInterval(60)
            while victim.isRunning && Date() < deadline && written(directory.file("rep"), inPlaceOnly: inPlaceOnly) < threshold { usleep(500) }
            if victim.isRunning { killedMidRun += 1 }
            victim.killHard()
            _ = victim.wait()
            try expectEveryQRCodeIsCommitted(directory)
        }
        #expect(killedMidRun > 0, "a kill must land mid-run to test anything")

        let rerun = try ProcessRunner.run(tribeboard, arguments, in: directory.path)
        #expect([0, 1].contains(rerun.status), "\(rerun.stderr)")
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.count("SELECT COUNT(*) FROM (SELECT code FROM families GROUP BY code HAVING COUNT(*) > 1)") == 0)
        let repaired = try store.strings("SELECT DISTINCT family_id FROM code_repairs ORDER BY family_id")
        #expect(repaired.count == families / 2)
        let inPlace = try FileManager.default.contentsOfDirectory(atPath: directory.file("rep/qr")).filter { $0.hasSuffix(".png") }
        #expect(Set(inPlace.map { String($0.dropLast(4)) }) == Set(repaired), "every repaired family has its QR code")
        #expect(try expectEveryQRCodeIsCommitted(directory) == families / 2, "every repaired family's QR code was read back")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.file("rep")).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        let again = try ProcessRunner.run(tribeboard, ["audit", "--store", "s.sqlite", "--local-only"], in: directory.path)
        #expect(again.status == 0, "\(again.stdout)")
    }
}
