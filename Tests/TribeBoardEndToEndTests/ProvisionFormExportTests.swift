import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A form's export provisions as it is, or with `--map` for the
/// headers only a person can match; the manifest comes back in the dialect the office's
/// spreadsheet saved the input in (French Excel: `;` and a UTF-8 byte order mark).
@Suite struct ProvisionFormExportTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static let bom = "\u{FEFF}"

    func provision(_ arguments: [String], in directory: TemporaryDirectory) throws -> (ProcessRunner.Result, ProvisionReportMirror) {
        let result = try ProcessRunner.run(tribeboard, ["provision"] + arguments + ["--store", "s.sqlite", "--json"], in: directory.path)
        return (result, try result.report(ProvisionReportMirror.self))
    }

    /// The manifest read back by Python's csv module (not the toolkit's reader): its rows, and
    /// whether the file starts with a UTF-8 byte order mark.
    func readBack(_ path: String, delimiter: String) throws -> (rows: [[String]], byteOrderMark: Bool) {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
                print(json.dumps(list(csv.reader(f, delimiter=sys.argv[2], strict=True))))
            """
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, path, delimiter])
        try #require(result.status == 0, "python3 csv: \(result.stderr)")
        let rows = try JSONDecoder().decode([[String]].self, from: Data(result.stdout.utf8))
        return (rows, bytes.starts(with: [0xEF, 0xBB, 0xBF]))
    }

    @Test func aGoogleFormsExportProvisionsWithItsOwnHeaders() throws {
        let directory = try TemporaryDirectory("form-headers")
        try directory.write("form.csv", [
            #""Timestamp","Family name","Admin display name","Class""#,
            #""2026/11/20 9:14:03 AM UTC+1","Lefèvre","Hélène Lefèvre","CM1""#,
            #""2026/11/20 9:20:41 AM UTC+1","Okafor","Chidi Okafor","CE2""#,
        ].joined(separator: "\r\n") + "\r\n")
        let (result, report) = try provision(["form.csv", "--out", "out"], in: directory)
        #expect(result.status == 0 && report.created == 2, "\(result.stderr)")
        let columns = report.columns.map { [$0.header, $0.field, $0.matched] }
        #expect(columns == [["Family name", "family_name", "tolerant"], ["Admin display name", "admin_display_name", "tolerant"]])
        #expect(report.unknownColumns == ["Timestamp", "Class"])
        let store = try StoreInspector(path: directory.file("s.sqlite"))
        #expect(try store.strings("SELECT u.display_name FROM user_profiles u ORDER BY 1") == ["Chidi Okafor", "Hélène Lefèvre"])
    }

    @Test func aFrenchExcelFileIsMappedAndItsManifestComesBackInItsDialect() throws {
        let directory = try TemporaryDirectory("form-excel-eu")
        // Excel (French locale), "CSV UTF-8": BOM, semicolons, CRLF; a name with a comma, and one
        // with a semicolon, which fails: its error names the `;`, a field the manifest must quote.
        try directory.write("inscriptions.csv", Self.bom + "Nom de famille;Parent;Réf.\r\nDubois;Marc Dubois;R1\r\nMartin, Petit;Lina Martin;R2\r\n\"Bad; Name\";Max;R3\r\n")
        let arguments = ["inscriptions.csv", "--map", "Nom de famille=family_name", "--map", "Parent=admin_display_name",
                         "--map", "réf=external_id"]
        let (result, report) = try provision(arguments + ["--out", "out", "--sheets", "cards.pdf"], in: directory)
        #expect(result.status == 1 && report.created == 2 && report.failed == 1, "\(result.stderr)")
        #expect(report.columns.map(\.matched) == ["map", "map", "map"])
        let format = report.manifestFormat
        #expect(format?.delimiter == "semicolon" && format?.byteOrderMark == true, "\(report)")

        let manifest = try readBack(directory.file("out/manifest.csv"), delimiter: ";")
        #expect(manifest.byteOrderMark)
        #expect(manifest.rows.first == ["line", "external_id", "family_id", "family_name", "code", "qr_file", "status", "error", "claim"])
        #expect(manifest.rows.dropFirst().map { [$0[1], $0[3], $0[6]] }
                == [["R1", "Dubois", "created"], ["R2", "Martin, Petit", "created"], ["R3", "Bad; Name", "failed"]])
        let error = try #require(manifest.rows.last.flatMap { $0.count > 7 ? $0[7] : nil })
        #expect(error.contains("\";\""), "the error names the semicolon, whole: \(error)")
        // provision --sheets read that manifest back: one card per family.
        #expect(report.sheets?.invitations == 2, "\(report)")

        // Asked for plain commas, the same run writes RFC 4180 without a byte order mark.
        let (again, rerun) = try provision(arguments + ["--out", "out2", "--manifest-format", "comma"], in: directory)
        #expect(again.status == 1 && rerun.existing == 2, "\(again.stderr)")
        let plain = try readBack(directory.file("out2/manifest.csv"), delimiter: ",")
        #expect(!plain.byteOrderMark && plain.rows.count == 4 && plain.rows[2][3] == "Martin, Petit")
    }

    @Test func aCommaFileCanAskForExcelInEurope() throws {
        let directory = try TemporaryDirectory("form-ask-eu")
        try directory.write("in.csv", "family_name,admin_display_name\nRossi,Giulia Rossi\n")
        let (result, _) = try provision(["in.csv", "--out", "out", "--manifest-format", "excel-eu"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try readBack(directory.file("out/manifest.csv"), delimiter: ";")
        #expect(manifest.byteOrderMark && manifest.rows.count == 2 && manifest.rows[1][3] == "Rossi")
    }

    @Test(arguments: [
        (["--map", "Nom=family_name"], "Nom"),                       // not in the file
        (["--map", "Family name=family_nam"], "Family name=family_nam"), // no such column
        ([String](), "Family name"),                                  // two headers, one column
    ])
    func mappingsThatCannotBeFollowedAreBadUsageNamingTheHeader(extra: [String], header: String) throws {
        let directory = try TemporaryDirectory("form-map-bad")
        try directory.write("form.csv", "Family name,family-name,Admin\nDubois,Dubois,Marc\n")
        let result = try ProcessRunner.run(tribeboard, ["provision", "form.csv", "--store", "s.sqlite", "--out", "out", "--json"] + extra,
                                           in: directory.path)
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(header) || result.stderr.contains(header), "\(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite")), "nothing written")
    }

    @Test func aMapTheFileContradictsIsAnErrorDocumentOfItsOwnKind() throws {
        let directory = try TemporaryDirectory("form-map-kind")
        try directory.write("form.csv", "Family name,family-name\nDubois,Dubois\n")
        let result = try ProcessRunner.run(tribeboard, ["provision", "form.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory.path)
        let document = try ErrorDocument(result)
        #expect(result.status == 64 && document.kind == "csv.headerMapping" && document.column == "Family name", "\(result.stdout)")
        // Saying which header is meant resolves it; the other is left unread.
        let fixed = try ProcessRunner.run(tribeboard, ["provision", "form.csv", "--store", "s.sqlite", "--out", "out", "--json",
                                                       "--map", "family-name=family_name"], in: directory.path)
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    /// A form's export read without `--map` reads the family's name only: two families of one name
    /// collide. The failure names the spreadsheet row as well as the line (notes above hold line
    /// breaks) and advises the `--map` of the columns left unread; that advice, run as printed,
    /// tells them apart.
    @Test func collidingRowsOfAnUnmappedFormAdviseTheMapThatTellsThemApart() throws {
        let directory = try TemporaryDirectory("form-collide")
        try directory.write("form.csv", [
            #""Timestamp","Family name","Email address","Phone number","Notes""#,
            #""2026/11/20 9:14:03 AM UTC+1","Nguyen","lan@example.org","0601","Allergies:"#, "peanuts", #"eggs""#,
            #""2026/11/20 9:20:41 AM UTC+1","Nguyen","minh@example.org","0602","""#,
        ].joined(separator: "\r\n") + "\r\n")
        let (result, report) = try provision(["form.csv", "--out", "out"], in: directory)
        #expect(result.status == 1 && report.created == 1 && report.failed == 1, "\(result.stderr)")
        let failure = try #require(report.failures.first)
        #expect(failure.line == 5 && failure.row == 3, "line 5 is the spreadsheet's row 3: \(failure)")
        #expect(failure.error.contains("repeats line 2 in every column read"), "\(failure.error)")
        let advice = try #require(failure.error.range(of: "--map ").map { String(failure.error[$0.lowerBound...]) }, "\(failure.error)")
        #expect(advice.hasPrefix("--map 'Email address=external_id'"), "\(advice)")
        // The advice as printed, through a shell.
        let command = "'\(tribeboard)' provision form.csv --store s2.sqlite --out out2 --json \(advice.dropLast())"
        let again = try ProcessRunner.run("/bin/sh", ["-c", command], in: directory.path)
        let rerun = try again.report(ProvisionReportMirror.self)
        #expect(again.status == 0 && rerun.created == 2 && rerun.failed == 0, "\(command): \(again.stderr)")
    }

    /// A dry run writes no manifest: past the listed failures it says so, rather than "all listed
    /// in the manifest", and it says what the run would write.
    @Test func aDryRunSaysWhatItWouldWriteAndListsNoManifest() throws {
        let directory = try TemporaryDirectory("form-dry-run")
        try directory.write("in.csv", "family_name\n" + (0..<240).map { "Family \($0 % 120)\n" }.joined())
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--dry-run"],
                                           in: directory.path)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("all listed in the manifest") && !result.stderr.contains("listed in the manifest"), "\(result.stdout)")
        #expect(result.stdout.contains("… and 20 more, not listed (a dry run writes no manifest"), "\(result.stdout)")
        #expect(result.stdout.contains("this run would write 120 new families into \(directory.file("s.sqlite"))"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")) && !FileManager.default.fileExists(atPath: directory.file("s.sqlite")))
    }
}
