import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCSV

/// Files as spreadsheets other than a US Excel write them: semicolons (Excel in most of Europe),
/// tabs, Excel's `sep=` first line, UTF-16 "Unicode Text".
@Suite("CSV formats")
struct CSVFormatTests {
    let workspace: ProvisionWorkspace

    init() throws { workspace = try ProvisionWorkspace() }

    @Test(arguments: [
        ("\u{FEFF}external_id;family_name\r\nE1;Müller\r\nE2;Dupont, fils\r\n", "semicolon"),
        ("external_id\tfamily_name\nE1\tMüller\nE2\tDupont, fils\n", "tab"),
        ("\u{FEFF}sep=;\r\nexternal_id;family_name\r\nE1;Müller\r\nE2;Dupont, fils\r\n", "sep= line"),
    ])
    func spreadsheetDelimitersAreRead(text: String, kind: String) throws {
        let report = try workspace.run(text)
        #expect(report.created == 2, "\(kind)")
        let manifest = try workspace.manifest()
        #expect(manifest.map(\.familyName) == ["Müller", "Dupont, fils"], "\(kind)")
        #expect(manifest.map(\.externalId) == ["E1", "E2"], "\(kind)")
        let firstDataLine = kind == "sep= line" ? 3 : 2
        #expect(manifest.map(\.line) == [firstDataLine, firstDataLine + 1], "\(kind)")
    }

    @Test func aMalformedRecordInASemicolonFileFailsAlone() throws {
        let report = try workspace.run("sep=;\nexternal_id;family_name\nE1;\"Ames\" x\nE2;Brook\n")
        #expect(report.created == 1 && report.failed == 1)
        let manifest = try workspace.manifest()
        #expect(manifest.map(\.line) == [3, 4])
        #expect(manifest[0].error.contains("after the closing quote"))
    }

    @Test(arguments: ["utf-16", "utf-16-le"])
    func utf16IsRefusedWithTheWayOut(encoding: String) throws {
        let text = "family_name,external_id\nSmith,E1\n"
        let data = encoding == "utf-16" ? text.data(using: .utf16)! : text.data(using: .utf16LittleEndian)!  // with and without BOM
        let path = workspace.folder.file("unicode.csv")
        try data.write(to: URL(fileURLWithPath: path))
        #expect(throws: CSVImportError.utf16) { try CSVPreScan.scan(path: path) }
    }

    /// UTF-32 starts as UTF-16 does (FF FE) and is zeros three bytes in four: it must be named as
    /// what it is, or the operator saves it as UTF-16 next and is refused again. Encoded by Foundation.
    @Test(arguments: ["utf-32", "utf-32-le", "utf-32-be"])
    func utf32IsCalledUTF32(encoding: String) throws {
        let text = "family_name,external_id\nSmith,E1\n"
        let data = switch encoding {
        case "utf-32": text.data(using: .utf32)  // with a BOM
        case "utf-32-le": text.data(using: .utf32LittleEndian)
        default: text.data(using: .utf32BigEndian)
        }
        let path = workspace.folder.file("unicode32.csv")
        try #require(data).write(to: URL(fileURLWithPath: path))
        #expect(throws: CSVImportError.utf32) { try CSVPreScan.scan(path: path) }
        #expect(CSVImportError.utf32.localizedDescription.contains("UTF-32"))
    }

    @Test func aHeaderWithoutFamilyNameSaysWhatWasRead() throws {
        let path = try workspace.folder.write("pipes.csv", "family_name|external_id\nSmith|E1\n")
        let scan = try CSVPreScan.scan(path: path)
        #expect(scan.format == .standard)
        do {
            _ = try FamilyCSVReader(path: path, format: scan.format)
            Issue.record("expected a missing column")
        } catch {
            guard case .missingColumnInHeader(_, let header, let delimiter) = error else { Issue.record("\(error)"); return }
            #expect(header == ["family_name|external_id"])
            #expect(delimiter == "comma")
        }
    }
}
