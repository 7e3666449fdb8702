import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// A name the app allows in a script no installed font covers (Toto, Unicode 14) prints as boxes
/// (tofu): the run still writes the PDF, but says which card and which characters, on stderr and
/// in the report, so that a font can be installed before the cards go out. Codes are never shown.
@Suite struct SheetsFontCoverageTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// Whether fontconfig knows no face with `scalar` (the test says so and is skipped otherwise).
    static func noFontHas(_ scalar: UInt32) -> Bool {
        guard let result = try? ProcessRunner.run("/usr/bin/fc-list", [":charset=\(String(scalar, radix: 16))", "family"]) else { return false }
        return result.status == 0 && result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    @Test(.enabled(if: noFontHas(0x1E290), "a font with Toto (U+1E290) is installed: no character to test with"))
    func aCharacterNoInstalledFontHasIsNamedWithItsCard() throws {
        let directory = try TemporaryDirectory("sheets-tofu")
        try directory.write("in.csv", "external_id,family_name,admin_display_name\nT1,Famille Lefèvre,Ann\nT2,Toto 𞊐𞊑𞊒,Bob\n")
        let provision = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                              in: directory.path)
        #expect(provision.status == 0, "the app allows Toto letters in a name: \(provision.stderr)")
        let families = try ManifestFile.read(directory.file("out/manifest.csv"))
        let result = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--json"], in: directory.path)
        #expect(result.status == 0, "the PDF is written: \(result.stderr)")
        let missing = try #require(try result.report(SheetsReportMirror.self).missingCharacters)
        #expect(missing.invitations == 1 && missing.first.map(\.familyId) == [families[1].familyId], "\(missing)")
        let toto = try #require(missing.first.first)
        // The name and the built-in wording, which holds the name.
        #expect(toto.fields == ["family_name", "wording"])
        #expect(toto.characters == ["U+1E290 TOTO LETTER PA", "U+1E291 TOTO LETTER BA", "U+1E292 TOTO LETTER TA"], "\(toto.characters)")
        #expect(result.stderr.contains("Toto 𞊐𞊑𞊒 (\(families[1].familyId))") && result.stderr.contains("U+1E290"), "\(result.stderr)")
        #expect(!families.contains { result.stderr.contains($0.code) }, "codes are secrets")
        #expect(try PDFReader.qrCodes(directory.file("inv.pdf")).sorted() == families.map(\.code).sorted())
    }
}
