import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// Request signing, checked by an independent verifier: the openssl CLI.
@Suite("CloudKit request signing")
struct CloudKitSignerTests {
    let folder: TemporaryDirectory
    let keyPath: String

    init() throws {
        folder = try TemporaryDirectory("signer")
        keyPath = folder.file("eckey.pem")
        let made = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyPath])
        try #require(made.status == 0, "openssl is needed (make deps): \(made.stderr)")
        chmod(keyPath, 0o600)
    }

    @Test func signatureVerifiesWithOpenSSL() throws {
        let signer = try CloudKitSigner(keyID: "test-key-id", keyFile: keyPath)
        let body = Array(#"{"query":{"recordType":"Family"}}"#.utf8)
        let subpath = "/database/1/iCloud.net.dataenvy.TribeBoard/development/public/records/query"
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let headers = try signer.headers(body: body, subpath: subpath, date: date)

        #expect(headers[CloudKitSigner.keyIDHeader] == "test-key-id")
        let timestamp = try #require(headers[CloudKitSigner.dateHeader])
        #expect(timestamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)

        // Rebuild the signed message independently: date:base64(sha256(body)):subpath.
        try Data(body).write(to: URL(fileURLWithPath: folder.file("body")))
        let digest = try ProcessRunner.run("/bin/sh", ["-c", "openssl dgst -sha256 -binary '\(folder.file("body"))' | base64"])
        let message = "\(timestamp):\(digest.stdout.trimmingCharacters(in: .whitespacesAndNewlines)):\(subpath)"
        try Data(message.utf8).write(to: URL(fileURLWithPath: folder.file("message")))
        let encoded = try #require(headers[CloudKitSigner.signatureHeader])
        let signature = try #require(Data(base64Encoded: encoded))
        try signature.write(to: URL(fileURLWithPath: folder.file("signature.der")))
        _ = try ProcessRunner.run("/usr/bin/openssl", ["ec", "-in", keyPath, "-pubout", "-out", folder.file("public.pem")])

        let verified = try ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-verify", folder.file("public.pem"),
                                                                  "-signature", folder.file("signature.der"), folder.file("message")])
        #expect(verified.stdout.contains("Verified OK"), "\(verified.stdout) \(verified.stderr)")

        // A different subpath does not verify: the signature covers it.
        try Data((message + "x").utf8).write(to: URL(fileURLWithPath: folder.file("tampered")))
        let tampered = try ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-verify", folder.file("public.pem"),
                                                                  "-signature", folder.file("signature.der"), folder.file("tampered")])
        #expect(!tampered.stdout.contains("Verified OK"))
    }

    @Test func ourVerifierAgreesWithTheSigner() throws {
        let pem = try #require(FileManager.default.contents(atPath: keyPath))
        let signer = try CloudKitSigner(keyID: "k", privateKeyPEM: Array(pem))
        let message = Array("2026-11-21T10:15:43Z:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:/database/1/x".utf8)
        let signature = try signer.sign(message)
        let publicKey = try #require(CloudKitSignatureVerifier.publicKeyPEM(ofPrivateKey: Array(pem)))
        #expect(CloudKitSignatureVerifier.isValid(signature: signature, message: message, publicKeyPEM: publicKey))
        #expect(!CloudKitSignatureVerifier.isValid(signature: signature, message: message + [0x20], publicKeyPEM: publicKey))
    }

    @Test func emptyBodyHashIsTheKnownSHA256() {
        #expect(CloudKitSigner.bodyHash([]) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    @Test func keyReadableByOthersIsRefused() throws {
        chmod(keyPath, 0o644)
        #expect(throws: CloudKitConfigurationError.keyFilePermissions(path: keyPath, mode: 0o644)) {
            try CloudKitSigner(keyID: "k", keyFile: keyPath)
        }
    }

    @Test func nonP256KeyIsRefusedWithAClearReason() throws {
        let rsaPath = folder.file("rsa.pem")
        _ = try ProcessRunner.run("/usr/bin/openssl", ["genrsa", "-out", rsaPath, "2048"])
        chmod(rsaPath, 0o600)
        let error = #expect(throws: CloudKitConfigurationError.self) { try CloudKitSigner(keyID: "k", keyFile: rsaPath) }
        #expect(error?.localizedDescription.contains("P-256") == true)
    }

    @Test func descriptionNeverShowsTheKey() throws {
        let signer = try CloudKitSigner(keyID: "0123456789abcdef0123", keyFile: keyPath)
        #expect(!"\(signer)".contains("BEGIN"))
        #expect(!"\(signer)".contains("0123456789abcdef0123"))
    }
}
