import CQRencode
import Foundation

/// The modules of a QR code as libqrencode computed them (no quiet zone).
public struct QRCodeMatrix: Sendable {
    public let width: Int
    /// Row-major, `true` for a dark module.
    public let dark: [Bool]

    public func isDark(x: Int, y: Int) -> Bool { dark[y * width + x] }
}

public enum QRCodeError: Error, Equatable, LocalizedError {
    case encodingFailed(reason: String)
    case pngEncodingFailed(reason: String)
    case invalidScale(Int)

    public var errorDescription: String? {
        switch self {
        case .encodingFailed(let reason): return "libqrencode could not encode the code: \(reason)"
        case .pngEncodingFailed(let reason): return "libpng could not encode the QR image: \(reason)"
        case .invalidScale(let scale): return "QR scale must be between 1 and 64 pixels per module, got \(scale)"
        }
    }
}

public enum QRCodeEncoder {
    /// Encodes `text` at error-correction level M with the same call the `qrencode` CLI makes
    /// (8-bit hint, case-sensitive), so the modules match `qrencode -l M` exactly.
    public static func encode(_ text: String) throws(QRCodeError) -> QRCodeMatrix {
        guard let qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw .encodingFailed(reason: String(cString: strerror(errno)))
        }
        defer { QRcode_free(qr) }
        let width = Int(qr.pointee.width)
        guard width > 0, let data = qr.pointee.data else {
            throw .encodingFailed(reason: "empty symbol")
        }
        // Bit 0 of each byte is the module colour; the other bits describe the module's role.
        let dark = (0..<(width * width)).map { data[$0] & 1 == 1 }
        return QRCodeMatrix(width: width, dark: dark)
    }
}
