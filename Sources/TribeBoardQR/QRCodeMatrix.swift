import CQRencode
import Foundation

/// The modules of a QR code as libqrencode computed them (no quiet zone), borrowed for the
/// duration of a closure: a bulk run renders each symbol once, so it is never copied.
package struct QRCodeModules {
    package let width: Int
    let data: UnsafePointer<UInt8>

    /// Bit 0 of each libqrencode byte is the module's colour; the other bits describe its role.
    package func isDark(x: Int, y: Int) -> Bool { data[y * width + x] & 1 == 1 }
}

package enum QRCodeError: Error, Equatable, LocalizedError {
    case encodingFailed(reason: String)
    case pngEncodingFailed(reason: String)
    case invalidScale(Int)

    package var errorDescription: String? {
        switch self {
        case .encodingFailed(let reason): return "libqrencode could not encode the code: \(reason)"
        case .pngEncodingFailed(let reason):
            return "libpng could not encode the QR image: \(reason)"
        case .invalidScale(let scale):
            return "QR scale must be between 1 and 64 pixels per module, got \(scale)"
        }
    }
}

package enum QRCodeEncoder {
    /// Encodes `text` at error-correction level M with the same call the `qrencode` CLI makes
    /// (8-bit hint, case-sensitive), so the modules match `qrencode -l M` exactly.
    package static func withModules<Result>(
        of text: String,
        _ body: (QRCodeModules) throws(QRCodeError) -> Result
    ) throws(QRCodeError) -> Result {
        guard let qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw .encodingFailed(reason: String(cString: strerror(errno)))
        }
        defer { QRcode_free(qr) }
        let width = Int(qr.pointee.width)
        guard width > 0, let data = qr.pointee.data else {
            throw .encodingFailed(reason: "empty symbol")
        }
        return try body(QRCodeModules(width: width, data: UnsafePointer(data)))
    }
}
