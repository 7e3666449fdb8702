import CCloudKitCrypto
import Foundation
import TribeBoardCloudKit

/// The name `migrate legacy-types` gives the copy of a legacy record: a UUID (the app's record
/// names are uppercase UUIDs) made of SHA-256 of the old name, version 8 ("custom") as RFC 9562
/// allows. Every run derives the same name, so migrate finds its own copies and the audit can tell
/// a legacy record from the family it became. There is no other way to derive it: a name made
/// another way would be another record's name, and a rerun would copy every record again.
package enum LegacyCopyName {
    package static func of(_ legacyName: String) throws(LegacyCopyNameError) -> String {
        try of(legacyName, digest: sha256)
    }

    /// `digest` is SHA-256 (tests give one that fails); nil, or fewer than 16 bytes, is a failure.
    static func of(_ legacyName: String, digest: ([UInt8]) -> [UInt8]?) throws(LegacyCopyNameError)
        -> String
    {
        let message = Array("tribeboard-migrate legacy-types \(legacyName)".utf8)
        guard let hash = digest(message), hash.count >= 16 else {
            throw .hashUnavailable(legacyName: legacyName)
        }
        var bytes = Array(hash.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        ).uuidString
    }

    /// libcrypto's SHA-256 (through its base64 form, what the C target exports); nil if it failed.
    static func sha256(_ message: [UInt8]) -> [UInt8]? {
        var encoded = [CChar](repeating: 0, count: 64)
        guard tb_sha256_base64(message, message.count, &encoded, encoded.count) == 0 else {
            return nil
        }
        let text = String(
            decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Data(base64Encoded: text).map(Array.init)
    }
}

/// The copy's name cannot be derived (libcrypto could not hash): the run stops rather than
/// derive a name the other runs, and the audit, would not.
package enum LegacyCopyNameError: Error, Equatable, LocalizedError {
    case hashUnavailable(legacyName: String)

    package var errorDescription: String? {
        switch self {
        case .hashUnavailable(let name):
            return "cannot derive the name of the copy of \(name): libcrypto's SHA-256 failed (is libssl3 installed and working?); nothing was copied"
        }
    }
}
