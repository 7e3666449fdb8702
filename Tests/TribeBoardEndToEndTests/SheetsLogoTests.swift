import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// Logos and what a card must survive, checked on the rendered pages (pdftoppm) rather than on
/// what cairo was asked to draw.
@Suite struct SheetsLogoTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func provisioned(_ csv: String, in directory: TemporaryDirectory) throws {
        try directory.write("in.csv", csv)
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func letters(_ template: String, in directory: TemporaryDirectory) throws -> ProcessRunner.Result {
        try directory.write("t.txt", "organisation: Org\n\(template)\n---\nHello {family_name}.\n")
        return try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--layout", "letters", "--template", "t.txt", "--json"],
                                     in: directory.path)
    }

    /// An SVG logo is drawn by librsvg as vectors (no image in the PDF) in the logo's box at the
    /// top left of the letter, 160 × 48 points inside the three-quarter-inch margin.
    @Test func anSVGLogoIsDrawnAsVectorsInItsBox() throws {
        let directory = try TemporaryDirectory("sheets-svg")
        try provisioned(CSVFixtures.families(count: 2), in: directory)
        try directory.write("logo.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#1060c0"/></svg>"##)
        let result = try letters("logo: logo.svg", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let pdf = directory.file("inv.pdf")
        let box = try PageImage.render(pdf, page: 2, x: 54, y: 54, width: 160, height: 48)
        let dark = box.darkFraction
        #expect(dark > 0.4, "the logo's box is \(dark) dark")
        let images = try PDFReader.imageTypes(pdf)
        #expect(!images.isEmpty && images.allSatisfy { $0 == "stencil" }, "vectors, not an image (the QR codes are image masks): \(images)")
    }

    /// librsvg is given no base URL, so the SVG's references load nothing; entity loops and
    /// reference bombs end in librsvg's limits; an absurd size is drawn in the box.
    @Test func aHostileSVGReadsNoFileAndStaysBounded() throws {
        let directory = try TemporaryDirectory("sheets-svg-hostile")
        try provisioned(CSVFixtures.families(count: 1), in: directory)
        let secret = try directory.write("secret.txt", "SECRET-\(UUID().uuidString)")
        let png = "\(SheetsCLITests.templates)/logo.png"
        try directory.write("refs.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="400" height="100">
            <image href="file://\(png)" width="100" height="100"/><image href="secret.txt" width="100" height="100"/>
            <text x="0" y="50"><xi:include href="file://\(secret)" parse="text"/></text></svg>
            """)
        #expect(try letters("logo: refs.svg", in: directory).status == 0)
        #expect(try !PDFReader.text(directory.file("inv.pdf")).contains("SECRET-"))
        let images = try PDFReader.imageTypes(directory.file("inv.pdf"))
        #expect(!images.isEmpty && images.allSatisfy { $0 == "stencil" }, "no image loaded (the QR codes are image masks): \(images)")

        let laughs = (1...9).map { "<!ENTITY l\($0) \"\(String(repeating: "&l\($0 - 1);", count: 10))\">" }.joined()
        try directory.write("laughs.svg", """
            <?xml version="1.0"?><!DOCTYPE svg [<!ENTITY l0 "lol">\(laughs)]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&l9;</text></svg>
            """)
        let bomb = try letters("logo: laughs.svg", in: directory)
        #expect(bomb.status == 65, "\(bomb.stderr)")
        let error = try ErrorDocument(bomb)
        #expect(error.kind == "template.logo" && error.path?.hasSuffix("laughs.svg") == true, "\(error)")

        try directory.write("huge.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="1e30" height="1"><rect width="1e30" height="1"/></svg>"#)
        #expect(try letters("logo: huge.svg", in: directory).status == 0)
        try directory.write("logo.gif", "GIF89a")
        let gif = try ErrorDocument(try letters("logo: logo.gif", in: directory))
        #expect(gif.kind == "template.logo" && gif.exitStatus == 65, "\(gif)")
        let missing = try ErrorDocument(try letters("logo: missing.svg", in: directory))
        #expect(missing.kind == "template.logo" && missing.exitStatus == 66 && missing.status == "noInput", "\(missing)")
    }

    /// A PNG's header is read before it is decoded: sides of 2³² − 1 (whose product overflows)
    /// are refused, not a trap; a damaged PNG is called damaged, not "out of memory" (cairo's
    /// status for any libpng error); a truncated one, truncated.
    @Test func aPNGLogoThatLiesOrIsDamagedIsRefusedForWhatItIs() throws {
        let directory = try TemporaryDirectory("sheets-png-hostile")
        try provisioned(CSVFixtures.families(count: 1), in: directory)
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        huge += Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        try huge.write(to: URL(fileURLWithPath: directory.file("huge.png")))
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(SheetsCLITests.templates)/logo.png"))
        var damaged = [UInt8](good)
        let idat = try #require(good.range(of: Data("IDAT".utf8))).upperBound + 16
        for index in idat..<idat + 40 { damaged[index] ^= 0x5A }
        try Data(damaged).write(to: URL(fileURLWithPath: directory.file("damaged.png")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: directory.file("truncated.png")))

        let lying = try letters("logo: huge.png", in: directory)
        #expect(lying.status == 65, "no trap: \(lying.stderr)")
        let error = try ErrorDocument(lying)
        #expect(error.kind == "template.logo" && error.message.contains("4294967295 × 4294967295 pixels"), "\(error)")
        let corrupt = try ErrorDocument(try letters("logo: damaged.png", in: directory))
        #expect(corrupt.kind == "template.logo" && corrupt.exitStatus == 65, "\(corrupt)")
        #expect(corrupt.message.contains("corrupt PNG") && !corrupt.message.contains("memory"), "\(corrupt.message)")
        let cut = try ErrorDocument(try letters("logo: truncated.png", in: directory))
        #expect(cut.message.contains("truncated"), "\(cut.message)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("inv.pdf")))
    }

    /// Names longer than the app's 50 characters (a manifest edited by hand), a word that cannot
    /// be broken, a name of stacked combining marks, a long organisation and no admin: every
    /// card's ink stays inside its card (a band along each card's edges is blank) and every code
    /// still scans. What cannot fit even in the smallest type is refused, naming the families and
    /// fields; with --allow-cut it is printed cut and counted.
    @Test func longAndStackedNamesStayInsideTheirCards() throws {
        let directory = try TemporaryDirectory("sheets-overflow")
        // 40 marks a letter: the app stops at 12, but a manifest is a text file anyone can edit.
        let stacked = String(repeating: "Z" + String(repeating: "\u{0301}\u{0316}", count: 20), count: 10)
        let names = [String(repeating: "Wolfeschlegelsteinhausen ", count: 2) + "Bergerdorff", String(repeating: "W", count: 64),
                     "Famille " + String(repeating: "Montmorency-Laval ", count: 3) + "Saint-Aignan", stacked,
                     "Ng", String(repeating: "ก้้้", count: 12), "山田家" + String(repeating: "山", count: 60), "Lee"]
        try provisioned("family_name,admin_display_name\n" + names.indices.map { "Family \($0 + 10),\($0 % 2 == 0 ? "" : String(repeating: "A", count: 30))\n" }.joined(),
                        in: directory)
        var manifest = try String(contentsOfFile: directory.file("out/manifest.csv"), encoding: .utf8)
        for (index, name) in names.enumerated() { manifest = manifest.replacingOccurrences(of: "Family \(index + 10)", with: name) }
        try directory.write("m.csv", manifest)
        try directory.write("t.txt", "organisation: \(String(repeating: "Organisation des parents d'élèves ", count: 5))\n---\n"
                            + String(repeating: "Unbreakable", count: 60) + " {code}\n")
        let arguments = ["sheets", "--manifest", "m.csv", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt", "--json"]
        let refused = try ErrorDocument(try ProcessRunner.run(tribeboard, arguments, in: directory.path))
        #expect(refused.kind == "sheets.textDoesNotFit" && refused.count == 8 && refused.fields?.contains("organisation") == true, "\(refused)")
        let result = try ProcessRunner.run(tribeboard, arguments + ["--allow-cut"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let cuts = try result.report(SheetsReportMirror.self).cuts
        #expect(cuts.invitations == 8 && cuts.fields["organisation"] == 8, "\(cuts)")
        let pdf = directory.file("inv.pdf")
        #expect(try PDFReader.qrCodes(pdf).count == names.count)
        // Cut along the marks: each piece's edge is blank (these cards need the taller shapes).
        let cards = try PDFReader.cards(pdf)
        #expect(cards.count >= names.count, "\(cards)")
        for card in cards {
            let image = try PageImage.render(pdf, page: card.page, x: card.x, y: card.y, width: card.width, height: card.height)
            let blank = image.edgeBandIsBlank(points: 3)
            #expect(blank, "the card at \(card) draws on its edge")
        }
    }
}
