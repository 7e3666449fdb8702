import CCloudKitCrypto
import Foundation

/// The name `migrate legacy-types` gives the copy of a legacy record: a UUID (the app's record
/// names are uppercase UUIDs) made of SHA-256 of the old name, version 8 ("custom") as RFC 9562
/// allows. Every run derives the same name, so migrate finds its own copies and the audit can tell
/// a legacy record from the family it became.
package enum LegacyCopyName {
    package static func of(_ legacyName: String) -> String {
        let message = Array("tribeboard-migrate legacy-types \(legacyName)".utf8)
        var encoded = [CChar](repeating: 0, count: 64)
        let status = tb_sha256_base64(message, message.count, &encoded, encoded.count)
        let digest = status == 0 ? Data(base64Encoded: String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)).map(Array.init) : nil
        var bytes = Array((digest ?? fallbackDigest(message)).prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
    }

    /// Only if libcrypto failed to hash (it does not for a short message): FNV-1a, still deterministic.
    private static func fallbackDigest(_ message: [UInt8]) -> [UInt8] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var out: [UInt8] = []
        for round in 0..<2 {
            for byte in message + [UInt8(round)] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            out += withUnsafeBytes(of: hash.bigEndian, Array.init)
        }
        return out
    }
}
