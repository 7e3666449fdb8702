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

    /// Read from outside without end (docs/guarantees.md, "Bounds on what is read"): the copy of a device or a
    /// FIFO and the pre-scan of a regular file stop at the bound with csv.tooLarge. The bound is
    /// lowered here so the test reads 1 MB, not 256 MB.
    @Test("/dev/zero as the input stops at the bound instead of filling the disk")
    func endlessDevice() throws {
        #expect(throws: CSVImportError.tooLarge(path: "/dev/zero")) { try CSVSource("/dev/zero", limit: 1 << 20) }
    }

    @Test("an endless FIFO stops at the bound and the run does not hang")
    func endlessFIFO() throws {
        let fifo = folder.file("endless.csv")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            let line = Array("family_name\nSmith\n".utf8)
            // Until the reader closes its end (EPIPE: the test process ignores SIGPIPE).
            while line.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
        signal(SIGPIPE, SIG_IGN)
        writer.start()
        #expect(throws: CSVImportError.tooLarge(path: fifo)) { try CSVSource(fifo, limit: 1 << 20) }
    }

    @Test("a regular file past the bound is refused by the pre-scan, by name")
    func largeRegularFile() throws {
        let path = try folder.write("large.csv", "family_name\n" + String(repeating: "Smith\n", count: 200_000))
        #expect(throws: CSVImportError.tooLarge(path: path)) { try CSVPreScan.scan(path: path, limit: 1 << 20) }
        #expect(try CSVPreScan.scan(path: path).dataRecords == 200_000)
    }
}

