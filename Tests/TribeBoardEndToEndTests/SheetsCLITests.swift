import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `tribeboard sheets` read back the way a printer's user would check it: the pages rendered to
/// images and every QR code decoded by zbarimg, the text found by pdftotext, the page size by
/// pdfinfo and the faces by pdffonts, all independent of cairo and pango.
@Suite struct SheetsCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Templates/sheets").standardized.path

    /// A store and manifest with `count` families (every family has an admin, "Admin N").
    func provisioned(_ count: Int, in directory: TemporaryDirectory) throws -> [ManifestRow] {
        try directory.write("in.csv", CSVFixtures.families(count: count))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try ManifestFile.read(directory.file("out/manifest.csv"))
    }


    static let layouts: [(layout: String, paper: String, perPage: Int, width: Double, height: Double)] = [
        ("cards", "a4", 8, 595.276, 841.89), ("cards", "letter", 8, 612, 792),
        ("letters", "a4", 1, 595.276, 841.89), ("letters", "letter", 1, 612, 792),
    ]

    @Test(arguments: 0..<layouts.count) func everyCodeScansAndEveryNameReadsInEachLayoutAndPaper(index: Int) throws {
        let (layout, paper, perPage, width, height) = Self.layouts[index]
        let directory = try TemporaryDirectory("sheets-\(layout)-\(paper)")
        let families = try provisioned(layout == "cards" ? 19 : 5, in: directory)
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--layout", layout,
                                                        "--paper", paper, "--json"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let pdf = directory.file("inv.pdf")
        let pages = (families.count + perPage - 1) / perPage
        let report = try result.report(SheetsReportMirror.self)
        #expect(report.invitations == families.count)
        #expect(report.pages == pages)
        #expect(report.mode == "0600")
        #expect(FileMode.of(pdf) == 0o600)

        let info = try PDFReader.info(pdf)
        #expect(info.pages == pages)
        #expect(abs(info.width - width) < 0.01 && abs(info.height - height) < 0.01)
        #expect(try PDFReader.qrCodes(pdf).sorted() == families.map(\.code).sorted())
        let text = try PDFReader.text(pdf)
        for family in families {
            #expect(text.contains(family.code), "code of \(family.familyName)")
            #expect(text.contains(family.familyName))
        }
        #expect(text.contains("Administrator: Admin 1\n"))
    }

    /// Names in every script the app accepts are shaped with the font made for their script, and
    /// come back out of the PDF as the same characters (right-to-left ones with their bidi marks).
    /// Han characters are drawn differently in Chinese, Japanese and Korean: a name with kana is
    /// set in the Japanese face, one with Hangul in the Korean, one of Han alone in the template's
    /// language's (Simplified Chinese for the built-in English one, Japanese for `language: ja`).
    @Test func namesInEveryScriptRenderWithTheirScriptsFont() throws {
        let directory = try TemporaryDirectory("sheets-scripts")
        let names = ["Famille Lefèvre-Çelik", "Οικογένεια Παπαδοπούλου", "Семья Иванова", "عائلة الحسيني", "משפחת כהן",
                     "शर्मा परिवार", "ครอบครัวสมชาย", "山田さくらの家", "欧阳家 王家", "김씨 가족"]
        try directory.write("in.csv", "family_name,admin_display_name\n" + names.map { "\($0),Zoë Ångström\n" }.joined())
        let provision = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(provision.status == 0, "\(provision.stderr)")
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--manifest", "out/manifest.csv", "--store", "s.sqlite", "--out", "inv.pdf"],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let pdf = directory.file("inv.pdf")
        let codes = try ManifestFile.read(directory.file("out/manifest.csv")).map(\.code)
        #expect(try PDFReader.qrCodes(pdf).sorted() == codes.sorted())
        let text = try PDFReader.text(pdf).replacingOccurrences(of: "\u{202B}", with: "").replacingOccurrences(of: "\u{202C}", with: "")
        for name in names { #expect(text.contains(name), "\(name)") }
        #expect(text.contains("Administrator: Zoë Ångström"))
        let fonts = Set(try PDFReader.fonts(pdf))
        for face in ["NotoSans-Bold", "NotoSansArabic-Bold", "NotoSansHebrew-Bold", "NotoSansDevanagari-Bold", "NotoSansThai-Bold",
                     "NotoSansCJKjp-Bold", "NotoSansCJKsc-Bold", "NotoSansCJKkr-Bold", "DejaVuSansMono-Bold"] {
            #expect(fonts.contains(face), "\(face) not in \(fonts.sorted())")
        }

        // A Japanese school's template: the Han-only name is set in the Japanese face.
        try directory.write("ja.txt", "language: ja\n---\n{family_name}: {code}\n")
        let id = try #require(try ManifestFile.read(directory.file("out/manifest.csv")).first { $0.familyName == "欧阳家 王家" }).familyId
        let han = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "ja.pdf", "--template", "ja.txt",
                                                     "--family-id", id], in: directory.path)
        #expect(han.status == 0, "\(han.stderr)")
        let japanese = Set(try PDFReader.fonts(directory.file("ja.pdf")))
        #expect(japanese.contains("NotoSansCJKjp-Bold") && !japanese.contains("NotoSansCJKsc-Bold"), "\(japanese.sorted())")
    }

    @Test func aTemplateWithUnknownPlaceholdersIsRefusedNamingThem() throws {
        let directory = try TemporaryDirectory("sheets-template")
        _ = try provisioned(2, in: directory)
        try directory.write("bad.txt", "organisation: X\ntitle: Hello {family}\n---\nYour code: {code}, {kode}.\n")
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--store", "s.sqlite", "--template", "bad.txt", "--json"],
                                           in: directory.path)
        #expect(result.status == 65)
        let error = try ErrorDocument(result)
        #expect(error.kind == "template.unknownPlaceholders" && error.placeholders == ["{family} (line 2, column 14)", "{kode} (line 4, column 20)"], "\(error)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("inv.pdf")))
    }

    /// An office adds a column to the manifest in its spreadsheet (a class): the template may name
    /// it. A name neither a field nor a column is refused, every one named; the store
    /// has no such columns.
    @Test func aManifestsExtraColumnsAreTemplatePlaceholders() throws {
        let directory = try TemporaryDirectory("sheets-columns")
        let families = try provisioned(3, in: directory)
        let lines = try String(contentsOfFile: directory.file("out/manifest.csv"), encoding: .utf8).split(whereSeparator: \.isNewline)
        let classes = ["4B", "CM1 Dupont", "=1+1"]
        let edited = ["\(lines[0]),class"] + lines.dropFirst().enumerated().map { "\($1),\($0 == 2 ? "'" : "")\(classes[$0])" }
        try directory.write("m.csv", edited.joined(separator: "\n") + "\n")
        try directory.write("t.txt", "title: Welcome, class {class}\n---\nYour child's class: {class}. Code {code}.\n")
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--manifest", "m.csv", "--store", "s.sqlite", "--out", "inv.pdf",
                                                        "--layout", "letters", "--template", "t.txt"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try PDFReader.text(directory.file("inv.pdf"))
        for (index, family) in families.enumerated() {
            #expect(text.contains("Welcome, class \(classes[index])") && text.contains("Your child's class: \(classes[index]). Code \(family.code)."),
                    "\(text)")
        }
        try directory.write("bad.txt", "---\n{class} {kolor} {colour}\n")
        let unknown = try ProcessRunner.run(tribeboard, ["sheets", "--manifest", "m.csv", "--out", "x.pdf", "--template", "bad.txt", "--json"],
                                            in: directory.path)
        let error = try ErrorDocument(unknown)
        #expect(error.kind == "template.unknownPlaceholders" && error.placeholders == ["{kolor} (line 2, column 9)", "{colour} (line 2, column 17)"], "\(error)")
        let fromStore = try ErrorDocument(try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "x.pdf", "--template", "t.txt",
                                                                             "--json"], in: directory.path))
        #expect(fromStore.kind == "template.unknownPlaceholders" && fromStore.exitStatus == 65, "\(fromStore)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.pdf")))
    }

    @Test func theShippedTemplatesWorkWithTheirLogoAndLanguage() throws {
        let directory = try TemporaryDirectory("sheets-french")
        let families = try provisioned(3, in: directory)
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--store", "s.sqlite", "--layout", "letters",
                                                        "--template", "\(Self.templates)/invitation-fr.txt"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try PDFReader.text(directory.file("inv.pdf"))
        #expect(text.contains("École des Tilleuls") && text.contains("Code famille"))
        #expect(text.contains("Bienvenue sur TribeBoard, \(families[0].familyName)"))
        let images = try PDFReader.imageTypes(directory.file("inv.pdf"))
        #expect(images.filter { $0 == "image" }.count >= 3 && images.filter { $0 == "stencil" }.count == 3,
                "the logo and the QR code on every letter: \(images)")

        let plain = try ProcessRunner.run(tribeboard, ["sheets", "--out", "plain.pdf", "--store", "s.sqlite",
                                                       "--template", "\(Self.templates)/invitation.txt"], in: directory.path)
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    @Test func aSymlinkedOutputIsRefusedAndItsTargetUntouched() throws {
        let directory = try TemporaryDirectory("sheets-symlink")
        _ = try provisioned(2, in: directory)
        try directory.write("target.txt", "keep me")
        try FileManager.default.createSymbolicLink(atPath: directory.file("inv.pdf"), withDestinationPath: directory.file("target.txt"))
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--store", "s.sqlite", "--json"], in: directory.path)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try String(contentsOfFile: directory.file("target.txt"), encoding: .utf8) == "keep me")
        let link = try ErrorDocument(result)
        #expect(link.kind == "sheets.cannotCreate" && link.status == "cannotCreate" && link.path == "inv.pdf", "\(link)")
        let missingFolder = try ProcessRunner.run(tribeboard, ["sheets", "--out", "no/such/inv.pdf", "--store", "s.sqlite", "--json"],
                                                  in: directory.path)
        #expect(missingFolder.status == 73, "\(missingFolder.stderr)")
        #expect(try ErrorDocument(missingFolder).kind == "sheets.cannotCreate")
    }

    @Test func selectionsPickTheirFamiliesOnly() throws {
        let directory = try TemporaryDirectory("sheets-select")
        let families = try provisioned(6, in: directory)
        func codes(_ arguments: [String]) throws -> (status: Int32, codes: [String]) {
            let result = try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--store", "s.sqlite", "-q"] + arguments, in: directory.path)
            guard result.status == 0 else { return (result.status, []) }
            return (0, try PDFReader.qrCodes(directory.file("inv.pdf")).sorted())
        }
        let byId = try codes(["--external-id", families[1].externalId, "--external-id", families[4].externalId])
        #expect(byId.codes == [families[1].code, families[4].code].sorted())
        try directory.write("subset.csv", CSVFixtures.families(count: 2))
        #expect(try codes(["--from-import", "subset.csv"]).codes == families.prefix(2).map(\.code).sorted())
        #expect(try codes(["--created-from", "2000-01-01"]).codes == families.map(\.code).sorted())
        #expect(try codes(["--created-to", "2000-01-01"]).status == 65)
        #expect(try ErrorDocument(try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--store", "s.sqlite", "--json",
                                                                     "--created-to", "2000-01-01"], in: directory.path)).kind
                == "sheets.nothingSelected")
        #expect(try codes(["--created-from", "2026-13-40"]).status == 64)
        #expect(try codes(["--external-id", "X", "--from-import", "subset.csv"]).status == 64)
        let missing = try ErrorDocument(try ProcessRunner.run(tribeboard, ["sheets", "--out", "inv.pdf", "--manifest", "missing.csv", "--json"],
                                                              in: directory.path))
        #expect(missing.exitStatus == 66 && missing.kind == "manifest.cannotOpen" && missing.path == "missing.csv", "\(missing)")
    }

    /// A PDF that cannot be made is said, with its status (never 0), and so is what was
    /// provisioned: with --json the report is the document and names the sheets' error.
    @Test func provisionWithSheetsThatCannotBeWrittenStillReportsTheFamilies() throws {
        let directory = try TemporaryDirectory("sheets-provision-fails")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sheets", "no-such-folder/inv.pdf", "--json"],
                                           in: directory.path)
        #expect(result.status == 73, "\(result.stderr)")
        let report = try result.report(ProvisionReportMirror.self)
        #expect(report.created == 3 && report.manifest != nil, "\(result.stdout)")
        let sheets = try #require(report.sheets, "\(result.stdout)")
        #expect(sheets.errorKind == "sheets.cannotCreate" && sheets.path == "no-such-folder/inv.pdf", "\(sheets)")
        #expect(try result.report(JSONKeys.self).objects["sheets"]?.keys.contains("invitations") == false)
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 3, "the families were made")

        let text = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sheets", "no-such-folder/inv.pdf"],
                                         in: directory.path)
        #expect(text.status == 73)
        #expect(text.stdout.contains("existing  3") && text.stdout.contains("Sheets:    not made: "), "\(text.stdout)")
    }

    @Test func provisionWithSheetsPrintsTheRunsFamilies() throws {
        let directory = try TemporaryDirectory("sheets-provision")
        try directory.write("in.csv", CSVFixtures.families(count: 9))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sheets", "inv.pdf"],
                                           in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Sheets:    inv.pdf (9 cards on 2 pages)"), "\(result.stdout)")
        let manifest = try ManifestFile.read(directory.file("out/manifest.csv"))
        #expect(try PDFReader.qrCodes(directory.file("inv.pdf")).sorted() == manifest.map(\.code).sorted())
        #expect(FileMode.of(directory.file("inv.pdf")) == 0o600)
        #expect(try PDFReader.text(directory.file("inv.pdf")).contains("Administrator: Admin 9"))
        let dry = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--dry-run", "--sheets", "x.pdf"],
                                        in: directory.path)
        #expect(dry.status == 64)
    }
}
