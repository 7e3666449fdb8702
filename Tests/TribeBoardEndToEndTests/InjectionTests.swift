import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardTestSupport

/// Text from outside that a spreadsheet would run as a formula, or a terminal as a command
/// sequence, is neutralized in every CSV the toolkit writes and every text report it prints.
@Suite struct InjectionTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// The raw cells of a CSV file as a spreadsheet would split them (RFC 4180), without the
    /// toolkit's reader: first field of each record after the header is enough here.
    func rawCells(_ path: String, column: Int) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return column < cells.count ? String(cells[column]) : ""
        }
    }

    @Test func formulaLikeValuesAreNeutralizedInTheManifest() throws {
        let directory = try TemporaryDirectory("injection-manifest")
        // As Excel saves "CSV UTF-8": a BOM, CRLF line ends.
        let rows = ["external_id,family_name", "=1+2,Ames", "+33 612,Brook", "-7,Cole", "@SUM(A1),Dunn", "plain,Evans"]
        _ = try directory.write("in.csv", rows.joined(separator: "\r\n") + "\r\n", bom: true)
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rawCells(directory.file("out/manifest.csv"), column: 1) == ["'=1+2", "'+33 612", "'-7", "'@SUM(A1)", "plain"])
        // The store keeps the values as given: only the spreadsheet-bound file is changed.
        let ids = try StoreInspector(path: directory.file("s.sqlite")).strings("SELECT import_key FROM families ORDER BY source_line")
        #expect(ids == ["ext:=1+2", "ext:+33 612", "ext:-7", "ext:@SUM(A1)", "ext:plain"])
    }

    @Test func escapeSequencesFromCloudKitDoNotReachTheTerminal() throws {
        let directory = try TemporaryDirectory("injection-terminal")
        _ = try directory.write("in.csv", CSVFixtures.families(count: 1))
        try #require(try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path).status == 0)
        var snapshot = SnapshotFixture()
        let evil = "Evil\u{1B}]0;owned\u{07}\u{1B}[2J Family\u{202E}"
        try snapshot.append(SnapshotFixture.family(code: "ABCDEF", name: evil))
        try snapshot.append(SnapshotFixture.family(code: "ABCDEF", name: "Twin"))
        try snapshot.write(to: directory.file("remote.jsonl"))
        let result = try ProcessRunner.run(tribeboard, ["audit", "--store", "s.sqlite", "--remote-snapshot", "remote.jsonl", "--all"], in: directory.path)
        #expect(result.status == 1, "a duplicate code in CloudKit: \(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(result.stdout.contains("Evil\\u{1b}]0;owned\\u{7}\\u{1b}[2J Family\\u{202e}"), "\(result.stdout)")
        let csv = try ProcessRunner.run(tribeboard, ["audit", "--store", "s.sqlite", "--remote-snapshot", "remote.jsonl", "--csv", "--all"], in: directory.path)
        // Piped (not a terminal), the CSV keeps the exact value for a program to read.
        #expect(csv.stdout.contains(evil))
    }
}
