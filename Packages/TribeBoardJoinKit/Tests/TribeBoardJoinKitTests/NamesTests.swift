import Foundation
import Testing
@testable import TribeBoardJoinKit

/// SHA-256 and the derived names, against digests made by `openssl dgst -sha256` (the command
/// beside each).
struct NamesTests {
    static let openssl: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        // python3 -c "print('x'*55,end='')" | openssl dgst -sha256: padding fits one block
        (String(repeating: "x", count: 55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
        // 64 bytes: padding needs a second block
        (String(repeating: "x", count: 64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test func portableDigestMatchesOpenSSL() {
        for vector in Self.openssl {
            let hex = JoinKitSHA256.portableHash(Array(vector.message.utf8))
                .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(hex == vector.digest, "\(vector.message.prefix(20))…")
            #expect(JoinKitSHA256.hexHash(vector.message) == vector.digest)
        }
    }

    /// docs/code-claims.md's worked example, and more: printf 'tribeboard-family-code-claim:v1:CODE' | openssl dgst -sha256
    @Test(arguments: [
        ("abc234 ", "e6738d14d0c1e2031de5af6ece1209f9afce58950ceb1be815473af6ae361f04"),
        ("iiiiii", "b911c539306926ce3db97eaaeb9166eb6bbce6e31f98afa94365ed67ff534877"),
        ("１２３４５６", "1783561830db9093704d63309fc5be339093fb29f68c487045ad3adffba99c97"),
        ("\u{200B}abcdefgh", "adba6b08dcea86a0fc48275d3295a244eb31d22e44c3641ad25b2fa2eaa925f3"),
    ])
    func claimNames(typed: String, name: String) throws {
        #expect(try JoinNames.claim(forTyped: typed) == name)
    }

    /// printf 'tribeboard-family-admin-seat:v1:01A216C7-06BE-7028-A212-3324D7066B6F' | openssl dgst -sha256
    /// = b95e23a6f6aaf68b8e4639591401ba4c…, first 16 bytes with version 8 and the RFC variant.
    @Test func adminSeat() {
        let seat = JoinNames.adminSeat(forFamily: "01A216C7-06BE-7028-A212-3324D7066B6F")
        #expect(seat.uuidString == "B95E23A6-F6AA-868B-8E46-39591401BA4C")
    }
}
