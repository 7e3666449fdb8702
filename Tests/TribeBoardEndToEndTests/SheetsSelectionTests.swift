import Foundation
import Testing
import TribeBoardTestSupport

/// Reprinting some families' cards, in an order an office files them: selected by
/// family id or by code, sorted by name the way people sort names (accents and case aside), and
/// the admin's line in the template's language. Read back with zbarimg and pdftotext.
@Suite struct SheetsSelectionTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// Created in this order; by name they are adam, Béatrice, Émile, Zoë.
    static let names = ["Zoë", "Émile", "adam", "Béatrice"]

    func provisioned(in directory: TemporaryDirectory, csv: String? = nil) throws -> [ManifestRow] {
        let names = "family_name,admin_display_name\n" + Self.names.enumerated().map { "\($1),Admin \($0 + 1)\n" }.joined()
        try directory.write("in.csv", csv ?? names)
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try ManifestFile.read(directory.file("out/manifest.csv"))
    }

    func sheets(_ arguments: [String], in directory: TemporaryDirectory) throws -> ProcessRunner.Result {
        try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--json"] + arguments, in: directory.path)
    }

    /// The codes on the page, card by card in reading order.
    func printed(_ directory: TemporaryDirectory) throws -> [String] {
        try PDFReader.qrCodes(directory.file("inv.pdf"))
    }

    @Test func familiesAreSelectedByIdOrByCode() throws {
        let directory = try TemporaryDirectory("sheets-select-id")
        let families = try provisioned(in: directory)
        let byId = try sheets(["--family-id", families[3].familyId, "--family-id", families[0].familyId], in: directory)
        #expect(byId.status == 0, "\(byId.stderr)")
        #expect(try printed(directory) == [families[0].code, families[3].code], "in creation order")
        let byCode = try sheets(["--code", families[2].code], in: directory)
        #expect(byCode.status == 0, "\(byCode.stderr)")
        #expect(try printed(directory) == [families[2].code])

        // One asked for that is not there: nothing is printed, the id named; a code is masked.
        let missing = try sheets(["--family-id", families[1].familyId, "--family-id", "NO-SUCH-ID"], in: directory)
        #expect(missing.status == 65, "\(missing.stderr)")
        let error = try ErrorDocument(missing)
        #expect(error.kind == "sheets.unmatched" && error.recordIds == ["NO-SUCH-ID"], "\(error)")
        let unknownCode = try sheets(["--code", "ZZZZ99", "--code", families[1].code], in: directory)
        #expect(unknownCode.status == 65 && !unknownCode.stderr.contains("ZZZZ99") && !unknownCode.stdout.contains("ZZZZ99"), "\(unknownCode.stderr)")
        #expect(try sheets(["--code", families[1].code, "--external-id", "X"], in: directory).status == 64)
    }

    @Test func cardsAreSortedByNameIgnoringCaseAndAccents() throws {
        let directory = try TemporaryDirectory("sheets-sort")
        let families = try provisioned(in: directory)
        let code = Dictionary(uniqueKeysWithValues: families.map { ($0.familyName, $0.code) })
        #expect(try sheets(["--sort", "name"], in: directory).status == 0)
        #expect(try printed(directory) == ["adam", "Béatrice", "Émile", "Zoë"].compactMap { code[$0] })
        #expect(try sheets(["--sort", "created"], in: directory).status == 0)
        #expect(try printed(directory) == families.map(\.code))
        #expect(try sheets(["--sort", "colour"], in: directory).status == 64)
    }

    /// French sets a no-break space before a colon; a template may also give the whole line.
    @Test func theAdminsLineFollowsTheTemplatesLanguage() throws {
        let directory = try TemporaryDirectory("sheets-admin-line")
        let families = try provisioned(in: directory)
        try directory.write("fr.txt", "language: fr\nadmin_label: Administrateur\n---\nBonjour.\n")
        #expect(try sheets(["--template", "fr.txt", "--family-id", families[0].familyId], in: directory).status == 0)
        // pdftotext gives the no-break space as a space.
        let french = try PDFReader.text(directory.file("inv.pdf")).replacingOccurrences(of: "\u{00A0}", with: " ")
        #expect(french.contains("Administrateur : Admin 1") && !french.contains("Administrateur:"), "\(french)")
        try directory.write("own.txt", "language: de\nadmin_label: Verwaltet von {admin_name}\n---\nHallo.\n")
        #expect(try sheets(["--template", "own.txt", "--sort", "name"], in: directory).status == 0)
        let own = try PDFReader.text(directory.file("inv.pdf"))
        #expect(own.contains("Verwaltet von Admin 3") && !own.contains("Verwaltet von Admin 3:"), "\(own)")
    }

    /// A code as a person types it: lower case, a space around it.
    @Test func aCodeTypedInLowerCaseFindsItsFamily() throws {
        let directory = try TemporaryDirectory("sheets-code-case")
        let families = try provisioned(in: directory)
        let result = try sheets(["--code", " \(families[2].code.lowercased()) "], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try printed(directory) == [families[2].code])
    }

    /// An id or external id pasted from a report or a spreadsheet cell: a tab, a no-break space,
    /// a line break around it and a record id in lower case find the family, as `doctor family`
    /// and `recode` find it; an id of no family is named as the store would hold it.
    @Test func idsPastedWithWhiteSpaceFindTheirFamily() throws {
        let directory = try TemporaryDirectory("sheets-select-pasted")
        let families = try provisioned(in: directory, csv: "external_id,family_name,admin_display_name\nE-1,Ramos,Ana\nE-2,Silva,Rui\n")
        let byId = try sheets(["--family-id", "\t\(families[1].familyId.lowercased())\u{00A0}\n"], in: directory)
        #expect(byId.status == 0, "\(byId.stderr)")
        #expect(try printed(directory) == [families[1].code])
        let byExternalId = try sheets(["--external-id", "\u{00A0}E-1\t", "--external-id", "E-2\r\n"], in: directory)
        #expect(byExternalId.status == 0, "\(byExternalId.stderr)")
        #expect(try printed(directory) == families.map(\.code))
        let missing = try sheets(["--family-id", "\tno-such-id\u{00A0}"], in: directory)
        #expect(missing.status == 65, "\(missing.stderr)")
        #expect(try ErrorDocument(missing).recordIds == ["NO-SUCH-ID"])
    }

    /// Two families of one name, one from a list (name only), one from a form whose admin column
    /// `--map` named: `sheets --from-import form.csv` with the same `--map` prints the form's
    /// family, with its own code; read without it, the form's rows are the list's.
    @Test func fromImportReadsTheFileWithItsMapping() throws {
        let directory = try TemporaryDirectory("sheets-from-import-map")
        try directory.write("list.csv", "family_name\nDupont\n")
        try directory.write("form.csv", "Family name,Parent first name,Parent last name\nDupont,Marie,Curie\n")
        func provision(_ file: String, _ extra: [String]) throws -> [ManifestRow] {
            let result = try ProcessRunner.run(tribeboard, ["provision", file, "--store", "s.sqlite", "--out", "out-\(file)", "-q"] + extra,
                                               in: directory.path)
            #expect(result.status == 0, "\(result.stderr)")
            return try ManifestFile.read(directory.file("out-\(file)/manifest.csv"))
        }
        let list = try provision("list.csv", [])
        let map = ["--map", "Parent first name+Parent last name=admin_display_name"]
        let form = try provision("form.csv", map)
        #expect(list.count == 1 && form.count == 1 && list[0].code != form[0].code)
        let result = try sheets(["--from-import", "form.csv"] + map, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try printed(directory) == [form[0].code], "the form's family, never the list's")
        // The joined columns are the admin's name.
        #expect(try PDFReader.text(directory.file("inv.pdf")).contains("Marie Curie"))
        #expect(try sheets(["--map", "Parent=admin_display_name"], in: directory).status == 64, "--map needs --from-import")
    }
}
