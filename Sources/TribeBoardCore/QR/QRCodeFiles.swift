import Foundation

/// Where a family's QR PNG lives inside the output folder. Named by family id, not by code, so
/// that a listing of the folder does not reveal the codes.
public enum QRCodeFiles {
    public static let directoryName = "qr"

    public static func relativePath(for familyID: RecordID) -> String {
        "\(directoryName)/\(familyID).png"
    }

    /// Encodes `code` and writes its PNG atomically. A PNG already under that name was written by
    /// a concurrent run for the same family and code, so it is kept.
    public static func write(code: String, to path: String, renderer: QRCodePNGRenderer) throws -> Int {
        let png = try renderer.render(try QRCodeEncoder.encode(code))
        try AtomicFile.write(png, to: path, permissions: 0o600, whenPresent: .keepExisting)
        return png.count
    }
}
