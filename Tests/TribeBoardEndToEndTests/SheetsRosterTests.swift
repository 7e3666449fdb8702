import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Every name the app allows prints whole: a roster of 242 families whose names are as
/// long as the app's rules allow (family names of 50 characters, admins of 30) in eleven scripts,
/// printed as cards with the built-in template, as cards with a four-paragraph template and a
/// logo, and as letters. Each run ends 0 without `--allow-cut`, nothing is cut, and every card's QR code
/// decodes (zbarimg, through `sheets --verify`) to the code printed on it, a family's.
@Suite
struct SheetsRosterTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// Words of each script, as people's names are written in it.
    static let scripts: [[String]] = [
        ["María", "José", "Rodríguez", "de", "Mendoza", "y", "Łukasiewicz", "Ñúñez"],
        ["Nguyễn", "Phúc", "Vĩnh", "Thụy", "Bảo", "Đại", "Hoàng", "Tộc"],
        ["Константинопольский-Преображенский", "Александра", "Воронцова"],
        ["Παπαδοπούλου", "Αλεξανδροπούλου", "Καραμανλής", "Οικονόμου"],
        ["عبد", "الرحمن", "بن", "محمد", "آل", "الشيخ", "القحطاني", "العتيبي"],
        ["בן", "אליעזר", "רוזנבלום", "שטרנברג", "פרידמן"],
        ["रामचन्द्र", "विश्वनाथन", "सुब्रह्मण्यम", "चट्टोपाध्याय"],
        ["ศรีสุวรรณ", "วงศ์สวัสดิ์", "ประเสริฐศักดิ์", "ณ", "อยุธยา"],
        ["欧阳", "诸葛", "司马", "慕容", "上官", "东方", "皇甫", "长孙"],
        ["やまもと", "たかはし", "サトウ", "ワタナベ", "佐々木"],
        ["남궁", "선우", "황보", "제갈", "독고", "사공", "서문"],
    ]

    /// Words of `words` in turn, one space apart, up to exactly `length` characters (the last
    /// word cut to fit); `unbroken`: no spaces at all, one word wider than the card.
    static func name(_ words: [String], length: Int, offset: Int, unbroken: Bool = false) -> String {
        var name = ""
        var index = offset
        while name.count < length {
            let word = words[index % words.count]
            name += name.isEmpty || unbroken ? word : " " + word
            index += 1
        }
        return String(name.prefix(length)).trimmingCharacters(in: .whitespaces)
    }

    static func roster(count: Int) -> String {
        // Names repeat across the roster (a few words a script): the external id tells rows apart.
        var csv = "external_id,family_name,admin_display_name\n"
        for index in 0..<count {
            let words = scripts[index % scripts.count]
            let family = name(words, length: 50, offset: index / scripts.count, unbroken: index % 7 == 3)
            let admin = name(scripts[(index + 3) % scripts.count], length: 30, offset: index)
            csv += "R\(index),\"\(family)\",\"\(admin)\"\n"
        }
        return csv
    }

    static let fourParagraphs = """
        organisation: École des Tilleuls — Association des parents d'élèves
        title: Welcome to TribeBoard, the family board of the École des Tilleuls, {family_name}
        logo: logo.png
        ---
        Dear {admin_name}, your family {family_name} has its own board on TribeBoard.

        To join: install TribeBoard, choose “Join a family”, then scan the QR code or type {code}.

        Keep this card private: whoever holds the code can ask to join your family.

        Lost it? The school office prints a new one; questions: parents@tilleuls.example.
        """

    @Test func aRosterOfTheLongestNamesInElevenScriptsPrintsWholeEveryWay() throws {
        let directory = try TemporaryDirectory("sheets-roster")
        try directory.write("roster.csv", Self.roster(count: 242))
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "roster.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                                in: directory.path)
        #expect(provisioned.status == 0, "\(provisioned.stderr)")
        let families = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(families.count == 242)
        let logo = try Data(contentsOf: URL(fileURLWithPath: SheetsCLITests.templates + "/logo.png"))
        try logo.write(to: URL(fileURLWithPath: directory.file("logo.png")))
        try directory.write("four.txt", Self.fourParagraphs)
        let runs: [[String]] = [[], ["--template", "four.txt"], ["--layout", "letters", "--template", "four.txt"]]
        for extra in runs {
            let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--json"] + extra,
                                               in: directory.path)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            guard result.status == 0 else { continue }
            let report = try result.report(SheetsReportMirror.self)
            #expect(report.invitations == 242 && report.cuts.invitations == 0, "\(extra)")
            #expect(!(try PDFReader.text(directory.file("inv.pdf"))).contains("…"), "\(extra): nothing ends cut")
            // Every card's QR code decoded by zbarimg and the same as the code printed on it.
            let verified = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--verify", "inv.pdf", "--json"], in: directory.path)
            #expect(verified.status == 0, "\(extra): \(verified.stderr)")
            let check = try verified.report(SheetsVerificationMirror.self)
            #expect(check.cards == 242 && check.failed == 0, "\(extra): \(check.cards) cards checked")
            #expect(families.count == 242)
        }
    }

    static let replaceQR = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/sheets/replace-qr.py").standardized.path

    /// A PDF whose first card carries the second card's QR code (edited after it was made) fails
    /// `--verify`, naming that card's family; the untouched PDF passes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3"),
                   "the damaging script needs python3"))
    func aCardWhoseQRCodeWasReplacedFailsVerifyNamingIt() throws {
        let directory = try TemporaryDirectory("sheets-verify-damaged")
        try directory.write("in.csv", "family_name,admin_display_name\n" + (1...5).map { "Famille \($0),Admin \($0)\n" }.joined())
        #expect(try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path).status == 0)
        let families = try ManifestFile.read(directory.file("out/manifest.csv"))
        let made = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--verify", "inv.pdf", "--json"],
                                         in: directory.path)
        #expect(made.status == 0, "\(made.stderr)")
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/local/bin/python3"
        let damaged = try ProcessRunner.run(python, [Self.replaceQR, "inv.pdf", "bad.pdf"], in: directory.path)
        #expect(damaged.status == 0, "\(damaged.stderr)")
        let verified = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--verify", "bad.pdf", "--json"], in: directory.path)
        #expect(verified.status == 65, "\(verified.stderr)")
        let error = try ErrorDocument(verified)
        #expect(error.kind == "sheets.verifyFailed" && error.recordIds == [families[0].familyId], "\(error)")
        #expect(verified.stderr.contains(families[0].familyName), "\(verified.stderr)")
    }
}
