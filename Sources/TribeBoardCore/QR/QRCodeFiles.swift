import Foundation

/// Where a family's QR PNG lives inside the output folder. Named by family id, not by code, so
/// that a listing of the folder does not reveal the codes.
public enum QRCodeFiles {
    public static let directoryName = "qr"

    public static func relativePath(for familyID: RecordID) -> String {
        "\(directoryName)/\(familyID).png"
    }
}
