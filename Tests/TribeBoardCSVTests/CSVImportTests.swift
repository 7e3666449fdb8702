import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCSV

/// FamilyCSVReader and CSVPreScan read the same files the same way.
@Suite("CSV import")
struct CSVImportTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory("csv")
    }

    func writeBytes(_ bytes: [UInt8]) throws -> String {
        let path = folder.file("input.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every record of the file, after checking that the pre-scan counts the same number.
    func readAll(_ path: String) throws -> [FamilyCSVRecord] {
        let reader = try FamilyCSVReader(path: path)
        var records: [FamilyCSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(try CSVPreScan.scan(path: path).dataRecords == records.count, "pre-scan count")
        return records
    }

    @Test func stripsTheUTF8ByteOrderMark() throws {
        let path = try folder.write("input.csv", "family_name,external_id\nSmith,E1\n", bom: true)
        let reader = try FamilyCSVReader(path: path)
        #expect(reader.columns == [.familyName, .externalId])
        #expect(reader.unknownColumns.isEmpty)
        #expect(try reader.next()?.fields == [.familyName: "Smith", .externalId: "E1"])
        #expect(try CSVPreScan.scan(path: path).dataRecords == 1)
    }

    @Test func readsCRLFLineEnds() throws {
        let path = try folder.write("input.csv", "family_name,external_id\r\nSmith,E1\r\nJones,E2\r\n")
        let records = try readAll(path)
        #expect(records.map(\.fields) == [[.familyName: "Smith", .externalId: "E1"], [.familyName: "Jones", .externalId: "E2"]])
        #expect(records.map(\.line) == [2, 3])
    }

    @Test func quotedFieldsKeepCommasQuotesAndNewlines() throws {
        let text = """
            family_name,external_id
            "Smith, Jones",E1
            "The ""Best"" Family",E2
            "Line one
            line two
            line three",E3
            After,E4

            """
        let records = try readAll(try folder.write("input.csv", text))
        #expect(records.map { $0.fields[.familyName] } == ["Smith, Jones", "The \"Best\" Family", "Line one\nline two\nline three", "After"])
        #expect(records.map { $0.fields[.externalId] } == ["E1", "E2", "E3", "E4"])
        // The record after the field with two embedded newlines starts three lines after it.
        #expect(records.map(\.line) == [2, 3, 4, 7])
        #expect(records.allSatisfy { $0.fieldCountMismatch == nil })
    }

    @Test func embeddedCRLFCountsAsOneLine() throws {
        let path = try folder.write("input.csv", "family_name,external_id\r\n\"A\r\nB\",E1\r\nC,E2\r\n")
        let records = try readAll(path)
        #expect(records.map(\.line) == [2, 4])
        #expect(records.first?.fields[.externalId] == "E1")
    }

    @Test func headerIsCaseInsensitiveInAnyOrder() throws {
        let path = try folder.write("input.csv", " External_ID ,Notes,FAMILY_NAME,Admin_Display_Name,region\nE1,hi,Smith,Ann,north\n")
        let reader = try FamilyCSVReader(path: path)
        #expect(reader.columns == [.externalId, .familyName, .adminDisplayName])
        #expect(reader.unknownColumns == ["Notes", "region"])
        let record = try #require(try reader.next())
        #expect(record.fields == [.externalId: "E1", .familyName: "Smith", .adminDisplayName: "Ann"])
        #expect(record.line == 2)
    }

    @Test func missingFamilyNameColumnIsRefused() throws {
        let path = try folder.write("input.csv", "external_id,name\nE1,Smith\n")
        #expect(throws: CSVImportError.self) { try FamilyCSVReader(path: path) }
    }

    @Test func duplicateColumnIsRefused() throws {
        let path = try folder.write("input.csv", "family_name,external_id,Family_Name\nSmith,E1,Jones\n")
        #expect(throws: CSVImportError.duplicateColumn("family_name")) { try FamilyCSVReader(path: path) }
    }

    @Test func emptyFileIsRefused() throws {
        let path = try folder.write("input.csv", "")
        #expect(throws: CSVImportError.empty) { try FamilyCSVReader(path: path) }
        #expect(throws: CSVImportError.empty) { try CSVPreScan.scan(path: path) }
    }

    @Test func headerOnlyFileHasNoRecords() throws {
        for text in ["family_name,external_id\n", "family_name,external_id"] {
            let path = try folder.write("input.csv", text)
            #expect(try CSVPreScan.scan(path: path).dataRecords == 0)
            #expect(try FamilyCSVReader(path: path).next() == nil)
        }
    }

    @Test func missingFileIsReported() {
        let path = folder.file("absent.csv")
        #expect(throws: CSVImportError.cannotOpen(path: path, reason: "no such file")) { try CSVPreScan.scan(path: path) }
        #expect(throws: CSVImportError.self) { try FamilyCSVReader(path: path) }
    }

    @Test func unterminatedQuoteIsReportedWhereItOpens() throws {
        let text = "family_name,external_id\nSmith,E1\n\"Jones,E2\nBrown,E3\nGreen,E4\n"
        let path = try folder.write("input.csv", text)
        #expect(throws: CSVImportError.unterminatedQuote(line: 3)) { try CSVPreScan.scan(path: path) }
    }

    @Test func invalidUTF8IsReportedWithItsLine() throws {
        let bytes = Array("family_name\nSmith\nJo".utf8) + [0xFF] + Array("nes\nBrown\n".utf8)
        #expect(throws: CSVImportError.invalidUTF8(line: 3)) { try CSVPreScan.scan(path: try writeBytes(bytes)) }
    }

    @Test func truncatedUTF8SequenceIsReportedWithItsLine() throws {
        // The lead byte of "ü" (C3 BC) followed by a plain letter.
        let bytes = Array("family_name\nSmith\nM".utf8) + [0xC3] + Array("ller\n".utf8)
        #expect(throws: CSVImportError.invalidUTF8(line: 3)) { try CSVPreScan.scan(path: try writeBytes(bytes)) }
    }

    @Test(arguments: [
        [UInt8]([0xED, 0xA0, 0xBD]),        // a UTF-16 surrogate encoded as UTF-8 (CESU-8, as some exports write emoji)
        [UInt8]([0xE0, 0x80, 0xAF]),        // an overlong encoding of "/"
        [UInt8]([0xF4, 0x90, 0x80, 0x80]),  // beyond U+10FFFF
    ])
    func utf8ThatDecodersRefuseIsReportedWithItsLine(sequence: [UInt8]) throws {
        let bytes = Array("family_name\nSmith\nJo".utf8) + sequence + Array("nes\nBrown\nGreen\n".utf8)
        let path = try writeBytes(bytes)
        #expect(throws: CSVImportError.invalidUTF8(line: 3)) { try CSVPreScan.scan(path: path) }
    }

    @Test func blankLinesAreSkippedAndNotCounted() throws {
        let text = "family_name,external_id\nSmith,E1\n\n   \r\nJones,E2\n\n"
        let records = try readAll(try folder.write("input.csv", text))
        #expect(records.map { $0.fields[.familyName] } == ["Smith", "Jones"])
        #expect(records.map(\.line) == [2, 5])
    }

    @Test func rowsOfOnlyEmptyFieldsAreSkippedAndNotCounted() throws {
        // Spreadsheets export trailing empty rows as bare commas.
        let path = try folder.write("input.csv", "family_name,external_id,admin_display_name\nSmith,E1,Ann\n,,\nJones,E2,Bob\n,,\n")
        let reader = try FamilyCSVReader(path: path)
        var records: [FamilyCSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.map { $0.fields[.familyName] } == ["Smith", "Jones"])
        #expect(records.map(\.line) == [2, 4])
        let counted = try CSVPreScan.scan(path: path).dataRecords
        #expect(counted == records.count)
    }

    @Test func rowWithExtraOrMissingFieldsIsFlagged() throws {
        let text = "family_name,external_id\nSmith,E1,extra\nJones\nBrown,E3\n"
        let records = try readAll(try folder.write("input.csv", text))
        try #require(records.count == 3)
        #expect(records[0].fieldCountMismatch?.found == 3)
        #expect(records[0].fieldCountMismatch?.expected == 2)
        #expect(records[1].fieldCountMismatch?.found == 1)
        #expect(records[1].fieldCountMismatch?.expected == 2)
        #expect(records[2].fieldCountMismatch == nil)
        #expect(records.map(\.line) == [2, 3, 4])
    }

    @Test func preScanHandlesFilesLargerThanOneReadChunk() throws {
        // About 75 KB: the pre-scan reads it in several 64 KiB chunks and must carry its state across them.
        let rows = (1...3_000).map { "\"Müller, \($0)\",E\($0)" }
        let path = try folder.write("input.csv", "family_name,external_id\r\n" + rows.joined(separator: "\r\n") + "\r\n")
        let records = try readAll(path)
        #expect(records.count == 3_000)
        #expect(records.last?.line == 3_001)
        #expect(records.last?.fields[.familyName] == "Müller, 3000")
    }
}
