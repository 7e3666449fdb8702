import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A parent who fills in the school's form twice is warned about at provision
/// time, named with both rows and the command to look, whether the first registration is earlier
/// in the same file or already in the store.
@Suite struct ProvisionDuplicateTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// As a Google Forms response sheet downloads: a timestamp column, every field quoted, CRLF.
    static let formExport = [
        #""Timestamp","family_name","admin_display_name""#,
        #""2026/11/20 9:14:03 AM UTC+1","Lefèvre","Hélène Lefèvre""#,
        #""2026/11/20 9:20:41 AM UTC+1","Okafor","Chidi Okafor""#,
        #""2026/11/21 7:02:10 PM UTC+1","LEFEVRE ","helene   LEFEVRE""#,
        #""2026/11/21 8:45:00 PM UTC+1","Lefèvre","Paul Lefèvre""#,
    ].joined(separator: "\r\n") + "\r\n"

    func provision(_ arguments: [String], in directory: TemporaryDirectory) throws -> (ProcessRunner.Result, ProvisionReportMirror) {
        let result = try ProcessRunner.run(tribeboard, ["provision"] + arguments + ["--store", "s.sqlite", "--json"], in: directory.path)
        return (result, try result.report(ProvisionReportMirror.self))
    }

    func duplicates(_ report: ProvisionReportMirror) -> [ProvisionReportMirror.PossibleDuplicate] { report.possibleDuplicates }

    @Test func theSameParentTwiceInOneFormExportIsCreatedWithAWarningNamingBothRows() throws {
        let directory = try TemporaryDirectory("dup-form")
        try directory.write("form.csv", Self.formExport)
        let (result, report) = try provision(["form.csv", "--out", "out"], in: directory)
        #expect(result.status == 0, "a warning, not a failure: \(result.stderr)")
        #expect(report.created == 4 && report.skipped == 0)
        #expect(report.possibleDuplicateCount == 1, "another parent of the same family name is no duplicate")
        let duplicate = try #require(duplicates(report).first)
        #expect(duplicate.line == 4 && duplicate.skipped == false)
        let match = duplicate.matches
        #expect(match.source == "file" && match.line == 2 && match.familyName == "Lefèvre")
        #expect(result.stderr.contains("line 4") && result.stderr.contains("tribeboard doctor family"), "\(result.stderr)")

        // The command the warning names works as given and lists the two registrations.
        let look = duplicate.look
        #expect(look.hasPrefix("tribeboard doctor family "))
        let shell = try ProcessRunner.run("/bin/sh", ["-c", "'\(tribeboard)'" + look.dropFirst("tribeboard".count) + " --json"], in: directory.path)
        let doctor = try shell.report(FamilyReportMirror.self)
        let admins = doctor.nameMatches.compactMap(\.admin)
        #expect(admins.count == 3 && admins.contains("Hélène Lefèvre") && admins.contains("Paul Lefèvre"), "\(doctor)")

        // Running the same export again, even asking to skip duplicates, finds its own families:
        // a row is never a duplicate of the family it made.
        let (again, rerun) = try provision(["form.csv", "--out", "out", "--skip-possible-duplicates"], in: directory)
        #expect(again.status == 0 && rerun.existing == 4 && rerun.skipped == 0, "\(again.stderr)")
        #expect(rerun.possibleDuplicateCount == 0 && !again.stderr.contains("possible duplicate"), "\(again.stderr)")
    }

    @Test func aSecondRunAgainstTheStoreSkipsTheRegistrationOnRequest() throws {
        let directory = try TemporaryDirectory("dup-store")
        try directory.write("first.csv", "external_id,family_name,admin_display_name,admin_apple_user_id_hash\nA-1,Nguyễn,Minh Anh,\nA-2,Kowalski,Ewa,\(String(repeating: "ab", count: 32))\n")
        let (first, firstReport) = try provision(["first.csv", "--out", "out1"], in: directory)
        try #require(first.status == 0 && firstReport.created == 2, "\(first.stderr)")
        let storeFamily = try #require(try ManifestFile.read(directory.file("out1/manifest.csv")).first { $0.externalId == "A-1" }).familyId

        // Typed again later: no accents, other case; and the signed-in admin by hash under another name.
        try directory.write("second.csv", "external_id,family_name,admin_display_name,admin_apple_user_id_hash\nB-1,NGUYEN,minh anh,\nB-2,Kowalski,Ewa K.,\(String(repeating: "AB", count: 32).lowercased())\nB-3,Tanaka,Yui,\n")
        let (dry, dryReport) = try provision(["second.csv", "--dry-run"], in: directory)
        #expect(dry.status == 0 && dryReport.possibleDuplicateCount == 2, "a dry run warns too: \(dry.stderr)")

        let (second, report) = try provision(["second.csv", "--out", "out2", "--skip-possible-duplicates"], in: directory)
        #expect(second.status == 1, "rows left out are part of the job not done: \(second.stderr)")
        #expect(report.created == 1 && report.skipped == 2 && report.failed == 0)
        let byLine = Dictionary(uniqueKeysWithValues: duplicates(report).map { ($0.line, $0) })
        let nguyen = try #require(byLine[2]?.matches)
        #expect(nguyen.source == "store" && nguyen.familyId == storeFamily && nguyen.externalId == "A-1")
        #expect(byLine[3]?.matches.externalId == "A-2", "the same admin hash is the same parent")
        #expect(byLine.values.allSatisfy { $0.skipped == true })

        let manifest = try ManifestFile.read(directory.file("out2/manifest.csv"))
        #expect(manifest.filter { $0.status == "skipped" }.map(\.externalId) == ["B-1", "B-2"])
        #expect(manifest.filter { $0.status == "skipped" }.allSatisfy { $0.code.isEmpty && $0.qrFile.isEmpty && $0.error.contains("A-") })
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.strings("SELECT import_key FROM families ORDER BY import_key") == ["ext:A-1", "ext:A-2", "ext:B-3"])
    }

    /// On a terminal, as an office runs it: the warning once, naming both lines, then the summary
    /// counts it; skipping says so and ends with 1.
    @Test func aTerminalShowsTheWarningOnceAndTheSummaryCountsIt() throws {
        let directory = try TemporaryDirectory("dup-terminal")
        try directory.write("form.csv", Self.formExport)
        let command = [tribeboard, "provision", "form.csv", "--store", "s.sqlite", "--out", "out"].joined(separator: " ")
        let shown = try ProcessRunner.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory.path)
        #expect(shown.status == 0, "\(shown.stdout)")
        let warnings = shown.stdout.components(separatedBy: "possible duplicate (created anyway)").count - 1
        #expect(warnings == 1 && shown.stdout.contains("line 4") && shown.stdout.contains("line 2 of this file"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Possible duplicates: 1"), "the summary counts it: \(shown.stdout)")

        try directory.write("again.csv", "family_name,admin_display_name\nOKAFOR,chidi okafor\n")
        let skipping = try ProcessRunner.run("/usr/bin/script", ["-q", "-e", "-c", command.replacingOccurrences(of: "form.csv", with: "again.csv")
                                                                  + " --skip-possible-duplicates", "/dev/null"], in: directory.path)
        #expect(skipping.status == 1, "\(skipping.stdout)")
        #expect(skipping.stdout.contains("skipped   1") && skipping.stdout.contains("skipped a possible duplicate"), "\(skipping.stdout)")
    }
}
