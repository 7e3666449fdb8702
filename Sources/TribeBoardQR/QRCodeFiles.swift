import Foundation
import TribeBoardDomain

/// Where a family's QR PNG lives inside the output folder. Named by family id, not by code, so
/// that a listing of the folder does not reveal the codes.
package enum QRCodeFiles {
    static let directoryName = "qr"

    package static func relativePath(for familyID: FamilyID) -> String {
        "\(directoryName)/\(familyID).png"
    }
}

extension QRCodeFiles {
    /// The bytes of an existing PNG, or nil when there is none to compare (missing, a symlink, not
    /// a regular file, or larger than any QR PNG this toolkit writes).
    package static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            status.st_size <= 1 << 20
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count == bytes.count ? bytes : nil
    }
}
