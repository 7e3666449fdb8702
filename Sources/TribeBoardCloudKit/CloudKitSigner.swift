import CCloudKitCrypto
import Foundation

/// Signs CloudKit Web Services requests with a server-to-server key, as Apple documents it:
/// the message `date:base64(SHA-256(body)):subpath` signed with ECDSA P-256 over SHA-256, DER,
/// base64, sent with the key id and the date in three headers.
package struct CloudKitSigner: Sendable, CustomStringConvertible {
    package static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"
    package static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"
    package static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"

    package let keyID: String
    private let privateKeyPEM: [UInt8]

    /// Reads the PEM key file. A key that group or others can read is refused: whoever reads it
    /// can write to the container.
    package init(keyID: String, keyFile: String) throws(CloudKitConfigurationError) {
        var info = stat()
        guard stat(keyFile, &info) == 0 else {
            throw .keyFileUnreadable(path: keyFile, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let reason = info.st_mode & S_IFMT == S_IFDIR
                ? "it is a folder; give the key file's path" : "it is not a regular file"
            throw .keyFileUnreadable(path: keyFile, reason: reason)
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else { throw .keyFilePermissions(path: keyFile, mode: mode) }
        guard let data = FileManager.default.contents(atPath: keyFile) else {
            throw .keyFileUnreadable(path: keyFile, reason: "permission denied")
        }
        try self.init(keyID: keyID, privateKeyPEM: Array(data))
    }

    package init(keyID: String, privateKeyPEM: [UInt8]) throws(CloudKitConfigurationError) {
        guard !keyID.isEmpty else { throw .missing("key id") }
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        // Fail now, with a clear reason, rather than on the first request.
        _ = try sign(Array("probe".utf8))
    }

    /// Never prints the key, and only the start of its id.
    package var description: String { "CloudKitSigner(keyID: \(keyID.prefix(8))…)" }

    /// The three authentication headers for a request with `body` to `subpath` (`/database/1/...`).
    package func headers(body: [UInt8], subpath: String, date: Date = Date())
        throws(CloudKitConfigurationError) -> [String: String]
    {
        let timestamp = Self.timestamp(date)
        let message = Self.message(timestamp: timestamp, body: body, subpath: subpath)
        let signature = try sign(Array(message.utf8))
        return [Self.keyIDHeader: keyID, Self.dateHeader: timestamp,
                Self.signatureHeader: Data(signature).base64EncodedString()]
    }

    /// `date:base64(SHA-256(body)):subpath`, the exact bytes that are signed.
    package static func message(timestamp: String, body: [UInt8], subpath: String) -> String {
        "\(timestamp):\(bodyHash(body)):\(subpath)"
    }

    static func bodyHash(_ body: [UInt8]) -> String {
        var output = [CChar](repeating: 0, count: 64)
        let status = body.withUnsafeBytes {
            tb_sha256_base64($0.baseAddress, $0.count, &output, output.count)
        }
        guard status == 0 else { return "" }
        return String(
            decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// UTC, no fractional seconds, as CloudKit requires.
    package static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash)
                .time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(
                    separator: .omitted))
    }

    func sign(_ message: [UInt8]) throws(CloudKitConfigurationError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 128)
        var length = signature.count
        var error = [CChar](repeating: 0, count: 256)
        let status = privateKeyPEM.withUnsafeBufferPointer { pem in
            message.withUnsafeBufferPointer { bytes in
                pem.withMemoryRebound(to: CChar.self) { pemChars in
                    tb_ecdsa_p256_sign(
                        pemChars.baseAddress, pem.count, bytes.baseAddress, bytes.count,
                        &signature, &length, &error, error.count)
                }
            }
        }
        guard status == 0 else {
            throw .invalidKey(
                reason: String(
                    decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            )
        }
        return Array(signature.prefix(length))
    }
}

/// Verification, for the emulator: the same primitive the real service applies.
package enum CloudKitSignatureVerifier {
    package static func isValid(signature: [UInt8], message: [UInt8], publicKeyPEM: [UInt8]) -> Bool
    {
        var error = [CChar](repeating: 0, count: 256)
        let status = publicKeyPEM.withUnsafeBufferPointer { pem in
            pem.withMemoryRebound(to: CChar.self) { pemChars in
                tb_ecdsa_p256_verify(pemChars.baseAddress, pem.count, message, message.count,
                                     signature, signature.count, &error, error.count)
            }
        }
        return status == 0
    }

    /// The public half of a private key, as the CloudKit Dashboard registers it.
    package static func publicKeyPEM(ofPrivateKey privateKeyPEM: [UInt8]) -> [UInt8]? {
        var output = [CChar](repeating: 0, count: 1024)
        var error = [CChar](repeating: 0, count: 256)
        let status = privateKeyPEM.withUnsafeBufferPointer { pem in
            pem.withMemoryRebound(to: CChar.self) { pemChars in
                tb_ecdsa_p256_public_pem(
                    pemChars.baseAddress, pem.count, &output, output.count, &error, error.count)
            }
        }
        guard status == 0 else { return nil }
        return output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }
}
