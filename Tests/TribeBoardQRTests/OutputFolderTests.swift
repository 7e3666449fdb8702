import Foundation
import Testing
import TribeBoardDomain
import TribeBoardSupport
import TribeBoardTestSupport
@testable import TribeBoardQR

/// The output folder holds the codes' PNGs, which are secrets: `qr/` is owner-only whatever it
/// was, a link is never followed, files are named by family id, not by code.
@Suite("QR codes: the output folder")
struct OutputFolderTests {
    @Test func aNewFolderAndItsQRFolderAreOwnerOnly() throws {
        let folder = try TemporaryDirectory("qr-out")
        let output = OutputFolder(path: folder.file("out"))
        let preparation = try output.prepare()
        #expect(FileMode.of(output.path) == 0o700 && FileMode.of(output.qrDirectory) == 0o700)
        #expect(!preparation.tightenedQRDirectory && !preparation.outputIsWorldReadable)
    }

    @Test func anOpenQRFolderIsTightenedAndAnOpenOutputSaidOutLoud() throws {
        let folder = try TemporaryDirectory("qr-out")
        let output = OutputFolder(path: folder.file("out"))
        try FileManager.default.createDirectory(atPath: output.qrDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        #expect(chmod(output.path, 0o777) == 0)
        let preparation = try output.prepare()
        #expect(preparation.tightenedQRDirectory && FileMode.of(output.qrDirectory) == 0o700)
        #expect(preparation.outputIsWorldReadable && preparation.outputIsWorldWritable)
        #expect(FileMode.of(output.path) == 0o777, "the operator's own folder is left as it is")
    }

    @Test func aLinkedFolderIsRefused() throws {
        let folder = try TemporaryDirectory("qr-out")
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.file("out"), withDestinationPath: folder.file("real"))
        #expect(throws: FileSystemError.self) { try OutputFolder(path: folder.file("out")).prepare() }
        #expect(!FileManager.default.fileExists(atPath: folder.file("real/qr")))
    }

    @Test func aPNGIsNamedByFamilyIDNotByCode() {
        let id = FamilyID(rawValue: "0190a1b2-0000-7000-8000-000000000001")
        #expect(QRCodeFiles.relativePath(for: id) == "qr/0190a1b2-0000-7000-8000-000000000001.png")
    }
}
