import CCloudKitCrypto
import Foundation

/// Server-to-server authentication as Apple documents it, checked on the server's side with
/// libcrypto directly (not the client's signer): the message `date:base64(SHA-256(body)):subpath`,
/// an ECDSA P-256 / SHA-256 DER signature, and a date close to the server's clock.
struct RequestSignature {
    static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"
    static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"
    static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"

    var keyID: String
    var date: String
    var signature: String

    /// The signed message, built from the documented recipe.
    static func message(date: String, body: [UInt8], subpath: String) -> [UInt8] {
        var output = [CChar](repeating: 0, count: 64)
        let status = body.withUnsafeBytes {
            tb_sha256_base64($0.baseAddress, $0.count, &output, output.count)
        }
        let hash =
            status == 0
            ? String(
                decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : ""
        return Array("\(date):\(hash):\(subpath)".utf8)
    }

    /// Whether the signature is `publicKeyPEM`'s over the request.
    func verifies(body: [UInt8], subpath: String, publicKeyPEM: [UInt8]) -> Bool {
        guard let signature = Data(base64Encoded: signature) else { return false }
        let message = Self.message(date: date, body: body, subpath: subpath)
        let bytes = Array(signature)
        var error = [CChar](repeating: 0, count: 256)
        let status = publicKeyPEM.withUnsafeBufferPointer { pem in
            pem.withMemoryRebound(to: CChar.self) { chars in
                tb_ecdsa_p256_verify(
                    chars.baseAddress, pem.count, message, message.count, bytes, bytes.count,
                    &error, error.count)
            }
        }
        return status == 0
    }

    /// `2026-11-21T10:15:43Z`: UTC, whole seconds.
    static func parseDate(_ text: String) -> Date? {
        guard text.hasSuffix("Z"), !text.contains(".") else { return nil }
        return try? Date(text, strategy: .iso8601)
    }
}

/// The keys registered in the CloudKit Dashboard: each belongs to one container (or, for the
/// single-container command line `--key`, to whichever container a request names). Each key
/// acts as its own developer ("as the developer who created the key"): two keys, two creators.
struct KeyRing {
    struct Key {
        var publicKeyPEM: [UInt8]
        /// nil: any container.
        var container: String?
    }

    private(set) var keys: [String: Key] = [:]
    /// Key ids in the order they were registered.
    private var order: [String] = []

    mutating func register(id: String, publicKeyPEM: [UInt8], container: String?) {
        if keys[id] == nil { order.append(id) }
        keys[id] = Key(publicKeyPEM: publicKeyPEM, container: container)
    }

    /// The user record a key acts as: its developer's, one per key.
    static func developer(keyID: String) -> String { "_developer_" + keyID }

    /// Who wrote records seeded without a creator: the developer of the first key registered
    /// that opens `container` (the one a test or a rehearsal then writes with).
    func firstDeveloper(of container: String) -> String? {
        order.first { keys[$0]?.container == nil || keys[$0]?.container == container }.map(
            Self.developer(keyID:))
    }

    /// The developer a request authentic for `container` acts as; otherwise Apple's refusal.
    func authenticate(
        _ headers: (String) -> String?, body: [UInt8], subpath: String, container: String,
        serverClock: Date, maxClockSkew: Double
    ) throws(Refusal) -> String {
        if let refusal = check(
            headers, body: body, subpath: subpath, container: container,
            serverClock: serverClock, maxClockSkew: maxClockSkew)
        {
            throw refusal
        }
        return Self.developer(keyID: headers(RequestSignature.keyIDHeader) ?? "")
    }

    private func check(
        _ headers: (String) -> String?, body: [UInt8], subpath: String, container: String,
        serverClock: Date, maxClockSkew: Double
    ) -> Refusal? {
        guard let keyID = headers(RequestSignature.keyIDHeader),
            let date = headers(RequestSignature.dateHeader),
            let signatureText = headers(RequestSignature.signatureHeader)
        else {
            return Refusal(.authenticationFailed, "missing X-Apple-CloudKit-Request-* headers")
        }
        guard let key = keys[keyID] else { return Refusal(.authenticationFailed, "Unknown key ID") }
        // A key from another container's Dashboard does not open this one.
        guard key.container == nil || key.container == container else {
            return Refusal(
                .authenticationFailed, "the key is not registered for container \(container)")
        }
        guard let sent = RequestSignature.parseDate(date) else {
            return Refusal(
                .authenticationFailed,
                "the request date \(date) is not ISO 8601 UTC without fractional seconds")
        }
        let skew = abs(sent.timeIntervalSince(serverClock))
        guard skew <= maxClockSkew else {
            return Refusal(
                .authenticationFailed,
                "the request date is \(Int(skew)) s away from the server's clock")
        }
        let request = RequestSignature(keyID: keyID, date: date, signature: signatureText)
        guard request.verifies(body: body, subpath: subpath, publicKeyPEM: key.publicKeyPEM) else {
            return Refusal(.authenticationFailed, "the signature does not match")
        }
        return nil
    }
}
