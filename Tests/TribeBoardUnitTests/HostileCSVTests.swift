import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCSV

/// Quoting mistakes as people make them by hand: a stray character after a closing quote, a
/// quote inside an unquoted field. CSV.swift alone reads `"Smith" x` by staying in the quoted
/// field and swallowing the following lines; each such record must fail alone, by line and column,
/// and every record after it must be read as written.
@Suite("Hostile CSV")
struct HostileCSVTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("hostile-csv") }

    func records(_ text: String) throws -> [FamilyCSVRecord] {
        let path = try folder.write("input.csv", text)
        let scan = try CSVPreScan.scan(path: path)
        let reader = try FamilyCSVReader(path: path, malformed: scan.malformedRecords)
        var records: [FamilyCSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(scan.dataRecords == records.count, "pre-scan count")
        return records
    }

    static let strays = [
        ("E3,\"Smith\" ", 1, "a space after the closing quote"),
        ("\"E3\" ,Smith", 0, "a space after the closing quote"),
        ("E3,\"Smith\"x", 1, "\"x\" after the closing quote"),
        ("E3,Smith \"Jr\"", 1, "a quote inside a field"),
    ]

    @Test(arguments: strays) func aStrayCharacterFailsItsRecordAloneAndTheRestIsRead(stray: (String, Int, String)) throws {
        // The later quoted field is what CSV.swift would have swallowed the lines up to.
        let text = "external_id,family_name\nE1,Ames\nE2,Brook\n\(stray.0)\nE4,\"Cole, Jr\"\nE5,Dunn\n"
        let read = try records(text)
        #expect(read.map(\.line) == [2, 3, 4, 5, 6])
        #expect(read.map { $0.fields[.externalId] } == ["E1", "E2", nil, "E4", "E5"])
        #expect(read.map { $0.fields[.familyName] } == ["Ames", "Brook", nil, "Cole, Jr", "Dunn"])
        let bad = try #require(read[2].malformed)
        #expect(bad.column == ["external_id", "family_name"][stray.1])
        #expect(bad.message.contains(stray.2), "\(bad.message)")
    }

    @Test func aMalformedRecordSpanningLinesKeepsTheLineNumbersOfTheRest() throws {
        let text = "family_name,external_id\r\n\"Two\r\nlines\"!,E1\r\nBrook,E2\r\n\"Cole\",\"E3\"\r\n"
        let read = try records(text)
        #expect(read.map(\.line) == [2, 4, 5])
        #expect(read[0].malformed?.column == "family_name")
        #expect(read[1].fields == [.familyName: "Brook", .externalId: "E2"])
        #expect(read[2].fields == [.familyName: "Cole", .externalId: "E3"])
    }

    @Test func severalMalformedRecordsComeInFileOrder() throws {
        let read = try records("family_name\n\"A\"x\nBrook\n\"C\"y\n\"D\"z\nEvans")
        #expect(read.map(\.line) == [2, 3, 4, 5, 6])
        #expect(read.map { $0.malformed != nil } == [true, false, true, true, false])
        #expect(read[4].fields == [.familyName: "Evans"])
    }

    @Test func aMalformedHeaderRefusesTheFile() throws {
        let path = try folder.write("input.csv", "\"family_name\" ,external_id\nSmith,E1\n")
        #expect(throws: CSVImportError.self) { try CSVPreScan.scan(path: path) }
        do {
            _ = try CSVPreScan.scan(path: path)
        } catch {
            guard case .malformedHeader(let record) = error else { Issue.record("\(error)"); return }
            #expect(record.line == 1 && record.field == 1)
        }
    }

    @Test func provisionFailsOnlyTheMalformedRowAndCreatesTheOthers() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run("external_id,family_name\nE1,Ames\nE2,\"Brook\" \nE3,Cole\nE4,\"Dunn\"\n")
        #expect(report.created == 3)
        #expect(report.failed == 1)
        let manifest = try workspace.manifest()
        #expect(manifest.map(\.status) == ["created", "failed", "created", "created"])
        #expect(manifest.map(\.externalId) == ["E1", "", "E3", "E4"])
        #expect(manifest[1].line == 3)
        #expect(manifest[1].error.contains("family_name"), "\(manifest[1].error)")
        #expect(try workspace.count("families") == 3)
    }
}
