import Foundation
import Testing
@testable import TribeBoardAudit
import TribeBoardTestSupport

/// The manifest line `recode` writes: every other byte of the file stays as it was.
@Suite struct RecodeManifestTests {
    let row = RecodeManifest.Row(externalID: "X-2", familyID: "F2", familyName: "=Durand, \"B\"", code: "NEWCODE", qrFile: "qr/F2.png")

    func updated(_ text: String) throws -> String {
        let folder = try TemporaryDirectory("recode-manifest")
        try folder.write("m.csv", text)
        return String(decoding: try RecodeManifest.updated(at: folder.file("m.csv"), with: row), as: UTF8.self)
    }

    @Test func theFamilysRowIsReplacedInPlaceAndQuotedFieldsWithLineBreaksSurvive() throws {
        let before = "line,external_id,family_id,family_name,code,qr_file,status,error\n"
            + "2,X-1,F1,\"two\nlines, and \"\"quotes\"\"\",OLD1,qr/F1.png,created,\n"
            + "3,X-2,F2,Durand,OLD2,qr/F2.png,created,\n"
            + "4,X-3,F3,Martin,OLD3,qr/F3.png,created,"
        let after = try updated(before)
        #expect(after == "line,external_id,family_id,family_name,code,qr_file,status,error\n"
                + "2,X-1,F1,\"two\nlines, and \"\"quotes\"\"\",OLD1,qr/F1.png,created,\n"
                + "3,X-2,F2,\"'=Durand, \"\"B\"\"\",NEWCODE,qr/F2.png,recoded,\n"
                + "4,X-3,F3,Martin,OLD3,qr/F3.png,created,")
    }

    @Test func aFamilyNotInTheManifestIsAppendedAfterALastLineWithoutBreak() throws {
        let after = try updated("family_id;code;extra\r\nF1;OLD1;kept")
        #expect(after == "family_id;code;extra\r\nF1;OLD1;kept\r\nF2;NEWCODE;\r\n")
    }

    @Test func aFileWithoutTheColumnsIsRefused() throws {
        #expect(throws: (any Error).self) { try updated("name,email\nA,a@b\n") }
    }

    @Test func aMissingManifestIsWrittenWithProvisionsColumns() throws {
        let folder = try TemporaryDirectory("recode-manifest")
        let written = String(decoding: try RecodeManifest.updated(at: folder.file("none.csv"), with: row), as: UTF8.self)
        #expect(written == "line,external_id,family_id,family_name,code,qr_file,status,error\n,X-2,F2,\"'=Durand, \"\"B\"\"\",NEWCODE,qr/F2.png,recoded,\n")
    }
}
