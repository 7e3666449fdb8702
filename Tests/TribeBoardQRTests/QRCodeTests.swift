import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardQR

/// The QR codes on the cards, checked against what we did not write: the `qrencode` CLI (the same
/// library, another caller) for the modules, zbarimg for the PNG a phone camera reads.
@Suite("QR codes: modules and PNG files")
struct QRCodeTests {
    /// The dark modules, one text line per row, as `qrencode -t ASCII` draws them ("##" a module).
    static func drawn(_ code: String) throws -> [String] {
        try QRCodeEncoder.withModules(of: code) { modules in
            (0..<modules.width).map { y in
                (0..<modules.width).map { modules.isDark(x: $0, y: y) ? "##" : "  " }.joined()
                    .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            }
        }
    }

    @Test(arguments: ["ABC234", "ZZ9XQ7M2", "ext:a-b c"])
    func theModulesAreTheQrencodeCLIsAtLevelM(code: String) throws {
        let cli = try ProcessRunner.run("/usr/bin/qrencode", ["-l", "M", "-t", "ASCII", "-m", "0", "-o", "-", code])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = cli.stdout.split(separator: "\n").map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        #expect(try Self.drawn(code) == expected)
    }

    /// The PNG holds the code a reader finds, at `scale` pixels a module with a quiet zone of four
    /// modules each side (the size is in the IHDR chunk, bytes 16-23).
    @Test(arguments: [1, 3, 8])
    func thePNGIsReadBackAtItsScale(scale: Int) throws {
        let folder = try TemporaryDirectory("qr")
        let png = try QRCodePNGRenderer(scale: scale).png(for: "ABC234")
        let path = folder.file("code.png")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(png)))
        if scale >= 3 { #expect(try QRReader.decode([path]) == ["ABC234"]) }
        let width = try QRCodeEncoder.withModules(of: "ABC234") { $0.width }
        let side = (width + 2 * QRCodePNGRenderer.quietZoneModules) * scale
        let header = Array(png.prefix(24))
        #expect(header.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(header[16..<20].reduce(0) { $0 << 8 | Int($1) } == side)
        #expect(header[20..<24].reduce(0) { $0 << 8 | Int($1) } == side)
    }

    @Test(arguments: [0, -1, 65])
    func aScaleOutsideOneToSixtyFourIsRefused(scale: Int) {
        #expect(throws: QRCodeError.invalidScale(scale)) { try QRCodePNGRenderer(scale: scale) }
    }
}
