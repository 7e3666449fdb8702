import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCases

/// `--from-file`: the list a support person saves from a ticket or a spreadsheet.
@Suite("Cases: the --from-file list")
struct FamilyListTests {
    @Test func blankLinesCommentsAndSpacesAreSkipped() throws {
        let folder = try TemporaryDirectory("cases-list")
        let path = try folder.write("ids.txt", "# from ticket 12\r\n  ABC234  \n\nE-17\r\n#E-18\n0190a1b2-0000-7000-8000-000000000001")
        #expect(try FamilyList.read(path) == ["ABC234", "E-17", "0190a1b2-0000-7000-8000-000000000001"])
    }

    /// Pasted from a spreadsheet or a chat: tabs, no-break and zero-width spaces around an id are
    /// trimmed as every command naming a family trims them; a line of nothing else is blank.
    @Test func tabsAndNoBreakSpacesAreTrimmed() throws {
        let folder = try TemporaryDirectory("cases-list")
        let path = try folder.write("ids.txt", "\tABC234\u{00A0}\n\u{00A0}\u{200B}\n\u{FEFF}E-17\t\n\u{3000}# a comment\n")
        #expect(try FamilyList.read(path) == ["ABC234", "E-17"])
    }

    /// A link is not followed (nothing the toolkit did not create is), and a list larger than any
    /// list of families is refused before it is read.
    @Test func aLinkAndAnOversizedFileAreRefused() throws {
        let folder = try TemporaryDirectory("cases-list")
        let target = try folder.write("ids.txt", "ABC234\n")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.txt"), withDestinationPath: target)
        let linked = #expect(throws: CaseError.self) { try FamilyList.read(folder.file("link.txt")) }
        guard case .list = linked else { Issue.record("\(String(describing: linked))"); return }
        let large = folder.file("large.txt")
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        #expect(truncate(large, off_t(FamilyList.maxBytes + 1)) == 0)
        let tooLarge = #expect(throws: CaseError.self) { try FamilyList.read(large) }
        guard case .listTooLarge(let path, let limit) = tooLarge else { Issue.record("\(String(describing: tooLarge))"); return }
        #expect(path == large && limit == FamilyList.maxBytes)
    }
}
