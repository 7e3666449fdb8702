import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCSV

/// `--map` as an operator writes it for a form's export: a join of two columns into one field,
/// and the advice when one field or one header is given twice.
@Suite struct HeaderMappingTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory("header-mapping")
    }

    func records(_ csv: String, _ arguments: [String]) throws -> [FamilyCSVRecord] {
        let path = folder.file("form.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try FamilyCSVReader(path: path, mapping: try HeaderMapping(arguments: arguments))
        var records: [FamilyCSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// First and last name in two columns become the admin's name, one space apart; an empty
    /// cell adds no space.
    @Test func aJoinOfTwoColumnsIsTheirCellsOneSpaceApart() throws {
        let read = try records("Family name,Prénom,Nom\nCurie,Marie, Curie \nDupont,Jean,\n",
                               ["Prénom+Nom=admin_display_name"])
        #expect(read.map { $0.fields[.adminDisplayName] } == ["Marie Curie", "Jean"])
        #expect(read.map { $0.fields[.familyName] } == ["Curie", "Dupont"])
    }

    /// A header that names a join literally is that header, not a join.
    @Test func aHeaderWithAPlusIsReadWhole() throws {
        let read = try records("family_name,Parent+Guardian\nCurie,Marie\n", ["Parent+Guardian=admin_display_name"])
        #expect(read.map { $0.fields[.adminDisplayName] } == ["Marie"])
    }

    /// `--map` twice for one field: refused, with the join to write instead (not the two maps again).
    @Test func oneFieldMappedTwiceAdvisesTheJoin() throws {
        #expect(throws: HeaderMappingProblem.columnTwice(column: "admin_display_name", headers: ["Prénom", "Nom"])) {
            try HeaderMapping(arguments: ["Prénom=admin_display_name", "Nom=admin_display_name"])
        }
        let message = HeaderMappingProblem.columnTwice(column: "admin_display_name", headers: ["Prénom", "Nom"]).localizedDescription
        #expect(message.contains("--map \"Prénom+Nom=admin_display_name\""), "\(message)")
    }

    /// One header for two fields names the header once and both fields.
    @Test func oneHeaderMappedTwiceNamesItOnce() throws {
        #expect(throws: HeaderMappingProblem.headerTwice(header: "Nom", columns: ["family_name", "external_id"])) {
            try HeaderMapping(arguments: ["Nom=family_name", "Nom=external_id"])
        }
        let message = HeaderMappingProblem.headerTwice(header: "Nom", columns: ["family_name", "external_id"]).localizedDescription
        #expect(message.contains("\"Nom\" for both family_name and external_id") && !message.contains("Nom and Nom"), "\(message)")
    }

    /// A part of a join the file does not have is named alone, with the file's headers.
    @Test func aJoinPartNotInTheFileIsNamed() throws {
        #expect(throws: CSVImportError.headerMapping(.headerNotInFile(header: "Last", headers: ["family_name", "First"]))) {
            _ = try records("family_name,First\nCurie,Marie\n", ["First+Last=admin_display_name"])
        }
    }
}
