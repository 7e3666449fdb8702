import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Printed text is never cut silently: it is set smaller and wrapped onto the card's
/// free space, and what still does not fit stops the run before anything is written, unless
/// `--allow-cut`. Read back with pdftotext, one card's rectangle at a time.
@Suite struct SheetsFittingTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// Four short paragraphs: more than the card holds at 7.5 pt, all of it at 6 pt.
    static let fourShortParagraphs = """
        organisation: École des Tilleuls
        ---
        Welcome, {admin_name}: your family has its own board on TribeBoard.
        To join: install TribeBoard, choose “Join a family”, then scan the QR code or type the code {code}.
        Keep this card private: whoever holds the code can ask to join {family_name}.
        Lost it? The school office gives a new one; the old one then stops working.
        """

    /// The issue's shape: a long title and four paragraphs (greeting, how to join, privacy, contact).
    static let fourParagraphs = """
        organisation: École des Tilleuls — Association des parents d'élèves
        title: Welcome to TribeBoard, the family board of the École des Tilleuls, {family_name}
        ---
        Dear {admin_name}, your family {family_name} now has its own board on TribeBoard, where the school's news, the class calendar and the parents' messages arrive in one place.

        How to join: 1. install TribeBoard from the App Store; 2. open it and choose "Join a family"; 3. scan the QR code on this card, or type the code {code}; 4. wait until the administrator accepts you.

        Privacy: keep this card private. Whoever holds the code can ask to join {family_name}; if it is lost, ask the school office for a new one.

        Questions: the parents' association answers at the school gate on Mondays, or write to parents@tilleuls.example.
        """

    func provisioned(_ count: Int, in directory: TemporaryDirectory) throws -> [ManifestRow] {
        try directory.write("in.csv", CSVFixtures.families(count: count))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try ManifestFile.read(directory.file("out/manifest.csv"))
    }

    func report(_ result: ProcessRunner.Result) throws -> SheetsReportMirror {
        try result.report(SheetsReportMirror.self)
    }

    /// `count` families provisioned, then printed as cards (inv.pdf) with `template`: the run ends 0.
    func printed(_ count: Int, _ template: String, in name: String) throws
        -> (directory: TemporaryDirectory, families: [ManifestRow], report: SheetsReportMirror) {
        let directory = try TemporaryDirectory(name)
        let families = try provisioned(count, in: directory)
        try directory.write("t.txt", template)
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt", "--json"],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        return (directory, families, try report(result))
    }

    /// The words of `text`, however pdftotext broke its lines.
    static func words(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The wording as the template fills it for one family (the fixture's admins are "Admin N").
    static func wording(_ template: String, _ family: ManifestRow, admin: String) -> String {
        let body = template.components(separatedBy: "---\n").last ?? ""
        return body.replacingOccurrences(of: "{admin_name}", with: admin).replacingOccurrences(of: "{family_name}", with: family.familyName)
            .replacingOccurrences(of: "{code}", with: family.code)
    }

    /// The text pdftotext finds inside one card, as cut along its marks.
    func cardText(_ pdf: String, _ card: PDFReader.Card) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/pdftotext", ["-enc", "UTF-8", "-f", String(card.page), "-l", String(card.page),
                                                                  "-x", String(Int(card.x)), "-y", String(Int(card.y)),
                                                                  "-W", String(Int(card.width)), "-H", String(Int(card.height)), pdf, "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Each family's card, in the order printed: the cards cut along the marks that hold text.
    func familyCards(_ pdf: String) throws -> [PDFReader.Card] {
        try PDFReader.cards(pdf).filter { !(try cardText(pdf, $0)).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    @Test func aWordingTooLongForFullSizeIsSetSmallerAndPrintedWhole() throws {
        let (directory, families, report) = try printed(8, Self.fourShortParagraphs, in: "sheets-fit-cards")
        #expect(report.shrunk == 8, "every card's wording needed smaller type: \(report)")
        #expect(report.cuts.invitations == 0)
        let cards = try familyCards(directory.file("inv.pdf"))
        #expect(cards.count == families.count && report.tallerPages == 0, "eight cards a page: \(cards)")
        for (slot, (family, card)) in zip(families, cards).enumerated() {
            let text = Self.words(try cardText(directory.file("inv.pdf"), card))
            // Whole, words unbroken: the code in the wording is not split across lines.
            #expect(text.contains(Self.words(Self.wording(Self.fourShortParagraphs, family, admin: "Admin \(slot + 1)"))), "card \(slot): \(text)")
            #expect(!text.contains("…"))
        }
    }

    /// Letters have the room: the long title and all four paragraphs are there, nothing ends in "…".
    @Test func theIssuesFourParagraphTemplateIsWholeOnLetters() throws {
        let directory = try TemporaryDirectory("sheets-fit-letters")
        let families = try provisioned(3, in: directory)
        try directory.write("t.txt", Self.fourParagraphs)
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt",
                                                        "--layout", "letters", "--json"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try report(result).cuts.invitations == 0)
        let text = Self.words(try PDFReader.text(directory.file("inv.pdf")))
        #expect(!text.contains("…"), "\(text)")
        for (index, family) in families.enumerated() {
            #expect(text.contains("Welcome to TribeBoard, the family board of the École des Tilleuls, \(family.familyName)"))
            #expect(text.contains(Self.words(Self.wording(Self.fourParagraphs, family, admin: "Admin \(index + 1)"))), "\(family.familyName)")
        }
    }

    /// The issue's four paragraphs do not fit eight to a page even at 7 pt: those pages take
    /// taller cards (3 or 2 rows) rather than refusing; every card is whole and scans.
    @Test func theIssuesFourParagraphTemplateIsWholeOnTallerCards() throws {
        let (directory, families, report) = try printed(11, Self.fourParagraphs, in: "sheets-fit-taller")
        #expect(report.cuts.invitations == 0 && report.pages == report.tallerPages && report.pages >= 2, "\(report)")
        let pdf = directory.file("inv.pdf")
        let cards = try familyCards(pdf)
        #expect(cards.count == families.count && cards.allSatisfy { $0.height > (841.89 - 72) / 4 + 1 }, "\(cards)")
        for (index, (family, card)) in zip(families, cards).enumerated() {
            let text = Self.words(try cardText(pdf, card))
            #expect(text.contains(Self.words(Self.wording(Self.fourParagraphs, family, admin: "Admin \(index + 1)"))), "\(family.familyName): \(text)")
            #expect(!text.contains("…"))
        }
        #expect(try PDFReader.qrCodes(pdf).sorted() == families.map(\.code).sorted())
    }

    /// A wording far longer than a card holds (three times the four paragraphs) does not fit even
    /// two to a column: the run stops naming every family, the field and the template as the
    /// cause, status 65, nothing at --out (nor a temporary file); the preview shows the cards
    /// marked. --allow-cut prints it and counts the cuts.
    @Test func textThatCannotFitIsRefusedUnlessCutsAreAllowed() throws {
        let directory = try TemporaryDirectory("sheets-fit-refused")
        let families = try provisioned(11, in: directory)
        let paragraphs = Self.fourParagraphs.components(separatedBy: "---\n")
        try directory.write("t.txt", paragraphs[0] + "---\n" + Array(repeating: paragraphs[1], count: 3).joined(separator: "\n\n"))
        try directory.write("inv.pdf", "previous")
        let refused = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--preview", "p.png",
                                                         "--template", "t.txt", "--json"], in: directory.path)
        #expect(refused.status == 65, "\(refused.stderr)")
        let error = try ErrorDocument(refused)
        #expect(error.kind == "sheets.textDoesNotFit" && error.fields == ["wording"] && error.count == 11, "\(error)")
        #expect(Set(error.recordIds ?? []) == Set(families.map(\.familyId)))
        #expect(refused.stderr.contains(families[10].familyName))
        #expect(try String(contentsOfFile: directory.file("inv.pdf"), encoding: .utf8) == "previous")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("s.sqlite") }.sorted()
        #expect(files == ["in.csv", "inv.pdf", "out", "p.png", "t.txt"], "the preview of the cards that do not fit, no temporary file")
        #expect(FileMode.of(directory.file("p.png")) == 0o600)
        // The preview is the first page of cards that do not fit: the first four families'.
        let shown = try QRReader.decodeAll(directory.file("p.png"))
        #expect(!shown.isEmpty && Set(shown).isSubset(of: families.prefix(4).map(\.code)), "\(shown)")

        let cut = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt",
                                                     "--allow-cut", "--json"], in: directory.path)
        #expect(cut.status == 0, "\(cut.stderr)")
        let cuts = try report(cut).cuts
        #expect(cuts.invitations == 11 && cuts.fields == ["wording": 11], "\(cuts)")
        #expect(cuts.first.map(\.familyId) == families.map(\.familyId) && cuts.first.allSatisfy { $0.causes == ["wording": "template"] })
        let pdf = directory.file("inv.pdf")
        #expect(try PDFReader.qrCodes(pdf).sorted() == families.map(\.code).sorted())
        let first = try #require(try familyCards(pdf).first)
        #expect(try cardText(pdf, first).contains("…"), "the cut is marked")
    }

    /// One card can fail for two reasons: a wording too long for any card (the template's) and a
    /// family name too long for this card (its data: a manifest edited by hand). Both are named,
    /// each with its text, in the refusal and in the report of --allow-cut.
    @Test func aCardThatFailsForTwoReasonsNamesBoth() throws {
        let directory = try TemporaryDirectory("sheets-fit-two-causes")
        let families = try provisioned(2, in: directory)
        let long = String(repeating: "Konstantinopolitanischer ", count: 40).trimmingCharacters(in: .whitespaces)
        let manifest = try String(contentsOfFile: directory.file("out/manifest.csv"), encoding: .utf8)
        try directory.write("m.csv", manifest.replacingOccurrences(of: ",\(families[0].familyName),", with: ",\(long),"))
        let paragraphs = Self.fourParagraphs.components(separatedBy: "---\n")
        try directory.write("t.txt", paragraphs[0] + "---\n" + Array(repeating: paragraphs[1], count: 3).joined(separator: "\n\n"))
        // No store named and none at ./tribeboard.sqlite: the manifest is printed as it is.
        let arguments = ["sheets", "--manifest", "m.csv", "--out", "inv.pdf", "--template", "t.txt", "--json"]
        let refused = try ProcessRunner.run(tribeboard, arguments, in: directory.path)
        #expect(refused.status == 65, "\(refused.stderr)")
        let error = try ErrorDocument(refused)
        #expect(error.fields == ["family_name", "wording"] && error.count == 2, "\(error)")
        #expect(refused.stderr.contains("\(long) (\(families[0].familyId)): family_name (data), wording (template)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the data is too long") && refused.stderr.contains("the template's text is too long"))

        let cut = try ProcessRunner.run(tribeboard, arguments + ["--allow-cut"], in: directory.path)
        #expect(cut.status == 0, "\(cut.stderr)")
        let first = try report(cut).cuts.first
        #expect(first.map(\.causes) == [["family_name": "data", "wording": "template"], ["wording": "template"]], "\(first)")
        #expect(first.map(\.fields) == [["family_name", "wording"], ["wording"]])
    }

    /// --preview draws the first page as a PNG an office can look at: the page's size at 150 dpi,
    /// owner-only, and its QR code scans; without --out no PDF is written.
    @Test func thePreviewIsTheFirstPageAsAPNGWhoseCodeScans() throws {
        let directory = try TemporaryDirectory("sheets-preview")
        let families = try provisioned(3, in: directory)
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--preview", "p.png", "--layout", "letters",
                                                        "--paper", "letter", "--json"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try report(result)
        #expect(try report.preview == "p.png" && !result.report(JSONKeys.self).keys.contains("output") && report.invitations == 3, "\(report)")
        let png = try Data(contentsOf: URL(fileURLWithPath: directory.file("p.png")))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let size = [16, 20].map { at in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(size == [1275, 1650], "US Letter at 150 dpi")
        #expect(FileMode.of(directory.file("p.png")) == 0o600)
        #expect(try QRReader.decode([directory.file("p.png")]) == [families[0].code])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pdf") }.isEmpty)

        let both = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--preview", "cards.png"],
                                         in: directory.path)
        #expect(both.status == 0, "\(both.stderr)")
        #expect(try PDFReader.info(directory.file("inv.pdf")).pages == 1)
        let cards = try Data(contentsOf: URL(fileURLWithPath: directory.file("cards.png")))
        #expect([16, 20].map { at in cards[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } } == [1240, 1754], "A4 at 150 dpi")
        let neither = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite"], in: directory.path)
        #expect(neither.status == 64)
    }
}
